// Imported MCP servers: at start and on refresh, a configured server's tools/list becomes the
// capabilities of its system, each run by a ToolRunner through the shared MCP client. Each listed
// definition is reviewed against its pin (tool-review.ts): served, pinned, or held. A problem of the
// configuration (a system that is another's, an override the tools contradict) is a SwitchyardError
// naming its key (details.config_key), which the app turns into its refusal to start.
// With several processes on one database, what a refresh found is shared: the others serve it
// from the database when they hear of it (ImportedStateChannel), without listing the server.
import { SwitchyardError } from '../errors.js';
import { ToolRunner } from './tool-runner.js';
import { applyOverride, overrideOf, overrideProblems, type ToolOverride } from './tool-override.js';
import { canonicalToolDefinition, importTools, type McpToolDescription, type CapabilityDefinition, type CapabilityRegistry, type RunnerDirectory, type ImportedToolPolicy } from '../capabilities/index.js';
import { definitionDiff } from './tool-diff.js';
import { isFlapping, reviewListing, type HeldTool } from './tool-review.js';
import { newToolPinId, type ToolPin } from './tool-pin.js';
import { systemClock, type Clock } from '../clock.js';
import type { HeldToolChanges, ImportedStateChannel, ToolPinStore, ForwardedRequestOptions, UpstreamAddress, UpstreamImports, UpstreamRefresh, UpstreamStatus, UpstreamToolClient } from './ports.js';

/** A server whose tools are imported as the capabilities of `system`: where it is, and how its tools are governed (the app makes one of each upstreams.servers.<name>). */
export interface ConfiguredServer {
  system: string;
  address: UpstreamAddress;
  /** Per tool: the policy, and overrides of what callers are shown and what runs (tool-override.ts). */
  tools?: Record<string, ImportedToolPolicy & ToolOverride>;
  defaults?: ImportedToolPolicy;
  /** A changed, new or removed tool: held for the owner's approval (the default), or pinned and served at once. */
  onChange?: 'hold' | 'accept';
}

interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
}

interface ServerState {
  name: string;
  config: ConfiguredServer;
  address: UpstreamAddress;
  runner: ToolRunner;
  keys: string[];
  status: UpstreamStatus['status'];
  lastRefresh: string | null;
  lastError: { code: string; message: string } | null;
  /** Refreshes of one server run one at a time, so two never interleave their registry swaps. */
  queue: Promise<unknown>;
  /** What the last successful refresh listed (an approval serves from it without listing again). */
  lastListing: McpToolDescription[] | null;
  /** Tools held for the owner's review, and how many the bound left out. */
  held: HeldTool[];
  omitted: number;
  /** The version of the shared state this process serves (0: none yet). */
  version: number;
}

/** Where pins are kept: without it (unit tests of the import alone), nothing is pinned or held. */
export interface ToolGovernance {
  pins: ToolPinStore;
  clock?: Clock;
  /** Where refreshes are shared with the other processes on the database (none: this process alone). */
  shared?: ImportedStateChannel;
}

export class ConfiguredUpstreamImports implements UpstreamImports {
  private readonly servers = new Map<string, ServerState>();
  private stopListening: (() => void) | undefined;

  constructor(
    servers: Record<string, ConfiguredServer>,
    private readonly registry: CapabilityRegistry,
    private readonly runners: RunnerDirectory,
    private readonly tools: UpstreamToolClient,
    private readonly logger: Logger,
    private readonly listTimeoutMs: number,
    private readonly governance?: ToolGovernance,
  ) {
    // A server's system is its own: replacing it must never sweep away a plugin's capabilities.
    const pluginSystems = new Set(registry.list().map((c) => c.system));
    const owners = new Map<string, string>();
    for (const [name, config] of Object.entries(servers)) {
      if (pluginSystems.has(config.system)) throw configProblem(`upstreams.servers.${name}.system`, `${config.system} is already the system of a plugin`);
      if (owners.has(config.system)) throw configProblem(`upstreams.servers.${name}.system`, `${config.system} is already the system of upstream ${owners.get(config.system)}`);
      owners.set(config.system, name);
      const address = config.address;
      this.servers.set(name, { name, config, address, runner: new ToolRunner(tools, address), keys: [], status: 'pending', lastRefresh: null, lastError: null, queue: Promise.resolve(), lastListing: null, held: [], omitted: 0, version: 0 });
    }
  }

