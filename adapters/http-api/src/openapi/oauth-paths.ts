// OAuth 2.1 for the MCP faces in the OpenAPI document: metadata, registration, token, consent and
// the owner's management routes. The OAuth endpoints answer errors in RFC 6749 form.
import { dashboardSession, errors, htmlPage, json, ownerOnly, pathParam, publicOnly, query, ref } from './components.js';

const oauthError = (status: number, codes: string) => ({ [String(status)]: json(`OAuth error (RFC 6749 form): ${codes}`, ref('OAuthError')) });
const prm = (operationId: string, summary: string, parameters: unknown[] = []) => ({
  get: {
    operationId, tags: ['oauth'], summary, security: publicOnly, parameters,
    responses: { '200': json('Protected resource metadata: resource, authorization_servers, scopes_supported (invoke:* and invoke:<KEY> per tool), bearer_methods_supported'), ...oauthError(400, 'invalid_target (no such resource)') },
  },
});
const authorizeParams = [
  query('response_type', 'code', { enum: ['code'] }),
  query('client_id', 'A registered client id (cl_…) or a client ID metadata document URL'),
  query('redirect_uri', 'Exactly one of the client\'s registered redirect URIs'),
  query('state', 'Returned unchanged'),
  query('code_challenge', 'PKCE S256 challenge (43 characters of base64url)'),
  query('code_challenge_method', 'S256 (plain and missing are refused)', { enum: ['S256'] }),
  query('resource', 'RFC 8707 resource indicator: the MCP server URL (default <base>/mcp)'),
  query('scope', 'invoke:* or invoke:<KEY> …, space-separated (default invoke:*)'),
];

export const oauthPaths = {
  '/.well-known/oauth-authorization-server': {
    get: { operationId: 'oauthServerMetadata', tags: ['oauth'], summary: 'Authorization server metadata (RFC 8414)', security: publicOnly, responses: { '200': json('issuer, authorization_endpoint, token_endpoint, registration_endpoint, code_challenge_methods_supported [S256], …') } },
  },
  '/.well-known/oauth-protected-resource': prm('oauthResourceMetadataDefault', 'Protected resource metadata of /mcp (RFC 9728)'),
  '/.well-known/oauth-protected-resource/mcp': prm('oauthResourceMetadataMcp', 'Protected resource metadata of /mcp (RFC 9728 §3.1)'),
  '/.well-known/oauth-protected-resource/mcp/servers/{name}': prm('oauthResourceMetadataServer', 'Protected resource metadata of /mcp/servers/{name}', [pathParam('name', 'An imported server')]),
  '/.well-known/oauth-protected-resource/mcp/v/{name}': prm('oauthResourceMetadataVirtual', 'Protected resource metadata of /mcp/v/{name}', [pathParam('name', 'A virtual server')]),
  '/oauth/register': {
    post: {
      operationId: 'oauthRegister', tags: ['oauth'], summary: 'Dynamic client registration (RFC 7591): public (token_endpoint_auth_method none) or confidential clients (the secret is shown once)', security: publicOnly,
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { redirect_uris: { type: 'array', items: { type: 'string' } }, client_name: { type: 'string' }, token_endpoint_auth_method: { enum: ['none', 'client_secret_basic', 'client_secret_post'] }, grant_types: { type: 'array', items: { type: 'string' } }, scope: { type: 'string' } }, required: ['redirect_uris'] } } } },
      responses: { '201': json('The client: client_id (and client_secret for confidential clients)'), ...oauthError(400, 'invalid_redirect_uri, invalid_client_metadata'), ...oauthError(429, 'temporarily_unavailable (rate limited)') },
    },
  },
  '/oauth/token': {
    post: {
      operationId: 'oauthToken', tags: ['oauth'], summary: 'Token endpoint: authorization_code (with code_verifier) or refresh_token (rotated: a reused one revokes its grant)', security: publicOnly,
      requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { grant_type: { enum: ['authorization_code', 'refresh_token'] }, code: { type: 'string' }, redirect_uri: { type: 'string' }, code_verifier: { type: 'string' }, refresh_token: { type: 'string' }, client_id: { type: 'string' }, client_secret: { type: 'string' }, resource: { type: 'string' } } } } } },
      responses: { '200': json('access_token (a share token), token_type Bearer, expires_in, refresh_token (unless the client registered grant_types without refresh_token), scope'), ...oauthError(400, 'invalid_request, invalid_grant, unauthorized_client, unsupported_grant_type, invalid_target'), ...oauthError(401, 'invalid_client'), ...oauthError(429, 'temporarily_unavailable: over tokens.mintPerMinute token requests a minute from this address (Retry-After)') },
    },
  },
  '/dashboard/oauth/authorize': {
    get: {
      operationId: 'oauthAuthorize', tags: ['oauth'], summary: 'Authorization endpoint: the consent page (sign-in first); a request that cannot go back to its client is an error page', security: dashboardSession, parameters: authorizeParams,
      responses: { '200': htmlPage('The consent page'), '303': { description: 'To sign-in, or back to the client with an error and state' }, '400': htmlPage('An error page: unknown client, redirect URI mismatch') },
    },
    post: {
      operationId: 'oauthConsent', tags: ['oauth'], summary: 'The owner\'s decision (allow with the ticked keys, or deny), CSRF-protected; back to the client with code or error, and state', security: dashboardSession,
      requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { csrf: { type: 'string' }, decision: { enum: ['allow', 'deny'] }, key: { type: 'array', items: { type: 'string' } } } } } } },
      responses: { '303': { description: 'Back to the client\'s redirect URI' }, '400': htmlPage('An error page'), '401': htmlPage('Not signed in'), '403': htmlPage('The form is stale or forged (CSRF)') },
    },
  },
  '/api/oauth/clients': {
    get: { operationId: 'oauthClients', tags: ['oauth'], summary: 'Every OAuth client with its grants (the owner\'s)', security: ownerOnly, responses: { '200': json('{ok, count, clients: [{id, name, kind, redirect_uris, auth_method, grants: [{id, resource, keys, created_at, revoked_at, live}]}]}'), ...errors([401, 'credential_required, invalid_api_key'], [403, 'scope_denied']) } },
  },
  '/api/oauth/grants/{id}': {
    delete: { operationId: 'oauthRevokeGrant', tags: ['oauth'], summary: 'Revoke a grant: its access and refresh tokens are refused from the next request on, on every process', security: ownerOnly, parameters: [pathParam('id', 'Grant id (gr_…)')], responses: { '200': json('{ok, grant}'), ...errors([401, 'credential_required, invalid_api_key'], [403, 'scope_denied'], [404, 'not_found']) } },
  },
  '/dashboard/oauth': {
    get: { operationId: 'dashboardOAuth', tags: ['dashboard'], summary: 'OAuth clients and grants, a Revoke button each', security: dashboardSession, responses: { '200': htmlPage('The page'), '303': { description: 'To the sign-in page when there is no session' } } },
  },
  '/dashboard/oauth/grants/{id}/revoke': {
    post: {
      operationId: 'dashboardRevokeGrant', tags: ['dashboard'], summary: 'Revoke a grant (as DELETE /api/oauth/grants/{id})', security: dashboardSession, parameters: [pathParam('id', 'Grant id')],
      requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { csrf: { type: 'string' } } } } } },
      responses: { '303': { description: 'Back to the OAuth page' }, '403': htmlPage('The form is stale or forged (CSRF)'), '404': htmlPage('not_found') },
    },
  },
};
