// Service identifiers of the composition root; the core's port tokens are used as they are.

export const ConfigToken = Symbol.for('switchyard.Config');
export const LoggerToken = Symbol.for('switchyard.Logger');
export const DatabaseToken = Symbol.for('switchyard.Database');
export const RegistryToken = Symbol.for('switchyard.CapabilityRegistry');
export const RunnerDirectoryToken = Symbol.for('switchyard.RunnerDirectory');
export const DispatchToken = Symbol.for('switchyard.DispatchService');
export const HttpAppToken = Symbol.for('switchyard.HttpApp');
export const WebhookIntakeToken = Symbol.for('switchyard.WebhookIntake');
export const MetricsToken = Symbol.for('switchyard.Metrics');

// A plugin module binds its LoadedPlugin under the kit's token; the host collects them all.
export { LoadedPluginToken, PluginEnvironmentToken, type LoadedPlugin } from '@switchyard/plugin-kit';
export const UpstreamImportsToken = Symbol.for('switchyard.UpstreamImports');
export const TokenIssuerToken = Symbol.for('switchyard.TokenIssuer');
export const ApprovalServiceToken = Symbol.for('switchyard.ApprovalService');
export const ForwardingToken = Symbol.for('switchyard.ForwardingService');
export const OutboundSenderToken = Symbol.for('switchyard.OutboundSender');
export const OAuthServerToken = Symbol.for('switchyard.OAuthAuthorizationServer');