  /**
   * Imports every server once. A server that is down does not stop the start: it is logged, keeps
   * no capabilities, and is tried again by a refresh (HTTP, CLI), its own list_changed notice (in a
   * process that listens for them), or another process's refresh.
   */
  async start(): Promise<void> {
    const refused: SwitchyardError[] = [];
    await Promise.all(
      [...this.servers.values()].map((state) =>
        this.queued(state, () => this.refreshNow(state, { atStart: true })).then(
          (change) => this.logger.info('upstream imported', { server: state.name, system: change.system, count: change.count, simplified: change.simplified }),
          (err: Error) => {
            // An override the server's tools contradict is the owner's mistake: the start is refused, naming the config key.
            if (SwitchyardError.is(err) && typeof (err as SwitchyardError).details['config_key'] === 'string') refused.push(err as SwitchyardError);
            else this.logger.warn('upstream not imported at start; refresh to retry', { server: state.name, error: err.message });
          },
        ),
      ),
    );
    if (refused.length > 0) throw refused[0];
  }

  /**
   * Refreshes a server when it says its tool list changed (the refresher: worker and `all`
   * processes; an api process hears of the refresh instead). Returns a function that stops it.
   */
  listenForListChanges(): () => void {
    this.stopListening?.();
    const stop = this.tools.onToolListChanged((upstream) => {
      const state = [...this.servers.values()].find((s) => s.address.url === upstream.url && s.address.transport === upstream.transport);
      if (!state) return;
      this.refresh(state.name).then(
        (change) => this.logger.info('upstream tool list changed; imported again', { server: change.server, added: change.added, removed: change.removed }),
        () => {},
      );
    });
    this.stopListening = stop;
    return () => {
      stop();
      if (this.stopListening === stop) this.stopListening = undefined;
    };
  }

  stop(): void {
    this.stopListening?.();
  }

  /** Whether refreshes are shared with other processes (a PostgreSQL database). */
  get shared(): boolean {
    return this.governance?.shared !== undefined;
  }

  /**
   * Hears the other processes' refreshes and serves what they stored (nothing to hear without a
   * shared database). A failure to read one is logged; the next refresh heard reads again.
   */
  listenToOtherProcesses(): Promise<{ close(): Promise<void> }> {
    const shared = this.governance?.shared;
    if (!shared) return Promise.resolve({ close: async () => {} });
    return shared.listen((name) => {
      this.heard(name).catch((err: Error) => this.logger.warn('another process refreshed an upstream; could not read what it found', { server: name, error: err.message }));
    });
  }

  /**
   * Another process refreshed server `name` (null: any server may have changed): each serves what
   * was stored, in its turn among its refreshes, unless it serves that or a newer state already.
   */
  async heard(name: string | null): Promise<void> {
    const states = name === null ? [...this.servers.values()] : [this.servers.get(name)].filter((s): s is ServerState => s !== undefined);
    await Promise.all(states.map((state) => this.queued(state, () => this.adopt(state))));
  }

