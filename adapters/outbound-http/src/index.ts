// The service's own outbound HTTP, each the adapter of a core port: the forwarder's POST and client ID
// metadata documents, to addresses callers name, under the shared address policy
// (@switchyard/network-policy); the witnesses' add-checkpoint, to the URLs the operator configured.
// (Upstream MCP servers are reached by adapters/mcp, WEB_FETCH by its plugin.)
export * from './forward-sender.js';
export * from './client-metadata-fetcher.js';
export * from './witness-transport.js';
