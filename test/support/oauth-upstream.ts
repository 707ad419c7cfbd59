// An MCP server that needs OAuth, with its own small authorization server, on one loopback port:
// protected resource metadata (RFC 9728), authorization server metadata (RFC 8414), dynamic
// registration (RFC 7591), authorization code with PKCE S256 (the owner's consent is granted at
// once: the fixture has no sign-in page; its answer names its issuer, RFC 9207), client
// credentials, and refresh tokens that rotate (a reused one revokes its family). The MCP endpoint is guarded by the SDK's requireBearerAuth.
// Tests expire access tokens and revoke refresh tokens at will, and read what was issued.
import { createHash, randomBytes } from 'node:crypto';
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';

interface Client {
  id: string;
  secret?: string;
  redirectUris: string[];
}

interface AccessToken {
  subject: string;
  client: string;
  scopes: string[];
  expiresAt: number;
}

interface RefreshToken {
  subject: string;
  client: string;
  scopes: string[];
  family: string;
  used: boolean;
}

export interface OAuthUpstream {
  /** The MCP endpoint. */
  url: string;
  issuer: string;
  /** A client registered beforehand for client credentials. */
  confidential: { clientId: string; clientSecret: string };
  /** Every token request, by grant. */
  tokenRequests: Array<{ grant: string; ok: boolean; error?: string }>;
  /** Every authorization request's parameters. */
  authorizeRequests: Array<Record<string, string>>;
  /** Every dynamic registration's client_id. */
  registrations: string[];
  /** Every token issued (access and refresh), to check none of them shows anywhere. */
  issued: string[];
  /** Bearer tokens presented at the MCP endpoint. */
  presented: string[];
  /** Makes every access token issued so far expire now. */
  expireAccessTokens(): void;
  /** Revokes every refresh token (and the access tokens beside them). */
  revokeAll(): void;
  close(): Promise<void>;
}

const b64url = (b: Buffer) => b.toString('base64url');
const newToken = (prefix: string) => `${prefix}_${b64url(randomBytes(24))}`;