  list(): UpstreamStatus[] {
    return [...this.servers.values()]
      .map((s) => ({
        name: s.name,
        system: s.config.system,
        transport: s.address.transport,
        address: s.address.url,
        status: s.status,
        tools: s.keys.length,
        keys: [...s.keys],
        last_refresh: s.lastRefresh,
        last_error: s.lastError,
      }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  keysOf(name: string): string[] | undefined {
    const state = this.servers.get(name);
    return state ? [...state.keys] : undefined;
  }

  /** A resources, prompts or completion request to the server, with the list timeout; the caller's era and channel go with it. */
  async forward(name: string, method: string, params: Record<string, unknown> | undefined, options: Omit<ForwardedRequestOptions, 'timeoutMs'> = {}): Promise<Record<string, unknown>> {
    const state = this.servers.get(name);
    if (!state) throw new SwitchyardError('upstream_not_found', `no upstream server named ${JSON.stringify(name)} in config upstreams.servers`, { name, upstreams: [...this.servers.keys()].sort() });
    if (!this.tools.request) throw new SwitchyardError('upstream_unavailable', `the upstream client cannot forward ${method}`, { upstream: state.address.url, method });
    return this.tools.request(state.address, method, params, { ...options, timeoutMs: this.listTimeoutMs });
  }

  /** Each server configured at the address that sent notifications/resources/updated (usually one). */
  onResourceUpdated(listener: (name: string, params: { uri: string } & Record<string, unknown>) => void): () => void {
    if (!this.tools.onResourceUpdated) return () => {};
    return this.tools.onResourceUpdated((upstream, params) => {
      for (const s of this.servers.values()) {
        if (s.address.url === upstream.url && s.address.transport === upstream.transport) listener(s.name, params);
      }
    });
  }

  refresh(name: string): Promise<UpstreamRefresh> {
    const state = this.servers.get(name);
    if (!state) {
      return Promise.reject(new SwitchyardError('upstream_not_found', `no upstream server named ${JSON.stringify(name)} in config upstreams.servers`, { name, upstreams: [...this.servers.keys()].sort() }));
    }
    return this.queued(state, () => this.refreshNow(state));
  }

  held(): { tools: HeldTool[]; omitted: number } {
    const states = [...this.servers.values()];
    return { tools: states.flatMap((s) => s.held).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)), omitted: states.reduce((n, s) => n + s.omitted, 0) };
  }

  changes(key: string): HeldToolChanges {
    const { hold } = this.holdOf(key);
    const before = hold.pinned ? (JSON.parse(hold.pinned.definition) as unknown) : null;
    const after = hold.listed ? (JSON.parse(hold.listed.definition) as unknown) : null;
    return { ...hold, before, after, diff: definitionDiff(before ?? {}, after ?? {}), flapping: isFlapping(hold) };
  }

  approve(key: string, hash: string, actor: string): Promise<ToolPin> {
    const { state } = this.holdOf(key);
    return this.queued(state, async () => {
      // Looked up again inside the queue: a refresh that ran first may have changed the hold.
      const { hold } = this.holdOf(key);
      if (!hold.listed) throw new SwitchyardError('invalid_request', `${hold.key} is no longer listed by server ${hold.server}: there is no definition to approve; it stays held until the server lists it again`, { key: hold.key, reason: hold.reason });
      if (hash !== hold.listed.definition_hash) {
        throw new SwitchyardError('tool_hash_stale', `${hold.key}: ${hash} is not the definition held for review (the server changed it again); review ${hold.listed.definition_hash}`, { key: hold.key, hash, held_hash: hold.listed.definition_hash, review: `/api/tools/${hold.key}/changes` });
      }
      if (isFlapping(hold)) {
        throw new SwitchyardError('tool_flapping', `${hold.key}: its definition changed on each of the last ${hold.changes_in_a_row} refreshes; approve it once it holds still`, { key: hold.key, changes_in_a_row: hold.changes_in_a_row });
      }
      const pin: ToolPin = { id: newToolPinId(), key: hold.key, server: hold.server, tool: hold.tool, definition_hash: hash, definition: hold.listed.definition, override_hash: hold.listed.override_hash, reason: 'approved', pinned_by: actor, pinned_at: this.now() };
      await this.governance!.pins.pin([pin]);
      await this.apply(state, state.lastListing ?? []);
      return pin;
    });
  }

  private holdOf(key: string): { state: ServerState; hold: HeldTool } {
    const wanted = key.toUpperCase();
    for (const state of this.servers.values()) {
      const hold = state.held.find((h) => h.key === wanted);
      if (hold) return { state, hold };
    }
    throw new SwitchyardError('not_found', `no tool ${JSON.stringify(key)} is held for review`, { key, held: `/api/tools/held` });
  }

  private queued<T>(state: ServerState, work: () => Promise<T>): Promise<T> {
    const next = state.queue.then(work);
    state.queue = next.catch(() => {});
    return next;
  }

  private now(): string {
    return (this.governance?.clock ?? systemClock).now().toISOString();
  }

  /** Lists again and swaps the system as a whole; on failure the set registered before stays. */
  private async refreshNow(state: ServerState, options: { atStart?: boolean } = {}): Promise<UpstreamRefresh> {
    try {
      const listed = await this.tools.listTools(state.address, { timeoutMs: this.listTimeoutMs });
      return await this.apply(state, listed, options);
    } catch (err) {
      const coded = SwitchyardError.is(err) ? err : new SwitchyardError('upstream_unavailable', (err as Error).message);
      state.status = 'error';
      state.lastError = { code: coded.code, message: coded.message };
      state.lastRefresh = new Date().toISOString();
      throw coded;
    }
  }

  /** Imports a listing: each definition reviewed against its pin, the served ones registered, the rest held. */
  private async apply(state: ServerState, listed: McpToolDescription[], options: { atStart?: boolean } = {}): Promise<UpstreamRefresh> {
    const { config } = state;
    const { definitions: imported, simplified, refused } = importTools({ name: state.name, system: config.system, ...(config.tools ? { tools: config.tools } : {}), ...(config.defaults ? { defaults: config.defaults } : {}) }, listed);
    const unlisted = Object.keys(config.tools ?? {}).filter((tool) => !listed.some((t) => t.name === tool));
    // Most likely a typo in config: the tool it meant would silently get the strict defaults. An
    // override of a tool the server does not list refuses the start (later, the tool may just be gone).
    const overriddenUnlisted = unlisted.find((tool) => overrideOf(config.tools![tool] as Record<string, unknown>) !== undefined);
    if (options.atStart && overriddenUnlisted !== undefined) throw configProblem(`upstreams.servers.${state.name}.tools.${overriddenUnlisted}`, `server ${state.name} lists no tool ${overriddenUnlisted}`);
    if (unlisted.length) this.logger.warn('upstream config names tools the server does not list', { server: state.name, tools: unlisted });
    if (refused.length) this.logger.warn('upstream tools not imported', { server: state.name, refused });
    const definitions = this.overridden(state, listed, imported);
    const served = this.governance ? await this.review(state, listed, definitions) : definitions;
    const { added, removed } = this.serve(state, served, listed, new Date().toISOString());
    await this.publish(state);
    const held = state.held.map((h) => h.key);
    return { ok: true, server: state.name, system: config.system, added, removed, count: served.length, simplified, ...(held.length ? { held } : {}), ...(refused.length ? { refused } : {}) };
  }

  /** Registers what is served and holds the rest: the system swapped as a whole. */
  private serve(state: ServerState, served: CapabilityDefinition[], listed: McpToolDescription[], refreshedAt: string): { added: string[]; removed: string[] } {
    const { added, removed } = this.registry.replaceSystem(state.config.system, served, state.address.url);
    this.registry.holdKeys(state.config.system, state.held.map((h) => ({ key: h.key, reason: h.reason, pinned_hash: h.pinned?.definition_hash ?? null, listed_hash: h.listed?.definition_hash ?? null })));
    for (const key of removed) this.runners.release(key);
    for (const key of added) this.runners.assign(key, state.runner);
    state.keys = served.map((d) => d.key);
    state.lastListing = listed;
    state.status = 'ok';
    state.lastError = null;
    state.lastRefresh = refreshedAt;
    return { added, removed };
  }

  /** Stores what this process now serves of a server and tells the others; if that fails, they keep theirs until the next refresh. */
  private async publish(state: ServerState): Promise<void> {
    const shared = this.governance?.shared;
    if (!shared) return;
    try {
      state.version = await shared.publish({ server: state.name, address: state.address.url, listing: state.lastListing ?? [], served: state.keys, held: state.held, omitted: state.omitted, refreshed_at: state.lastRefresh! });
    } catch (err) {
      this.logger.warn('upstream refresh not shared with the other processes', { server: state.name, error: (err as Error).message });
    }
  }

  /** Serves the state another process stored for this server: its listing imported as here, its served keys and holds as they decided. */
  private async adopt(state: ServerState): Promise<void> {
    const stored = await this.governance?.shared?.latest(state.name);
    if (!stored || stored.version <= state.version) return;
    if (stored.address !== state.address.url) {
      this.logger.warn('another process refreshed this upstream name at another address; kept this one', { server: state.name });
      return;
    }
    const { config } = state;
    const { definitions } = importTools({ name: state.name, system: config.system, ...(config.tools ? { tools: config.tools } : {}), ...(config.defaults ? { defaults: config.defaults } : {}) }, stored.listing);
    const served = new Set(stored.served);
    const heldBefore = state.held.map((h) => `${h.key} ${h.listed?.definition_hash}`).join();
    state.held = stored.held;
    state.omitted = stored.omitted;
    const { added, removed } = this.serve(state, this.overridden(state, stored.listing, definitions).filter((d) => served.has(d.key)), stored.listing, stored.refreshed_at);
    state.version = stored.version;
    // The same tools as before (processes starting side by side list alike) are not news.
    const changed = added.length > 0 || removed.length > 0 || heldBefore !== state.held.map((h) => `${h.key} ${h.listed?.definition_hash}`).join();
    this.logger[changed ? 'info' : 'debug']('upstream tools taken from another process\'s refresh', { server: state.name, added, removed, held: stored.held.map((h) => h.key) });
  }

  /** Each definition with the owner's override applied (hidden ones left out); a contradicted override is a coded error naming its config key. */
  private overridden(state: ServerState, listed: McpToolDescription[], definitions: CapabilityDefinition[]): CapabilityDefinition[] {
    const byName = new Map(listed.map((t) => [t.name, t]));
    const out: CapabilityDefinition[] = [];
    for (const def of definitions) {
      const override = overrideOf(state.config.tools?.[def.tool!] as Record<string, unknown> | undefined);
      if (!override) {
        out.push(def);
        continue;
      }
      const [problem] = overrideProblems(byName.get(def.tool!)!, override, `upstreams.servers.${state.name}.tools.${def.tool}`, state.config.system);
      if (problem) throw configProblem(problem.key, problem.message);
      const shown = applyOverride(def, override);
      if (shown) out.push(shown);
    }
    return out;
  }

  /** Pins what the review says to pin (ledger entries) and keeps its holds; returns the definitions to serve. */
  private async review(state: ServerState, listed: McpToolDescription[], definitions: ReturnType<typeof importTools>['definitions']) {
    const { pins } = this.governance!;
    const byName = new Map(listed.map((t) => [t.name, t]));
    const now = this.now();
    const review = reviewListing({
      server: state.name,
      onChange: state.config.onChange ?? 'hold',
      listed: definitions.map((d) => ({ key: d.key, tool: d.tool!, definition_hash: d.definition_hash!, definition: canonicalToolDefinition(byName.get(d.tool!)!), override_hash: d.override_hash ?? null })),
      // A hidden tool is out of the review: neither served nor held as removed.
      pins: (await pins.current(state.name)).filter((p) => !state.config.tools?.[p.tool]?.hidden),
      previous: state.held,
      now,
    });
    await pins.pin(review.pins.map((p) => ({ ...p, id: newToolPinId(), pinned_by: p.reason === 'first_use' ? 'first_use' : 'onChange:accept', pinned_at: now })));
    if (review.held.length > 0) this.logger.warn('upstream tools held for review', { server: state.name, held: review.held.map((h) => `${h.key} (${h.reason})`), omitted: review.omitted });
    state.held = review.held;
    state.omitted = review.omitted;
    const served = new Set(review.served);
    return definitions.filter((d) => served.has(d.key));
  }
}

/** A problem of the configuration: invalid_request naming its key (a refused start, or a refresh that keeps the earlier set). */
export const configProblem = (configKey: string, problem: string): SwitchyardError =>
  new SwitchyardError('invalid_request', `config ${configKey}: ${problem}`, { config_key: configKey, problem });
