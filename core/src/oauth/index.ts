// OAuth 2.1 for the MCP faces: the authorization server's rules, its records and scopes.
// Other folders import this concept from here, never from a file inside it.
export * from './oauth-error.js';
export * from './records.js';
export * from './scopes.js';
export * from './pkce.js';
export * from './secrets.js';
export * from './client-metadata.js';
export * from './authorization-server.js';
export * from './consent-choices.js';
export * from './ports.js';
