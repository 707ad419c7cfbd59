// MCP adapter: the client every tool plugin uses to reach its upstream, and the server host.
export { DEFAULT_MAX_RESULT_BYTES, McpUpstreamClient, type McpUpstreamClientOptions } from './upstream/upstream-client.js';
export { hostMcpServer, type HostedMcpServer, type HostOptions } from './server/server-host.js';
export { IDEMPOTENCY_META_KEY, createSwitchyardMcpServer, toolOf, toolResultOf, rpcErrorOf, type CallerTools, type SwitchyardMcpServerOptions } from './server/switchyard-mcp-server.js';
export { createVirtualMcpServer, type ServerPassThrough, type VirtualMcpServerOptions } from './server/virtual-mcp-server.js';
export { pageOfTools, DEFAULT_PAGE_SIZE } from './server/tool-pages.js';
export { isStaleSession } from './upstream/tool-results.js';
export { CallerExchange, capabilitiesOf, isInitialize, type CallerCapabilities } from './server/caller-exchange.js';
export { SessionIds, SESSION_ID_KEY_LABEL, type SessionIdCheck } from './server/session-ids.js';
export { CallerSessions, holderOf, logPasses, LOG_LEVELS, type CallerSessionLimits, type Holder, type LogLevel, type SessionStream } from './server/caller-sessions.js';
export { UpstreamOAuthClients, type OAuthUpstream, type UpstreamOAuthConfig, type UpstreamOAuthClientsOptions } from './upstream/upstream-auth.js';
export { CredentialSealer, type SealingKey } from './upstream/upstream-auth-sealer.js';
export { OneRequestTransport } from './server/one-request-transport.js';
export { leanToolCall, switchyardFace, virtualFace, type LeanCall, type ServerFace } from './server/lean-tool-call.js';
export { MeteredUpstreamClient } from './upstream/metered-upstream-client.js';
export { TracedUpstreamClient } from './upstream/traced-upstream-client.js';
export * from './server/modern-mcp-server.js';
export { PausedCalls, DEFAULT_PAUSE_TTL_MS, type PausedCallLimits } from './server/paused-calls.js';
export { RequestStateSeal } from './server/request-state-seal.js';
