// The dashboard's upstream OAuth pages in the OpenAPI document: listing, Connect, and the
// authorization server's way back.
import { dashboardSession, htmlPage, pathParam, publicOnly, query } from './components.js';

const name = pathParam('name', 'Upstream server name (upstreams.servers.<name>)');

export const upstreamConnectPaths = {
  '/dashboard/upstreams': {
    get: {
      operationId: 'dashboardUpstreams', tags: ['dashboard'], summary: 'Upstreams that sign in with OAuth: grant, state (connected, not connected, reconnect) and Connect', security: dashboardSession,
      parameters: [query('connected', 'Upstream just connected')],
      responses: { '200': htmlPage('The upstreams page'), '303': { description: 'To the sign-in page when there is no session' } },
    },
  },
  '/dashboard/upstreams/{name}/connect': {
    post: {
      operationId: 'dashboardConnectUpstream', tags: ['dashboard'], summary: "Start the owner's consent (PKCE, state): a page linking to the upstream's authorization server, and a short-lived cookie binding the state to this browser", security: dashboardSession,
      parameters: [name],
      requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { csrf: { type: 'string' } } } } } },
      responses: {
        '200': htmlPage('Continue to the authorization server'),
        '303': { description: 'To the sign-in page when there is no session' },
        '400': htmlPage('invalid_request: the upstream signs in with client credentials'),
        '403': htmlPage('The form is stale or forged (CSRF)'),
        '404': htmlPage('upstream_not_found'),
        '502': htmlPage('upstream_unavailable: its authorization server could not be reached; upstream_auth_failed: its metadata names another issuer than it was fetched for (RFC 8414)'),
      },
    },
  },
  '/dashboard/upstreams/{name}/callback': {
    get: {
      operationId: 'dashboardUpstreamCallback', tags: ['dashboard'], summary: "The authorization server's answer: the code is exchanged and the tokens stored sealed", security: publicOnly,
      parameters: [name, query('code', 'Authorization code'), query('state', 'The state Connect sent'), query('iss', "The authorization server's issuer (RFC 9207): checked before the code is used"), query('error', 'The refusal, when the owner or the server refused'), query('error_description', 'Its description')],
      responses: {
        '200': htmlPage('Connected'),
        '400': htmlPage('invalid_request: the state is not the one this browser started, or the authorization server refused'),
        '404': htmlPage('upstream_not_found'),
        '502': htmlPage("upstream_auth_failed: iss is not the authorization server's issuer, or is missing though advertised (RFC 9207); the code was not exchanged"),
        '503': htmlPage('upstream_auth_required: the code was refused'),
      },
    },
  },
} as const;
