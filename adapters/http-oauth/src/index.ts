// The OAuth 2.1 authorization server of the MCP faces: metadata, registration, token, consent and the owner's management.
export { oauthRoutes } from './routes.js';
export { httpOAuthWiring } from './wiring.js';
