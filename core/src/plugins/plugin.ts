// The plugin API: what a capability system (a folder under plugins/) hands the host.
import type { CapabilityDefinition, CapabilityRunner } from '../capabilities/index.js';
import type { JsonSchema } from '../json-schema.js';
import type { UpstreamAddress, UpstreamToolClient } from '../imports/index.js';

export interface PluginHost<Options> {
  /** Options for this plugin, already validated against the plugin's own optionsSchema. */
  options: Options;
  /** The shared MCP client; tool plugins call upstreams only through it. */
  tools: UpstreamToolClient;
  /** Resolved upstream address (a simulator's, or a real server's from config), for tool plugins. */
  upstream?: UpstreamAddress;
}

export interface RunningSimulator {
  url: string;
  close(): Promise<void>;
}

export interface SwitchyardPlugin<Options = Record<string, unknown>> {
  /** Package-level name, used in config: plugins.<name>. */
  name: string;
  system: string;
  runner: string;
  capabilities: CapabilityDefinition[];
  /** JSON Schema of plugins.<name> in config; the host validates it at boot. */
  optionsSchema: JsonSchema;
  /** Default transport of the upstream for tool plugins. */
  transport?: UpstreamAddress['transport'];
  createRunner(host: PluginHost<Options>): CapabilityRunner;
  /**
   * The upstream account's plan, read from the plugin's (validated) options. Capabilities whose
   * `limits.plan` it does not reach are refused `plan_required` before the upstream is called, and
   * a simulator starts on it unless its own settings name another plan.
   */
  accountPlan?(options: Options): string | undefined;
  /** A real MCP server with believable state, for development and tests. */
  startSimulator?(options: { host: string; port: number; settings?: Record<string, unknown> }): Promise<RunningSimulator>;
}

/** @deprecated The host loads only plugins made with definePlugin from @switchyard/plugin-kit (it adds their options check and container module). */
export const definePlugin = <O>(plugin: SwitchyardPlugin<O>): SwitchyardPlugin<O> => plugin;
