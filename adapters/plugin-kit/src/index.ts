// @switchyard/plugin-kit: what a capability plugin package depends on (tests import ./testing).
export { definePlugin, isPlugin, toolRunner, upstreamOptionsSchema, PluginOptionsError, type Plugin, type PluginSpec, type UpstreamSetting } from './define-plugin.js';
export { startPlugin, type LoadedPlugin, type PluginEnvironment } from './start-plugin.js';
export { pluginContainerModule, LoadedPluginToken, PluginEnvironmentToken } from './container-module.js';
// The address policy outbound connections are held to (WEB_FETCH's), from the shared network-policy package.
export { AddressPolicy, refusedRange, type RefusedRange } from '@switchyard/network-policy';
// What a manifest and a runner are written with, so a plugin needs no other package of ours.
export {
  SwitchyardError,
  ToolRunner,
  type Capability,
  type CapabilityDefinition,
  type CapabilityRunner,
  type JsonSchema,
  type PluginHost,
  type RunContext,
  type RunningSimulator,
  type UpstreamAddress,
} from '@switchyard/core';
