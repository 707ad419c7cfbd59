// The run-time allowlist: hosts (or host:port) the owner admits for destinations beside
// webhooks.forwarding.allow, kept in the database so that every process reads the same list.
import { SwitchyardError } from '../errors.js';
import type { Clock } from '../clock.js';
import { readAllowRequest } from './allow-entry.js';
import type { ForwardAllowStore, OutboundSender } from './ports.js';

/** How often each process reads the run-time allowlist (another process's change counts within this). */
export const ALLOW_REFRESH_MS = 1000;

/** An allowlist entry as the owner reads it: from the configuration, or added at run time. */
export interface AllowView {
  host: string;
  source: 'config' | 'database';
  created_at: string | null;
}

export class ForwardAllowlist {
  private readAt = 0;

  constructor(
    private readonly sender: OutboundSender,
    private readonly clock: Clock,
    private readonly store: ForwardAllowStore | null = null,
    private readonly configAllow: readonly string[] = [],
  ) {}

  /**
   * Reads the run-time list (at most once a second unless forced) and hands it to the sender; the
   * forwarder reads it before each look for due jobs, so an entry another process added counts.
   */
  async refresh(force = false): Promise<void> {
    if (!this.store) return;
    const now = Date.now(); // wall time, not the service clock: a throttle, not a rule
    if (!force && now - this.readAt < ALLOW_REFRESH_MS) return;
    this.readAt = now;
    this.sender.admitAlso((await this.store.list()).map((r) => r.entry));
  }

  /** Refuses a destination URL the sender would not send to (blocked_address, naming how to admit it). */
  async admit(url: string): Promise<void> {
    // An entry another process added a moment ago counts.
    await this.refresh(true);
    const why = await this.sender.refusal(url);
    if (why) throw new SwitchyardError('blocked_address', `url: ${why}${why.includes('allowlisted') ? '; the owner may admit it at run time: POST /api/forwarding/allow {"host": "host:port"}' : ''}`, { field: 'url' });
  }

  private requireStore(): ForwardAllowStore {
    if (!this.store) throw new SwitchyardError('invalid_request', 'this service keeps no run-time allowlist');
    return this.store;
  }

  /** The configuration's entries, then those added at run time (oldest first). */
  async list(): Promise<AllowView[]> {
    const added = await this.requireStore().list();
    this.sender.admitAlso(added.map((r) => r.entry));
    return [...this.configAllow.map((host) => ({ host, source: 'config' as const, created_at: null })), ...added.map((r) => ({ host: r.entry, source: 'database' as const, created_at: r.created_at }))];
  }

  /** Admits a host (or host:port) for destinations in every process; answers whether it was new. */
  async allow(payload: unknown): Promise<{ host: string; added: boolean }> {
    const { entry } = readAllowRequest(payload);
    const added = await this.requireStore().add(entry, this.clock.now().toISOString());
    await this.refresh(true);
    return { host: entry, added };
  }

  /** Takes a run-time entry away: attempts to it are refused again (within a second in every process). */
  async disallow(payload: unknown): Promise<{ host: string }> {
    const { entry } = readAllowRequest(payload);
    const store = this.requireStore();
    if (!(await store.remove(entry))) {
      if (this.configAllow.some((e) => e.trim().toLowerCase() === entry)) throw new SwitchyardError('invalid_request', `host: ${entry} is in the configuration (webhooks.forwarding.allow); change it there`, { field: 'host' });
      throw new SwitchyardError('not_found', `${entry} is not on the run-time allowlist`);
    }
    await this.refresh(true);
    return { host: entry };
  }
}
