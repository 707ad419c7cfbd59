// The authorization server's machine endpoints: its metadata (RFC 8414), the protected resources'
// metadata (RFC 9728), dynamic client registration (RFC 7591) and the token endpoint (RFC 6749 §3.2).
// The people's endpoint, authorization with consent, is under /dashboard (consent-routes.ts).
import { Router, json, urlencoded, type Request } from 'express';
import { ALL_TOOLS_SCOPE, OAuthError, type ClientCredentials } from '@switchyard/core';
import { baseUrlOf } from '@switchyard/http-kit';
import type { Needs } from '@switchyard/http-kit';
import { perClientLimit, publicRoute } from '@switchyard/http-kit';
import { oauthErrors, openCors, sendOAuth } from './oauth-answers.js';
import { AS_METADATA_PATH, MCP_PATH, PRM_PATH, keysOfPath, type ResourceCtx } from '@switchyard/http-kit';

type Ctx = ResourceCtx & Needs<'logger' | 'mintPerMinute' | 'rateWindows' | 'oauth' | 'storageFailures'>;

export const AUTHORIZE_PATH = '/dashboard/oauth/authorize';
export const TOKEN_PATH = '/oauth/token';
export const REGISTER_PATH = '/oauth/register';
const FORM_LIMIT = '16kb';

/** HTTP Basic client authentication (RFC 6749 §2.3.1: id and secret form-encoded, then Base64). */
function basicCredentials(req: Request): ClientCredentials['basic'] {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(req.get('authorization') ?? '');
  if (!m) {
    if (req.get('authorization') !== undefined) throw new OAuthError('invalid_client', 'the Authorization header is not HTTP Basic client authentication');
    return null;
  }
  const text = Buffer.from(m[1]!, 'base64').toString('utf8');
  const at = text.indexOf(':');
  if (at < 1) throw new OAuthError('invalid_client', 'HTTP Basic credentials are id:secret');
  try {
    return { id: decodeURIComponent(text.slice(0, at).replace(/\+/g, ' ')), secret: decodeURIComponent(text.slice(at + 1).replace(/\+/g, ' ')) };
  } catch {
    throw new OAuthError('invalid_client', 'HTTP Basic credentials are not form-encoded');
  }
}

const field = (body: Record<string, unknown>, name: string): string | null => {
  const v = body[name];
  if (v === undefined) return null;
  if (typeof v !== 'string') throw new OAuthError('invalid_request', `${name} is given more than once`);
  return v;
};

export function oauthEndpointRoutes(ctx: Ctx): Router {
  const router = Router();
  const registrations = perClientLimit(ctx.rateWindows, ctx.mintPerMinute, 'oauth-register', 'client registrations');
  // Every token answer stores a refresh token (kept until it expires, for reuse detection): a
  // client refreshing in a loop would grow the database as fast as it can ask.
  const tokenRequests = perClientLimit(ctx.rateWindows, ctx.mintPerMinute, 'oauth-token', 'token requests');

  // Public at the mount: a client authenticates in the request itself (RFC 6749 §2.3, RFC 7591), or needs nothing (metadata).
  router.use(['/.well-known', '/oauth'], publicRoute('OAuth metadata, registration and token endpoints: clients authenticate in the request itself'), openCors);

  router.get(AS_METADATA_PATH, (req, res) => {
    const base = baseUrlOf(req, ctx.publicBaseUrl);
    sendOAuth(res, 200, {
      issuer: base,
      authorization_endpoint: `${base}${AUTHORIZE_PATH}`,
      token_endpoint: `${base}${TOKEN_PATH}`,
      registration_endpoint: `${base}${REGISTER_PATH}`,
      scopes_supported: [ALL_TOOLS_SCOPE],
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
      code_challenge_methods_supported: ['S256'],
      client_id_metadata_document_supported: ctx.oauth.options.metadataDocuments,
      authorization_response_iss_parameter_supported: true,
    });
  });

  // RFC 9728 §3.1: the metadata of the resource at <path> is at the well-known path followed by <path>;
  // without a path, that of /mcp (the server of every capability).
  const protectedResource = (path: string): import('express').RequestHandler => (req, res) => {
    const keys = keysOfPath(ctx, path);
    if (!keys) throw new OAuthError('invalid_target', `${path} is not a protected resource of this service`);
    const base = baseUrlOf(req, ctx.publicBaseUrl);
    sendOAuth(res, 200, {
      resource: `${base}${path}`,
      authorization_servers: [base],
      scopes_supported: [ALL_TOOLS_SCOPE, ...keys.map((k) => `invoke:${k}`)],
      bearer_methods_supported: ['header'],
      resource_name: path === MCP_PATH ? 'Switchyard MCP server' : `Switchyard MCP server ${path.slice('/mcp/'.length)}`,
    });
  };
  router.get(PRM_PATH, protectedResource(MCP_PATH));
  router.get(`${PRM_PATH}/mcp`, protectedResource(MCP_PATH));
  router.get(`${PRM_PATH}/mcp/servers/:name`, (req, res, next) => protectedResource(`/mcp/servers/${encodeURIComponent(req.params['name'] as string)}`)(req, res, next));
  router.get(`${PRM_PATH}/mcp/v/:name`, (req, res, next) => protectedResource(`/mcp/v/${encodeURIComponent(req.params['name'] as string)}`)(req, res, next));

  router.post(REGISTER_PATH, registrations, json({ limit: FORM_LIMIT }), async (req, res) => {
    if (!req.is('application/json')) throw new OAuthError('invalid_client_metadata', 'send the client metadata as application/json');
    const { client, secret } = await ctx.oauth.register(req.body);
    ctx.logger.info('oauth client registered', { client: client.id, name: client.name, auth_method: client.auth_method });
    sendOAuth(res, 201, {
      client_id: client.id,
      client_id_issued_at: Math.floor(new Date(client.created_at).getTime() / 1000),
      ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
      client_name: client.name,
      redirect_uris: client.redirect_uris,
      token_endpoint_auth_method: client.auth_method,
      grant_types: client.metadata['grant_types'] ?? ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      ...Object.fromEntries(Object.entries(client.metadata).filter(([k]) => !['grant_types', 'response_types'].includes(k))),
    });
  });

  router.post(TOKEN_PATH, tokenRequests, urlencoded({ extended: false, limit: FORM_LIMIT }), async (req, res) => {
    if (!req.is('application/x-www-form-urlencoded')) throw new OAuthError('invalid_request', 'send the token request as application/x-www-form-urlencoded');
    const body = (req.body ?? {}) as Record<string, unknown>;
    const answer = await ctx.oauth.token(body, { basic: basicCredentials(req), client_id: field(body, 'client_id'), client_secret: field(body, 'client_secret') });
    sendOAuth(res, 200, answer);
  });

  router.use(['/.well-known', '/oauth'], oauthErrors(ctx.logger, ctx.storageFailures));
  return router;
}