/** `metadataIssuer`: the issuer its metadata names instead of its own (a poisoned or misconfigured document). */
export async function startOAuthUpstream(options: { accessTtlS?: number; scopes?: string[]; metadataIssuer?: string } = {}): Promise<OAuthUpstream> {
  const accessTtlS = options.accessTtlS ?? 3600;
  const scopes = options.scopes ?? ['tools'];
  const clients = new Map<string, Client>();
  const codes = new Map<string, { client: string; redirectUri: string; challenge: string; scopes: string[]; used: boolean }>();
  const access = new Map<string, AccessToken>();
  const refresh = new Map<string, RefreshToken>();
  const confidential = { clientId: 'switchyard-service', clientSecret: b64url(randomBytes(24)) };
  clients.set(confidential.clientId, { id: confidential.clientId, secret: confidential.clientSecret, redirectUris: [] });
  const fixture = { tokenRequests: [] as OAuthUpstream['tokenRequests'], authorizeRequests: [] as OAuthUpstream['authorizeRequests'], registrations: [] as string[], issued: [] as string[], presented: [] as string[] };

  const app = express();
  let base = '';

  app.get('/.well-known/oauth-protected-resource/mcp', (_req, res) => {
    res.json({ resource: `${base}/mcp`, authorization_servers: [base], scopes_supported: scopes, bearer_methods_supported: ['header'] });
  });
  app.get('/.well-known/oauth-authorization-server', (_req, res) => {
    res.json({
      issuer: options.metadataIssuer ?? base,
      authorization_endpoint: `${base}/authorize`,
      token_endpoint: `${base}/token`,
      registration_endpoint: `${base}/register`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      scopes_supported: scopes,
      authorization_response_iss_parameter_supported: true,
    });
  });

  app.post('/register', express.json(), (req, res) => {
    const body = req.body as { redirect_uris?: string[]; token_endpoint_auth_method?: string };
    const client: Client = { id: `dyn_${b64url(randomBytes(8))}`, redirectUris: body.redirect_uris ?? [], ...(body.token_endpoint_auth_method === 'none' ? {} : { secret: b64url(randomBytes(24)) }) };
    clients.set(client.id, client);
    fixture.registrations.push(client.id);
    res.status(201).json({ ...body, client_id: client.id, ...(client.secret ? { client_secret: client.secret } : {}), client_id_issued_at: Math.floor(Date.now() / 1000) });
  });

  // The owner consents at once: straight back to the redirect URI with a code.
  app.get('/authorize', (req, res) => {
    const q = req.query as Record<string, string>;
    fixture.authorizeRequests.push(q);
    const client = clients.get(q['client_id'] ?? '');
    if (!client || !client.redirectUris.includes(q['redirect_uri'] ?? '')) return res.status(400).send('unknown client or redirect_uri');
    if (q['code_challenge_method'] !== 'S256' || !q['code_challenge']) return res.status(400).send('PKCE S256 required');
    const code = newToken('code');
    codes.set(code, { client: client.id, redirectUri: q['redirect_uri']!, challenge: q['code_challenge'], scopes: (q['scope'] ?? '').split(' ').filter(Boolean), used: false });
    const back = new URL(q['redirect_uri']!);
    back.searchParams.set('code', code);
    if (q['state']) back.searchParams.set('state', q['state']);
    back.searchParams.set('iss', base);
    res.redirect(302, back.href);
  });

  const issue = (subject: string, client: string, granted: string[], family: string | null) => {
    const token = newToken('at');
    access.set(token, { subject, client, scopes: granted, expiresAt: Date.now() + accessTtlS * 1000 });
    fixture.issued.push(token);
    const answer: Record<string, unknown> = { access_token: token, token_type: 'Bearer', expires_in: accessTtlS, scope: granted.join(' ') };
    if (family !== null) {
      const rt = newToken('rt');
      refresh.set(rt, { subject, client, scopes: granted, family, used: false });
      fixture.issued.push(rt);
      answer['refresh_token'] = rt;
    }
    return answer;
  };

  app.post('/token', express.urlencoded({ extended: false }), (req, res) => {
    const body = req.body as Record<string, string>;
    const grant = body['grant_type'] ?? '';
    const refuse = (error: string, status = 400) => {
      fixture.tokenRequests.push({ grant, ok: false, error });
      res.status(status).json({ error, error_description: error });
    };
    // Client authentication: HTTP Basic, or client_id (+ client_secret) in the body.
    let clientId = body['client_id'];
    let secret = body['client_secret'];
    const basic = /^Basic (.+)$/.exec(req.get('authorization') ?? '');
    if (basic) [clientId, secret] = Buffer.from(basic[1]!, 'base64').toString('utf8').split(':').map(decodeURIComponent) as [string, string];
    const client = clients.get(clientId ?? '');
    if (!client || (client.secret !== undefined && client.secret !== secret)) return refuse('invalid_client', 401);
    if (grant === 'client_credentials') {
      if (client.id !== confidential.clientId) return refuse('unauthorized_client');
      fixture.tokenRequests.push({ grant, ok: true });
      return res.json(issue(client.id, client.id, scopes, null));
    }
    if (grant === 'authorization_code') {
      const code = codes.get(body['code'] ?? '');
      if (!code || code.used || code.client !== client.id || code.redirectUri !== body['redirect_uri']) return refuse('invalid_grant');
      code.used = true;
      if (b64url(createHash('sha256').update(body['code_verifier'] ?? '').digest()) !== code.challenge) return refuse('invalid_grant');
      fixture.tokenRequests.push({ grant, ok: true });
      return res.json(issue('owner', client.id, code.scopes.length ? code.scopes : scopes, b64url(randomBytes(8))));
    }
    if (grant === 'refresh_token') {
      const rt = refresh.get(body['refresh_token'] ?? '');
      if (!rt || rt.client !== client.id) return refuse('invalid_grant');
      if (rt.used) {
        // Reuse of a rotated refresh token: the whole family is revoked.
        for (const [token, other] of refresh) if (other.family === rt.family) refresh.delete(token);
        return refuse('invalid_grant');
      }
      rt.used = true;
      fixture.tokenRequests.push({ grant, ok: true });
      return res.json(issue(rt.subject, rt.client, rt.scopes, rt.family));
    }
    refuse('unsupported_grant_type');
  });

  const verifier = {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      fixture.presented.push(token);
      const found = access.get(token);
      if (!found || found.expiresAt <= Date.now()) throw new InvalidTokenError('the access token is unknown or expired');
      return { token, clientId: found.client, scopes: found.scopes, expiresAt: Math.floor(found.expiresAt / 1000), extra: { subject: found.subject } };
    },
  };

  // Stateless MCP: one server and transport per request, behind the bearer check.
  app.all('/mcp', (req, res, next) => {
    // The resource metadata URL is known once listening.
    requireBearerAuth({ verifier, resourceMetadataUrl: `${base}/.well-known/oauth-protected-resource/mcp` })(req, res, next);
  }, express.json(), async (req, res) => {
    const server = new McpServer({ name: 'oauth-fixture', version: '1.0.0' });
    server.registerTool('whoami', { description: 'Who the token was issued to', inputSchema: {} }, async (_args, extra) => ({
      content: [{ type: 'text', text: JSON.stringify({ subject: (extra.authInfo?.extra as { subject?: string } | undefined)?.subject ?? null, client: extra.authInfo?.clientId ?? null }) }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });

  const http: HttpServer = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;

  return {
    url: `${base}/mcp`,
    issuer: base,
    confidential,
    ...fixture,
    expireAccessTokens: () => {
      for (const token of access.values()) token.expiresAt = 0;
    },
    revokeAll: () => {
      refresh.clear();
      access.clear();
    },
    close: () => new Promise<void>((resolve) => {
      http.closeAllConnections();
      http.close(() => resolve());
    }),
  };
}
