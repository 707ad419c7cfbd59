// Service identifiers of the composition root; the core's port tokens are used as they are.
import type { Capability, CapabilityRunner, RunningSimulator, SwitchyardPlugin, UpstreamAddress } from '@switchyard/core';

export const ConfigToken = Symbol.for('switchyard.Config');
export const LoggerToken = Symbol.for('switchyard.Logger');
export const DatabaseToken = Symbol.for('switchyard.Database');
export const RegistryToken = Symbol.for('switchyard.CapabilityRegistry');
export const RunnerDirectoryToken = Symbol.for('switchyard.RunnerDirectory');
export const DispatchToken = Symbol.for('switchyard.DispatchService');
export const HttpAppToken = Symbol.for('switchyard.HttpApp');
export const WebhookIntakeToken = Symbol.for('switchyard.WebhookIntake');
export const LoadedPluginToken = Symbol.for('switchyard.LoadedPlugin');
export const MetricsToken = Symbol.for('switchyard.Metrics');

/** A plugin after the host resolved its options, its upstream and its runner. */
export interface LoadedPlugin {
  plugin: SwitchyardPlugin<unknown>;
  runner: CapabilityRunner;
  upstream?: UpstreamAddress;
  simulator?: RunningSimulator;
  /** The upstream account's plan, when the plugin reads one from its options. */
  accountPlan?: string;
  capabilities?: Capability[];
}
export const UpstreamImportsToken = Symbol.for('switchyard.UpstreamImports');
export const TokenIssuerToken = Symbol.for('switchyard.TokenIssuer');
