// MCP adapter: the client every tool plugin uses to reach its upstream, and the server host.
export { McpUpstreamClient, type McpUpstreamClientOptions } from './upstream-client.js';
export { hostMcpServer, type HostedMcpServer, type HostOptions } from './server-host.js';
export { createSwitchyardMcpServer, toolOf, toolResultOf, rpcErrorOf, type CallerTools, type SwitchyardMcpServerOptions } from './switchyard-mcp-server.js';
export { CallerExchange, capabilitiesOf, isInitialize, sessionIdFor, type CallerCapabilities } from './caller-exchange.js';
