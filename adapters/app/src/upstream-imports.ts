// Imported MCP servers: at start and on refresh, a configured server's tools/list becomes the
// capabilities of its system, each run by a ToolRunner through the shared MCP client.
import {
  SwitchyardError,
  ToolRunner,
  importTools,
  type CapabilityRegistry,
  type RunnerDirectory,
  type UpstreamAddress,
  type UpstreamImports,
  type UpstreamRefresh,
  type UpstreamStatus,
  type UpstreamToolClient,
} from '@switchyard/core';
import { ConfigError, type UpstreamServerConfig } from './config.js';
import type { Logger } from './logger.js';

interface ServerState {
  name: string;
  config: UpstreamServerConfig;
  address: UpstreamAddress;
  runner: ToolRunner;
  keys: string[];
  status: UpstreamStatus['status'];
  lastRefresh: string | null;
  lastError: { code: string; message: string } | null;
  /** Refreshes of one server run one at a time, so two never interleave their registry swaps. */
  queue: Promise<unknown>;
}

/**
 * The address the MCP client connects to. A stdio server is shown as `stdio:<name>`: contracts are
 * public, and a command line can carry paths and secrets.
 */
export function upstreamAddress(name: string, config: UpstreamServerConfig): UpstreamAddress {
  if (config.transport === 'stdio') {
    return {
      url: `stdio:${name}`,
      transport: 'stdio',
      command: config.command!,
      ...(config.args ? { args: config.args } : {}),
      ...(config.env ? { env: config.env } : {}),
      ...(config.cwd ? { cwd: config.cwd } : {}),
    };
  }
  return { url: config.url!, transport: config.transport, ...(config.headers ? { headers: config.headers } : {}), ...(config.oauth ? { oauth: name } : {}) };
}

export class ConfiguredUpstreamImports implements UpstreamImports {
  private readonly servers = new Map<string, ServerState>();
  private stopListening: (() => void) | undefined;

  constructor(
    servers: Record<string, UpstreamServerConfig>,
    private readonly registry: CapabilityRegistry,
    private readonly runners: RunnerDirectory,
    private readonly tools: UpstreamToolClient,
    private readonly logger: Logger,
    private readonly listTimeoutMs: number,
  ) {
    // A server's system is its own: replacing it must never sweep away a plugin's capabilities.
    const pluginSystems = new Set(registry.list().map((c) => c.system));
    const owners = new Map<string, string>();
    for (const [name, config] of Object.entries(servers)) {
      if (pluginSystems.has(config.system)) throw new ConfigError(`upstreams.servers.${name}.system`, `${config.system} is already the system of a plugin`);
      if (owners.has(config.system)) throw new ConfigError(`upstreams.servers.${name}.system`, `${config.system} is already the system of upstream ${owners.get(config.system)}`);
      owners.set(config.system, name);
      const address = upstreamAddress(name, config);
      this.servers.set(name, { name, config, address, runner: new ToolRunner(tools, address), keys: [], status: 'pending', lastRefresh: null, lastError: null, queue: Promise.resolve() });
    }
  }

  /**
   * Imports every server once. A server that is down does not stop the start: it is logged, keeps
   * no capabilities, and is tried again by a refresh (HTTP, CLI) or its own list_changed notice.
   */
  async start(): Promise<void> {
    this.stopListening = this.tools.onToolListChanged((upstream) => {
      const state = [...this.servers.values()].find((s) => s.address.url === upstream.url && s.address.transport === upstream.transport);
      if (!state) return;
      this.refresh(state.name).then(
        (change) => this.logger.info('upstream tool list changed; imported again', { server: change.server, added: change.added, removed: change.removed }),
        () => {},
      );
    });
    await Promise.all(
      [...this.servers.keys()].map((name) =>
        this.refresh(name).then(
          (change) => this.logger.info('upstream imported', { server: name, system: change.system, count: change.count, simplified: change.simplified }),
          (err: Error) => this.logger.warn('upstream not imported at start; refresh to retry', { server: name, error: err.message }),
        ),
      ),
    );
  }

  stop(): void {
    this.stopListening?.();
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

  /** A resources, prompts or completion request to the server, with the list timeout. */
  async forward(name: string, method: string, params: Record<string, unknown> | undefined): Promise<Record<string, unknown>> {
    const state = this.servers.get(name);
    if (!state) throw new SwitchyardError('upstream_not_found', `no upstream server named ${JSON.stringify(name)} in config upstreams.servers`, { name, upstreams: [...this.servers.keys()].sort() });
    if (!this.tools.request) throw new SwitchyardError('upstream_unavailable', `the upstream client cannot forward ${method}`, { upstream: state.address.url, method });
    return this.tools.request(state.address, method, params, { timeoutMs: this.listTimeoutMs });
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
    const next = state.queue.then(() => this.refreshNow(state));
    state.queue = next.catch(() => {});
    return next;
  }

  /** Lists again and swaps the system as a whole; on failure the set registered before stays. */
  private async refreshNow(state: ServerState): Promise<UpstreamRefresh> {
    const { config } = state;
    try {
      const listed = await this.tools.listTools(state.address, { timeoutMs: this.listTimeoutMs });
      const { definitions, simplified } = importTools({ name: state.name, system: config.system, ...(config.tools ? { tools: config.tools } : {}), ...(config.defaults ? { defaults: config.defaults } : {}) }, listed);
      const unlisted = Object.keys(config.tools ?? {}).filter((tool) => !listed.some((t) => t.name === tool));
      // Most likely a typo in config: the tool it meant would silently get the strict defaults.
      if (unlisted.length) this.logger.warn('upstream config names tools the server does not list', { server: state.name, tools: unlisted });
      const { added, removed } = this.registry.replaceSystem(config.system, definitions, state.address.url);
      for (const key of removed) this.runners.release(key);
      for (const key of added) this.runners.assign(key, state.runner);
      state.keys = definitions.map((d) => d.key);
      state.status = 'ok';
      state.lastError = null;
      state.lastRefresh = new Date().toISOString();
      return { ok: true, server: state.name, system: config.system, added, removed, count: definitions.length, simplified };
    } catch (err) {
      const coded = SwitchyardError.is(err) ? err : new SwitchyardError('upstream_unavailable', (err as Error).message);
      state.status = 'error';
      state.lastError = { code: coded.code, message: coded.message };
      state.lastRefresh = new Date().toISOString();
      throw coded;
    }
  }
}
