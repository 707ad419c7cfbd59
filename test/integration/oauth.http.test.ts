// OAuth 2.1 for the MCP faces over HTTP, on each engine: the metadata documents and the 401
// challenge, dynamic registration, consent (allow, deny, narrow) by the signed-in owner, the code
// exchange, tokens that are share tokens (tools cut to the consented keys, the client as actor, the
// ledger under the fingerprint), refresh rotation, revocation, and the security list: PKCE
// downgrade, code reuse, redirect mismatch, open redirect, a token for another resource, expired and
// revoked tokens, CSRF on consent. Every refusal is in RFC 6749 form and grants nothing.
import { expect } from 'chai';
import request from 'supertest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { narrowToken } from '@switchyard/core';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';
import { REDIRECT, authorizeQuery, consentPage, decide, fingerprintOf, pkce, registerClient, signIn, type AuthParams } from '../support/oauth.js';

const EDGE = 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER';
const GROUP = 'MESSAGING_UPDATE_GROUP';
const WORKER = '0123456789abcdef0123456789abcdef';

for (const engine of engines()) {
  describe(`OAuth 2.1 for MCP over HTTP (${engine})`, function () {
    this.timeout(60_000);
    let svc: ListeningService;
    let http: ReturnType<typeof request>;
    let cookie: string;
    const clients: Client[] = [];
    const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);

    before(async () => {
      svc = await startListeningService(engine, { tokens: { mintPerMinute: 1000 }, mcp: { virtualServers: { ops: { tools: [EDGE] } } } });
      http = request(svc.url);
      cookie = await signIn(http);
    });
    afterEach(async () => {
      await Promise.all(clients.splice(0).map((c) => c.close()));
    });
    after(async () => svc?.close());

    const mcpClient = async (token: string, path = '/mcp'): Promise<Client> => {
      const client = new Client({ name: 'oauth-test', version: '0.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}${path}`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
      clients.push(client);
      return client;
    };
    const initialize = (path: string, token: string) =>
      http.post(path).set('authorization', `Bearer ${token}`).set('accept', 'application/json, text/event-stream').send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } });

    /** A fresh client's request for `resource` and `scope`, with its PKCE pair. */
    const newRequest = async (extra: AuthParams = {}) => {
      const { client_id } = await registerClient(http);
      const { verifier, challenge } = pkce();
      const params: AuthParams = { response_type: 'code', client_id, redirect_uri: REDIRECT, state: 'st-123', code_challenge: challenge, code_challenge_method: 'S256', resource: `${svc.url}/mcp`, scope: 'invoke:*', ...extra };
      return { client_id, verifier, params };
    };
    const exchange = (code: string, client_id: string, verifier: string, extra: Record<string, string> = {}) =>
      http.post('/oauth/token').type('form').send({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id, code_verifier: verifier, resource: `${svc.url}/mcp`, ...extra });
    /** Registration, consent (allowing `keys`) and the code exchange: the token answer. */
    const grantFor = async (keys: string[], extra: AuthParams = {}) => {
      const r = await newRequest(extra);
      const { csrf } = await consentPage(http, cookie, r.params);
      const back = await decide(http, cookie, r.params, csrf, 'allow', keys);
      const tokens = (await exchange(back.searchParams.get('code')!, r.client_id, r.verifier, extra['resource'] ? { resource: extra['resource'] } : {}).expect(200)).body as { access_token: string; refresh_token: string; expires_in: number; scope: string };
      return { ...r, ...tokens };
    };
    const expectOAuthError = (res: request.Response, status: number, error: string) => {
      expect(res.status, res.text).to.equal(status);
      expect(res.body.error, res.text).to.equal(error);
      expect(res.body.error_description).to.be.a('string').and.not.equal('');
      expect(res.body).to.not.have.property('access_token');
    };
    const grantsOf = async (clientId: string) => ((await owner(http.get('/api/oauth/clients')).expect(200)).body.clients as Array<{ id: string; grants: Array<{ id: string; live: boolean; revoked_reason: string | null; keys: string[] }> }>).find((c) => c.id === clientId)?.grants ?? [];

    describe('discovery', () => {
      it('publishes authorization server metadata (RFC 8414): S256 only, registration, the consent endpoint under /dashboard', async () => {
        const res = await http.get('/.well-known/oauth-authorization-server').expect(200);
        expect(res.headers['cache-control']).to.equal('no-store');
        expect(res.body).to.include({ issuer: svc.url, authorization_endpoint: `${svc.url}/dashboard/oauth/authorize`, token_endpoint: `${svc.url}/oauth/token`, registration_endpoint: `${svc.url}/oauth/register` });
        expect(res.body.code_challenge_methods_supported).to.deep.equal(['S256']);
        expect(res.body.grant_types_supported).to.deep.equal(['authorization_code', 'refresh_token']);
        expect(res.body.token_endpoint_auth_methods_supported).to.include.members(['none', 'client_secret_basic', 'client_secret_post']);
      });

      it('publishes protected resource metadata for /mcp and each virtual server (RFC 9728), and refuses other paths', async () => {
        for (const path of ['', '/mcp']) {
          const prm = (await http.get(`/.well-known/oauth-protected-resource${path}`).expect(200)).body;
          expect(prm).to.include({ resource: `${svc.url}/mcp` });
          expect(prm.authorization_servers).to.deep.equal([svc.url]);
          expect(prm.scopes_supported).to.include.members(['invoke:*', `invoke:${EDGE}`, `invoke:${GROUP}`]);
        }
        const ops = (await http.get('/.well-known/oauth-protected-resource/mcp/v/ops').expect(200)).body;
        expect(ops.resource).to.equal(`${svc.url}/mcp/v/ops`);
        expect(ops.scopes_supported).to.deep.equal(['invoke:*', `invoke:${EDGE}`]);
        expectOAuthError(await http.get('/.well-known/oauth-protected-resource/mcp/v/nope'), 400, 'invalid_target');
        expectOAuthError(await http.get('/.well-known/oauth-protected-resource/mcp/servers/nope'), 400, 'invalid_target');
      });

      it('answers 401 from /mcp and a virtual server with WWW-Authenticate naming the resource metadata and the scope', async () => {
        const body = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
        const mcp = await http.post('/mcp').set('accept', 'application/json, text/event-stream').send(body).expect(401);
        expect(mcp.headers['www-authenticate']).to.equal(`Bearer resource_metadata="${svc.url}/.well-known/oauth-protected-resource/mcp", scope="invoke:*"`);
        const ops = await http.post('/mcp/v/ops').set('accept', 'application/json, text/event-stream').send(body).expect(401);
        expect(ops.headers['www-authenticate']).to.equal(`Bearer resource_metadata="${svc.url}/.well-known/oauth-protected-resource/mcp/v/ops", scope="invoke:*"`);
        const bad = await http.post('/mcp').set('authorization', 'Bearer sy1.nope.nope').send(body).expect(401);
        expect(bad.headers['www-authenticate']).to.match(/^Bearer resource_metadata="[^"]+", scope="invoke:\*", error="invalid_token"/);
      });
    });

    describe('registration (RFC 7591)', () => {
      it('registers a public client without a secret, and a confidential one with a secret shown once', async () => {
        const pub = await registerClient(http);
        expect(pub.client_id).to.match(/^cl_/);
        expect(pub).to.not.have.property('client_secret');
        const conf = (await http.post('/oauth/register').send({ client_name: 'Server app', redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: 'client_secret_post' }).expect(201)).body;
        expect(conf.client_secret).to.match(/^sys_/);
        expect(conf.token_endpoint_auth_method).to.equal('client_secret_post');
        const listed = (await owner(http.get('/api/oauth/clients')).expect(200)).body.clients as Array<Record<string, unknown>>;
        const entry = listed.find((c) => c['id'] === conf.client_id)!;
        expect(entry['name']).to.equal('Server app');
        expect(JSON.stringify(listed)).to.not.contain(conf.client_secret).and.not.contain('secret_hash');
      });

      it('refuses bad metadata with invalid_redirect_uri or invalid_client_metadata, and stores nothing', async () => {
        const before = (await owner(http.get('/api/oauth/clients')).expect(200)).body.count;
        const cases: Array<[Record<string, unknown>, string]> = [
          [{ client_name: 'x' }, 'invalid_redirect_uri'],
          [{ redirect_uris: [] }, 'invalid_redirect_uri'],
          [{ redirect_uris: ['http://evil.example/cb'] }, 'invalid_redirect_uri'],
          [{ redirect_uris: ['https://app.example/cb#frag'] }, 'invalid_redirect_uri'],
          [{ redirect_uris: ['javascript:alert(1)'] }, 'invalid_redirect_uri'],
          [{ redirect_uris: ['not a url'] }, 'invalid_redirect_uri'],
          [{ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'private_key_jwt' }, 'invalid_client_metadata'],
          [{ redirect_uris: [REDIRECT], grant_types: ['implicit'] }, 'invalid_client_metadata'],
          [{ redirect_uris: [REDIRECT], scope: 'admin' }, 'invalid_client_metadata'],
        ];
        for (const [body, error] of cases) expectOAuthError(await http.post('/oauth/register').send(body), 400, error);
        expectOAuthError(await http.post('/oauth/register').type('json').send('{"redirect_uris": ['), 400, 'invalid_request');
        expectOAuthError(await http.post('/oauth/register').type('form').send('redirect_uris=x'), 400, 'invalid_client_metadata');
        expect((await owner(http.get('/api/oauth/clients')).expect(200)).body.count).to.equal(before);
      });
    });

    describe('consent and tokens', () => {
      it('sends the owner to sign in first, then back to the same request', async () => {
        const { params } = await newRequest();
        const res = await http.get(authorizeQuery(params)).expect(303);
        const next = new URL(res.headers['location']!, svc.url).searchParams.get('next')!;
        expect(next).to.equal(authorizeQuery(params));
        const signed = await http.post('/dashboard/login').type('form').send({ api_key: TEST_API_KEY, next }).expect(303);
        expect(signed.headers['location']).to.equal(authorizeQuery(params));
      });

      it('shows the client, its redirect URI and a box per tool; allow with fewer boxes narrows the grant; the token is a share token for those keys', async () => {
        const r = await newRequest();
        const { html, csrf } = await consentPage(http, cookie, r.params);
        expect(html).to.contain('Test assistant').and.contain(REDIRECT).and.contain(`value="${EDGE}" checked`).and.contain(`value="${GROUP}" checked`);
        const back = await decide(http, cookie, r.params, csrf, 'allow', [EDGE]);
        expect(back.origin + back.pathname).to.equal(REDIRECT);
        expect(back.searchParams.get('state')).to.equal('st-123');
        expect(back.searchParams.get('iss')).to.equal(svc.url);
        const tokens = (await exchange(back.searchParams.get('code')!, r.client_id, r.verifier).expect(200)).body;
        expect(tokens).to.include({ token_type: 'Bearer', expires_in: 3600, scope: `invoke:${EDGE}` });
        expect(tokens.access_token).to.match(/^sy1\./);
        expect(tokens.refresh_token).to.match(/^syr_/);

        // The token runs the consented tool only, as the client, in the ledger under its fingerprint.
        const client = await mcpClient(tokens.access_token);
        expect((await client.listTools()).tools.map((t) => t.name)).to.deep.equal([EDGE]);
        const ran = (await client.callTool({ name: EDGE, arguments: { workerId: WORKER } })) as CallToolResult;
        const inv = (ran.structuredContent as { invocation: string }).invocation;
        const record = (await owner(http.get(`/api/invocations/${inv}`)).expect(200)).body.invocation;
        expect(record.actor).to.equal(r.client_id);
        expect(record.fingerprint).to.equal(fingerprintOf(tokens.access_token));
        const grants = await grantsOf(r.client_id);
        expect(grants).to.have.length(1);
        expect(grants[0]).to.include({ live: true });
        expect(grants[0]!.keys).to.deep.equal([EDGE]);
      });

      it('deny goes back with access_denied and state, and grants nothing', async () => {
        const r = await newRequest();
        const { csrf } = await consentPage(http, cookie, r.params);
        const back = await decide(http, cookie, r.params, csrf, 'deny', [EDGE]);
        expect(back.origin + back.pathname).to.equal(REDIRECT);
        expect(back.searchParams.get('error')).to.equal('access_denied');
        expect(back.searchParams.get('state')).to.equal('st-123');
        expect(back.searchParams.has('code')).to.equal(false);
        expect(await grantsOf(r.client_id)).to.deep.equal([]);
      });

      it('a consent cannot widen: a ticked key that was not asked for is not granted', async () => {
        const t = await grantFor([EDGE, GROUP], { scope: `invoke:${EDGE}` });
        expect(t.scope).to.equal(`invoke:${EDGE}`);
      });

      it('binds the token to its resource: a virtual server token is refused by /mcp and the reverse, and by the API', async () => {
        const ops = await grantFor([EDGE], { resource: `${svc.url}/mcp/v/ops` });
        await initialize('/mcp/v/ops', ops.access_token).expect(200);
        const wrong = await initialize('/mcp', ops.access_token).expect(401);
        expect(wrong.body.error.code).to.equal('token_wrong_resource');
        expect(wrong.headers['www-authenticate']).to.contain('error="invalid_token"');
        const mcp = await grantFor([EDGE]);
        expect((await initialize('/mcp/v/ops', mcp.access_token).expect(401)).body.error.code).to.equal('token_wrong_resource');
        expect((await http.get(`/api/dispatch?explain=1`).set('authorization', `Bearer ${mcp.access_token}`).expect(401)).body.error.code).to.equal('token_wrong_resource');
        // Narrowing offline keeps the binding: a child cannot leave its resource either.
        const child = narrowToken(mcp.access_token, { purpose: 'sub-agent' });
        await initialize('/mcp', child).expect(200);
        expect((await initialize('/mcp/v/ops', child).expect(401)).body.error.code).to.equal('token_wrong_resource');
      });

      it('rotates refresh tokens; a reused one is invalid_grant and revokes the whole family, access tokens included', async () => {
        const t = await grantFor([EDGE]);
        const refresh = (rt: string) => http.post('/oauth/token').type('form').send({ grant_type: 'refresh_token', refresh_token: rt, client_id: t.client_id });
        const second = (await refresh(t.refresh_token).expect(200)).body;
        expect(second.refresh_token).to.not.equal(t.refresh_token);
        expect(second.access_token).to.not.equal(t.access_token);
        await initialize('/mcp', second.access_token).expect(200);
        expectOAuthError(await refresh(t.refresh_token), 400, 'invalid_grant');
        // The family is gone: the rotated refresh token and every access token of the grant.
        expectOAuthError(await refresh(second.refresh_token), 400, 'invalid_grant');
        for (const token of [t.access_token, second.access_token]) expect((await initialize('/mcp', token).expect(401)).body.error.code).to.equal('token_revoked');
        const [grant] = await grantsOf(t.client_id);
        expect(grant).to.include({ live: false, revoked_reason: 'refresh_token_reuse' });
      });

      it('revoking a grant through the API refuses its tokens at once, and its refresh token', async () => {
        const t = await grantFor([EDGE]);
        await initialize('/mcp', t.access_token).expect(200);
        const [grant] = await grantsOf(t.client_id);
        const revoked = (await owner(http.delete(`/api/oauth/grants/${grant!.id}`)).expect(200)).body;
        expect(revoked.grant).to.include({ id: grant!.id, live: false, revoked_reason: 'owner' });
        const refused = await initialize('/mcp', t.access_token).expect(401);
        expect(refused.body.error.code).to.equal('token_revoked');
        expect(refused.headers['www-authenticate']).to.contain('error="invalid_token"');
        expectOAuthError(await http.post('/oauth/token').type('form').send({ grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: t.client_id }), 400, 'invalid_grant');
        expect((await owner(http.delete('/api/oauth/grants/gr_doesnotexist00')).expect(404)).body.error.code).to.equal('not_found');
        expect((await http.delete(`/api/oauth/grants/${grant!.id}`).expect(401)).body.error.code).to.equal('credential_required');
        expect((await http.get('/api/oauth/clients').set('authorization', `Bearer ${t.access_token}`).expect(401)).body.error.code).to.equal('token_wrong_resource');
      });

      it('authenticates confidential clients (Basic and post) and refuses a wrong or missing secret with 401 invalid_client', async () => {
        for (const method of ['client_secret_basic', 'client_secret_post'] as const) {
          const reg = (await http.post('/oauth/register').send({ client_name: 'Conf', redirect_uris: [REDIRECT], token_endpoint_auth_method: method }).expect(201)).body;
          const { verifier, challenge } = pkce();
          const params = { response_type: 'code', client_id: reg.client_id, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256' };
          const { csrf } = await consentPage(http, cookie, params);
          const code = (await decide(http, cookie, params, csrf, 'allow', [EDGE])).searchParams.get('code')!;
          const form = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier };
          const wrong = await http.post('/oauth/token').type('form').auth(reg.client_id, 'sys_wrong').send(form);
          expectOAuthError(wrong, 401, 'invalid_client');
          expect(wrong.headers['www-authenticate']).to.match(/^Basic /);
          expectOAuthError(await http.post('/oauth/token').type('form').send({ ...form, client_id: reg.client_id }), 401, 'invalid_client');
          // The code was spent by the first presentation; a fresh consent gives one to use right.
          const { csrf: csrf2 } = await consentPage(http, cookie, params);
          const code2 = (await decide(http, cookie, params, csrf2, 'allow', [EDGE])).searchParams.get('code')!;
          const ok = method === 'client_secret_basic'
            ? http.post('/oauth/token').type('form').auth(reg.client_id, reg.client_secret).send({ ...form, code: code2 })
            : http.post('/oauth/token').type('form').send({ ...form, code: code2, client_id: reg.client_id, client_secret: reg.client_secret });
          expect((await ok.expect(200)).body.access_token).to.match(/^sy1\./);
        }
      });
    });

    describe('security', () => {
      it('refuses a PKCE downgrade: plain, missing challenge, a missing or wrong verifier', async () => {
        const r = await newRequest();
        for (const bad of [{ code_challenge_method: 'plain' }, { code_challenge: '' }, { code_challenge_method: '' }] as AuthParams[]) {
          const params = { ...r.params, ...bad };
          const res = await http.get(authorizeQuery(params)).set('cookie', cookie).expect(303);
          const back = new URL(res.headers['location']!);
          expect(back.origin + back.pathname).to.equal(REDIRECT);
          expect(back.searchParams.get('error')).to.equal('invalid_request');
          expect(back.searchParams.get('state')).to.equal('st-123');
        }
        const noMethod = { ...r.params };
        delete noMethod['code_challenge_method'];
        expect(new URL((await http.get(authorizeQuery(noMethod)).set('cookie', cookie).expect(303)).headers['location']!).searchParams.get('error')).to.equal('invalid_request');
        const { csrf } = await consentPage(http, cookie, r.params);
        const code = (await decide(http, cookie, r.params, csrf, 'allow', [EDGE])).searchParams.get('code')!;
        expectOAuthError(await http.post('/oauth/token').type('form').send({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: r.client_id }), 400, 'invalid_request');
        expectOAuthError(await exchange(code, r.client_id, pkce().verifier), 400, 'invalid_grant');
        // A wrong verifier spent the code: the right one is too late now.
        expectOAuthError(await exchange(code, r.client_id, r.verifier), 400, 'invalid_grant');
      });

      it('a code is used once: a second use is invalid_grant and revokes what the first gave', async () => {
        const r = await newRequest();
        const { csrf } = await consentPage(http, cookie, r.params);
        const code = (await decide(http, cookie, r.params, csrf, 'allow', [EDGE])).searchParams.get('code')!;
        const first = (await exchange(code, r.client_id, r.verifier).expect(200)).body;
        expectOAuthError(await exchange(code, r.client_id, r.verifier), 400, 'invalid_grant');
        expect((await initialize('/mcp', first.access_token).expect(401)).body.error.code).to.equal('token_revoked');
        expect((await grantsOf(r.client_id))[0]).to.include({ live: false, revoked_reason: 'code_reuse' });
      });

      it('a code is bound to its client, redirect URI and resource', async () => {
        const r = await newRequest();
        const other = await registerClient(http);
        const { csrf } = await consentPage(http, cookie, r.params);
        const code = (await decide(http, cookie, r.params, csrf, 'allow', [EDGE])).searchParams.get('code')!;
        expectOAuthError(await exchange(code, other.client_id, r.verifier), 400, 'invalid_grant');
        for (const extra of [{ redirect_uri: 'http://127.0.0.1:9/other' }, { resource: `${svc.url}/mcp/v/ops` }] as AuthParams[]) {
          const { csrf: c2 } = await consentPage(http, cookie, r.params);
          const code2 = (await decide(http, cookie, r.params, c2, 'allow', [EDGE])).searchParams.get('code')!;
          const res = await exchange(code2, r.client_id, r.verifier, extra);
          expectOAuthError(res, 400, extra['resource'] ? 'invalid_target' : 'invalid_grant');
        }
        expectOAuthError(await exchange('syc_madeup', r.client_id, r.verifier), 400, 'invalid_grant');
      });

      it('a mismatched redirect URI or an unknown client is an error page, never a redirect (no open redirect)', async () => {
        const r = await newRequest();
        const cases: AuthParams[] = [
          { ...r.params, redirect_uri: 'https://evil.example/cb' },
          { ...r.params, redirect_uri: `${REDIRECT}/` },
          { ...r.params, redirect_uri: `${REDIRECT}?x=1` },
          { ...r.params, client_id: 'cl_unknown0000000000000000' },
          { ...r.params, client_id: '' },
        ];
        for (const params of cases) {
          const res = await http.get(authorizeQuery(params)).set('cookie', cookie);
          expect(res.status, JSON.stringify(params)).to.equal(400);
          expect(res.headers['location']).to.equal(undefined);
          expect(res.text).to.contain('cannot be answered').and.not.contain('evil.example/cb"');
        }
        // The same on the POST: a forged form with another redirect_uri redirects nowhere.
        const { csrf } = await consentPage(http, cookie, r.params);
        const form = new URLSearchParams({ ...r.params, redirect_uri: 'https://evil.example/cb', csrf, decision: 'allow', key: EDGE });
        const post = await http.post('/dashboard/oauth/authorize').set('cookie', cookie).type('form').send(form.toString()).expect(400);
        expect(post.headers['location']).to.equal(undefined);
        expect(await grantsOf(r.client_id)).to.deep.equal([]);
      });

      it('refuses a resource that is not one of ours, and a scope it does not have, back at the client', async () => {
        const r = await newRequest();
        for (const [extra, error] of [[{ resource: 'https://other.example/mcp' }, 'invalid_target'], [{ resource: `${svc.url}/api/dispatch` }, 'invalid_target'], [{ scope: 'invoke:NOT_A_KEY' }, 'invalid_scope'], [{ scope: 'admin' }, 'invalid_scope'], [{ response_type: 'token' }, 'unsupported_response_type']] as const) {
          const res = await http.get(authorizeQuery({ ...r.params, ...extra })).set('cookie', cookie).expect(303);
          const back = new URL(res.headers['location']!);
          expect(back.origin + back.pathname).to.equal(REDIRECT);
          expect(back.searchParams.get('error'), JSON.stringify(extra)).to.equal(error);
        }
      });

      it('refuses a consent without the session\'s CSRF token, or without a session, and grants nothing', async () => {
        const r = await newRequest();
        const form = (csrf: string) => new URLSearchParams({ ...r.params, csrf, decision: 'allow', key: EDGE }).toString();
        const forged = await http.post('/dashboard/oauth/authorize').set('cookie', cookie).type('form').send(form('forged')).expect(403);
        expect(forged.headers['location']).to.equal(undefined);
        const { csrf } = await consentPage(http, cookie, r.params);
        const otherSession = await signIn(http);
        await http.post('/dashboard/oauth/authorize').set('cookie', otherSession).type('form').send(form(csrf)).expect(403);
        await http.post('/dashboard/oauth/authorize').type('form').send(form(csrf)).expect(401);
        expect(await grantsOf(r.client_id)).to.deep.equal([]);
        // The page cannot be framed, and its form may only go to us and the client's origin.
        const page = await http.get(authorizeQuery(r.params)).set('cookie', cookie).expect(200);
        expect(page.headers['content-security-policy']).to.contain("frame-ancestors 'none'").and.contain("form-action 'self' http://127.0.0.1:9");
      });

      it('refuses an expired token with token_expired (invalid_token)', async () => {
        const t = await grantFor([EDGE]);
        const shortLived = narrowToken(t.access_token, { expires: Math.floor(Date.now() / 1000) - 1 });
        const res = await initialize('/mcp', shortLived).expect(401);
        expect(res.body.error.code).to.equal('token_expired');
        expect(res.headers['www-authenticate']).to.contain('error="invalid_token"');
      });

      it('answers token endpoint misuse in RFC 6749 form: grant type, content type, missing client', async () => {
        expectOAuthError(await http.post('/oauth/token').type('form').send({ grant_type: 'password', client_id: (await registerClient(http)).client_id }), 400, 'unsupported_grant_type');
        expectOAuthError(await http.post('/oauth/token').type('form').send({ grant_type: 'authorization_code', code: 'x' }), 401, 'invalid_client');
        expectOAuthError(await http.post('/oauth/token').send({ grant_type: 'authorization_code' }), 400, 'invalid_request');
        expectOAuthError(await http.post('/oauth/token').type('form').send('grant_type=refresh_token&grant_type=refresh_token&client_id=x'), 401, 'invalid_client');
      });
    });

    describe('management', () => {
      it('lists clients and grants on the dashboard page, and revokes a grant there with the CSRF token', async () => {
        const t = await grantFor([EDGE]);
        const [grant] = await grantsOf(t.client_id);
        const pageRes = await http.get('/dashboard/oauth').set('cookie', cookie).expect(200);
        expect(pageRes.text).to.contain(t.client_id).and.contain(grant!.id);
        const csrf = /name="csrf" value="([^"]+)"/.exec(pageRes.text)![1]!;
        await http.post(`/dashboard/oauth/grants/${grant!.id}/revoke`).set('cookie', cookie).type('form').send({ csrf: 'forged' }).expect(403);
        expect((await grantsOf(t.client_id))[0]).to.include({ live: true });
        const done = await http.post(`/dashboard/oauth/grants/${grant!.id}/revoke`).set('cookie', cookie).type('form').send({ csrf }).expect(303);
        expect(done.headers['location']).to.equal('/dashboard/oauth');
        expect((await grantsOf(t.client_id))[0]).to.include({ live: false, revoked_reason: 'owner' });
        expect((await initialize('/mcp', t.access_token).expect(401)).body.error.code).to.equal('token_revoked');
        expect((await http.get('/dashboard/oauth').expect(303)).headers['location']).to.match(/^\/dashboard\/login\?next=/);
      });
    });
  });
}
