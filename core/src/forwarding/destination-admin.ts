// The owner's side of forwarding: a webhook's destinations (create, change, rotate, remove), how
// each stands (settings and circuit), its dead letters, and bulk retries. The forwarder of this
// process hears of each change, so its short cache of active destinations never serves a stale one.
import { SwitchyardError } from '../errors.js';
import type { Clock } from '../clock.js';
import type { Page } from '../page.js';
import type { WebhookStore, ForwardJob } from '../webhooks/index.js';
import type { CircuitView } from './circuit.js';
import { DESTINATION_ID_PATTERN, MAX_DESTINATIONS_PER_WEBHOOK, destinationView, newDestinationId, newDestinationSecret, readDestinationSettings, type Destination } from './destination.js';
import type { ForwardAllowlist } from './forward-allowlist.js';
import type { DestinationStore, ForwardJobStore } from './ports.js';
import { readRetrySelector } from './retry-selector.js';
import { readRotation } from './secret-rotation.js';

/** What the owner's changes need of the forwarder: its cache dropped, due work looked for, circuits read. */
export interface ForwardingSchedule {
  destinationsChanged(hookId: string): void;
  kick(): void;
  circuitViews(ids: string[]): Promise<Map<string, CircuitView>>;
}

/** A destination as its owner reads it: settings (the secret only when asked) and circuit. */
export type DestinationWithCircuit = ReturnType<typeof destinationView> & { circuit: CircuitView };

export class DestinationAdmin {
  constructor(
    private readonly webhooks: WebhookStore,
    private readonly destinations: DestinationStore,
    private readonly jobs: ForwardJobStore,
    private readonly schedule: ForwardingSchedule,
    private readonly allowlist: ForwardAllowlist,
    private readonly clock: Clock,
  ) {}

  private async requireHook(hookId: string): Promise<void> {
    if (!(await this.webhooks.get(hookId))) throw new SwitchyardError('webhook_not_found', `no webhook ${hookId}`);
  }

  private async requireDestination(hookId: string, id: string): Promise<Destination> {
    await this.requireHook(hookId);
    const found = DESTINATION_ID_PATTERN.test(id) ? await this.destinations.get(hookId, id) : undefined;
    if (!found || found.deleted_at) throw new SwitchyardError('not_found', `webhook ${hookId} has no destination ${id}`);
    return found;
  }

  async create(hookId: string, payload: unknown): Promise<Destination> {
    await this.requireHook(hookId);
    const settings = readDestinationSettings(payload, null);
    await this.allowlist.admit(settings.url);
    const existing = await this.destinations.list(hookId);
    if (existing.length >= MAX_DESTINATIONS_PER_WEBHOOK) {
      throw new SwitchyardError('invalid_request', `a webhook has at most ${MAX_DESTINATIONS_PER_WEBHOOK} destinations; delete one first`, { field: 'url', limit: MAX_DESTINATIONS_PER_WEBHOOK });
    }
    const now = this.clock.now().toISOString();
    const created = await this.destinations.create({ ...settings, id: newDestinationId(), hook_id: hookId, secret: newDestinationSecret(), previous_secret: null, previous_secret_until: null, deleted_at: null, created_at: now, updated_at: now });
    this.schedule.destinationsChanged(hookId);
    return created;
  }

  async list(hookId: string): Promise<Destination[]> {
    await this.requireHook(hookId);
    return this.destinations.list(hookId);
  }

  get(hookId: string, id: string): Promise<Destination> {
    return this.requireDestination(hookId, id);
  }

  async update(hookId: string, id: string, payload: unknown): Promise<Destination> {
    const current = await this.requireDestination(hookId, id);
    const settings = readDestinationSettings(payload, current);
    if (settings.url !== current.url) await this.allowlist.admit(settings.url);
    const updated = await this.destinations.update(hookId, id, { ...settings, updated_at: this.clock.now().toISOString() });
    this.schedule.destinationsChanged(hookId);
    return updated!;
  }

  /**
   * A new secret, answered once; for `grace_s` every attempt is signed with the old one too (a
   * rotation within a grace drops the secret before the old one).
   */
  async rotateSecret(hookId: string, id: string, payload: unknown): Promise<Destination> {
    const { grace_s } = readRotation(payload);
    const current = await this.requireDestination(hookId, id);
    const now = this.clock.now();
    const next = {
      secret: newDestinationSecret(),
      previous_secret: grace_s > 0 ? current.secret : null,
      previous_secret_until: grace_s > 0 ? new Date(now.getTime() + grace_s * 1000).toISOString() : null,
      updated_at: now.toISOString(),
    };
    if (!(await this.destinations.rotate(hookId, id, current.secret, next))) {
      throw new SwitchyardError('rotation_conflict', `destination ${id}'s secret was rotated by another request meanwhile; read it and rotate again if you need to`);
    }
    this.schedule.destinationsChanged(hookId);
    return { ...current, ...next };
  }

  /** Stops it: no new jobs, and its pending ones end as skipped when next due. Its history stays. */
  async remove(hookId: string, id: string): Promise<Destination> {
    await this.requireDestination(hookId, id);
    const now = this.clock.now().toISOString();
    const removed = await this.destinations.update(hookId, id, { on: false, deleted_at: now, updated_at: now });
    this.schedule.destinationsChanged(hookId);
    return removed!;
  }

  /** Destinations' circuits, as every process sharing the store sees them. */
  circuitViews(ids: string[]): Promise<Map<string, CircuitView>> {
    return this.schedule.circuitViews(ids);
  }

  /** Destinations as their owner reads them: settings and circuit (the secret only when asked). */
  async views(list: Destination[], withSecret = false): Promise<DestinationWithCircuit[]> {
    const circuits = await this.circuitViews(list.map((d) => d.id));
    return list.map((d) => ({ ...destinationView(d, withSecret), circuit: circuits.get(d.id)! }));
  }

  async view(d: Destination, withSecret = false): Promise<DestinationWithCircuit> {
    return (await this.views([d], withSecret))[0]!;
  }

  async dead(hookId: string, id: string, after: string | null, limit: number): Promise<Page<ForwardJob>> {
    await this.requireDestination(hookId, id);
    return this.jobs.dead(id, after, limit);
  }

  /**
   * Re-forwards in bulk: dead jobs ({state: "dead"}, or {from, to}: ISO times of receipt), or the
   * named entries ({entries: [dlv_…]}) whether dead or delivered. Each starts a new series.
   */
  async retry(hookId: string, id: string, payload: unknown): Promise<number> {
    await this.requireDestination(hookId, id);
    const count = await this.jobs.requeue(id, readRetrySelector(payload), this.clock.now().getTime());
    if (count > 0) this.schedule.kick();
    return count;
  }
}
