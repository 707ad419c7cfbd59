// The test harness: a plugin started as the host starts it (simulator included) behind a real dispatch service over an in-memory ledger.
import { CapabilityRegistry, DispatchService, RunnerDirectory, systemClock, type UpstreamToolClient } from '@switchyard/core';
import { McpUpstreamClient } from '@switchyard/mcp';
import type { Plugin } from './plugin.js';
import { MemoryInvocationStore } from './memory-store.js';
import { startPlugin, type LoadedPlugin } from './start-plugin.js';

export interface PluginHarness<O> {
  plugin: Plugin<O>;
  /** The options after the plugin's own validation (defaults applied). */
  options: O;
  loaded: LoadedPlugin;
  registry: CapabilityRegistry;
  dispatch: DispatchService;
  invocations: MemoryInvocationStore;
  /** The MCP client the plugin's runner calls its upstream with, for tests that call the upstream directly. */
  tools: UpstreamToolClient;
  /** The simulator's (or configured server's) URL, when the plugin has an upstream. */
  upstreamUrl?: string;
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** Another MCP client than a fresh McpUpstreamClient (e.g. one that records calls). */
  tools?: UpstreamToolClient;
  timeoutMs?: number;
}

/**
 * Starts `plugin` with `rawOptions` (as plugins.<name> in config would hold them; a tool plugin's
 * `upstream.url: "simulator"` starts its simulator on loopback) and registers its capabilities in a
 * fresh registry behind a DispatchService.
 */
export async function startPluginHarness<O>(plugin: Plugin<O>, rawOptions: unknown = {}, extra: HarnessOptions = {}): Promise<PluginHarness<O>> {
  const options = plugin.validateOptions(rawOptions);
  const tools = extra.tools ?? new McpUpstreamClient({ connectTimeoutMs: 2000 });
  const loaded = await startPlugin(plugin, options, { tools, simulatorHost: '127.0.0.1', log: () => {} });
  const registry = new CapabilityRegistry();
  const runners = new RunnerDirectory();
  for (const def of plugin.capabilities) {
    registry.register(def, loaded.upstream?.url, loaded.accountPlan !== undefined ? { plan: loaded.accountPlan } : {});
    runners.assign(def.key, loaded.runner);
  }
  const invocations = new MemoryInvocationStore();
  const dispatch = new DispatchService(registry, runners, invocations, systemClock, { timeoutMs: extra.timeoutMs ?? 5000 });
  return {
    plugin,
    options,
    loaded,
    registry,
    dispatch,
    invocations,
    tools,
    ...(loaded.upstream ? { upstreamUrl: loaded.upstream.url } : {}),
    async close() {
      if (!extra.tools) await tools.close();
      await loaded.simulator?.close();
    },
  };
}
