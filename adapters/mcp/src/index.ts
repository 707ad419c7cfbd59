// MCP adapter: the client every tool plugin uses to reach its upstream, and the server host.
export { DEFAULT_MAX_RESULT_BYTES, McpUpstreamClient, type McpUpstreamClientOptions } from './upstream-client.js';
export { hostMcpServer, type HostedMcpServer, type HostOptions } from './server-host.js';
export { IDEMPOTENCY_META_KEY, createSwitchyardMcpServer, toolOf, toolResultOf, rpcErrorOf, type CallerTools, type SwitchyardMcpServerOptions } from './switchyard-mcp-server.js';
export { createVirtualMcpServer, type ServerPassThrough, type VirtualMcpServerOptions } from './virtual-mcp-server.js';
export { pageOfTools, DEFAULT_PAGE_SIZE } from './tool-pages.js';
export { isStaleSession } from './upstream-client.js';
export { CallerExchange, capabilitiesOf, isInitialize, type CallerCapabilities } from './caller-exchange.js';
export { SessionIds, SESSION_ID_KEY_LABEL, type SessionIdCheck } from './session-ids.js';
export { CallerSessions, holderOf, logPasses, LOG_LEVELS, type CallerSessionLimits, type Holder, type LogLevel, type SessionStream } from './caller-sessions.js';
export { UpstreamOAuthClients, type OAuthUpstream, type UpstreamOAuthConfig, type UpstreamOAuthClientsOptions } from './upstream-auth.js';
export { CredentialSealer, type SealingKey } from './upstream-auth-sealer.js';
export { OneRequestTransport } from './one-request-transport.js';
export { leanToolCall, switchyardFace, virtualFace, type LeanCall, type ServerFace } from './lean-tool-call.js';
export { MeteredUpstreamClient } from './metered-upstream-client.js';
export { TracedUpstreamClient } from './traced-upstream-client.js';
export * from './modern-mcp-server.js';
export { PausedCalls, DEFAULT_PAUSE_TTL_MS, type PausedCallLimits } from './paused-calls.js';
export { RequestStateSeal } from './request-state-seal.js';
