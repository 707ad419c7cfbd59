// Bringing one plugin up: its upstream resolved (its simulator started on "simulator") and its runner made.
import type { Capability, CapabilityRunner, RunningSimulator, UpstreamAddress, UpstreamToolClient } from '@switchyard/core';
import type { Plugin } from './plugin.js';

/** What the host lends a plugin while it starts. */
export interface PluginEnvironment {
  /** The shared MCP client. */
  tools: UpstreamToolClient;
  /** Where simulators listen (config simulators.host). */
  simulatorHost: string;
  log(message: string, fields: Record<string, unknown>): void;
}

/** A plugin after its options, upstream and runner are resolved. */
export interface LoadedPlugin {
  plugin: Plugin<unknown>;
  runner: CapabilityRunner;
  upstream?: UpstreamAddress;
  simulator?: RunningSimulator;
  /** The upstream account's plan, when the plugin reads one from its options. */
  accountPlan?: string;
  capabilities?: Capability[];
}

export async function startPlugin<O>(plugin: Plugin<O>, options: O, env: PluginEnvironment): Promise<LoadedPlugin> {
  const wanted = plugin.upstream?.(options);
  const accountPlan = plugin.accountPlan?.(options);
  const own = plugin.simulatorSettings?.(options);
  // A simulator simulates the configured account: it starts on the account's plan unless its own settings say otherwise.
  const settings = accountPlan !== undefined ? { plan: accountPlan, ...own } : own;
  let upstream: UpstreamAddress | undefined;
  let simulator: RunningSimulator | undefined;
  if (plugin.transport && wanted?.url) {
    const transport = wanted.transport ?? plugin.transport;
    if (wanted.url === 'simulator') {
      if (!plugin.startSimulator) throw new Error(`plugin ${plugin.name} has no simulator; set plugins.${plugin.name}.upstream.url`);
      simulator = await plugin.startSimulator({ host: env.simulatorHost, port: 0, ...(settings ? { settings } : {}) });
      env.log('upstream simulator started', { plugin: plugin.name, url: simulator.url, transport });
      upstream = { url: simulator.url, transport };
    } else {
      upstream = { url: wanted.url, transport, ...(wanted.headers ? { headers: wanted.headers } : {}) };
    }
  }
  try {
    const runner = plugin.createRunner({ options, tools: env.tools, ...(upstream ? { upstream } : {}) });
    return { plugin: plugin as Plugin<unknown>, runner, ...(upstream ? { upstream } : {}), ...(simulator ? { simulator } : {}), ...(accountPlan !== undefined ? { accountPlan } : {}) };
  } catch (err) {
    await simulator?.close();
    throw err;
  }
}
