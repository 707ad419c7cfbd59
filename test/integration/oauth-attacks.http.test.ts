// Attacks on the OAuth authorization server found in review, each refused, on each engine:
// a flood of dynamic registrations (bounded in storage, and never hiding the clients the owner
// consented to from the owner's list); a token narrowed offline with text that cannot go in an
// HTTP header (the 401 challenge must still be a 401); a native client on another loopback port
// (RFC 8252 §7.3: any port, nothing else loosened); a consented client hammering the token
// endpoint (each refresh stores a row: it is limited per client address); a client name that
// hides or reorders text on the consent page (bidi controls, zero-width characters); an OAuth
// access token put in the URL (share=), where proxies and logs keep it. And what held: a consent
// to a capability that needs the owner's approval does not skip the approval. And a confused but
// honest client: a resource spelled with a trailing slash or an upper-case host at both endpoints,
// a redirect_uri left out of both requests (OAuth 2.1 §4.1.3 asks for it only when it was given);
// a client that registered without the refresh_token grant gets no 30-day credential it never asked for.
// The consent page warns when the answer goes to a program on this computer (a loopback or an app's
// own scheme): any program there can claim any name (the MCP spec asks for the warning).
import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import request from 'supertest';
import { narrowToken } from '@switchyard/core';
import { TEST_API_KEY, engines, startListeningService, startTestService, type ListeningService } from '../support/app.js';
import { REDIRECT, authorizeQuery, consentPage, decide, pkce, registerClient, signIn } from '../support/oauth.js';

const EDGE = 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER';
const MAX_UNCONSENTED = 20;
/** A capability that runs only after the owner approves its exact arguments. */
const PAYMENTS = 'PAYMENTS_PROCESSOR_API_SEARCH';

/** Appends any caveat text to a token, as any holder can offline (the chain needs only the last signature). */
function appendCaveat(token: string, caveat: string): string {
  const [payload, signature] = token.slice('sy1.'.length).split('.');
  const body = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as { c: string[] };
  body.c.push(caveat);
  const sig = createHmac('sha256', Buffer.from(signature!, 'base64url')).update(caveat).digest();
  return `sy1.${Buffer.from(JSON.stringify(body)).toString('base64url')}.${sig.toString('base64url')}`;
}

for (const engine of engines()) {
  describe(`OAuth attacks over HTTP (${engine})`, function () {
    this.timeout(120_000);
    let svc: ListeningService;
    let http: ReturnType<typeof request>;
    let cookie: string;
    const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);
    const listed = async () => (await owner(http.get('/api/oauth/clients')).expect(200)).body as { count: number; clients: Array<{ id: string; grants: unknown[] }> };

    before(async () => {
      svc = await startListeningService(engine, { tokens: { mintPerMinute: 100_000 }, oauth: { maxUnconsentedClients: MAX_UNCONSENTED } });
      http = request(svc.url);
      cookie = await signIn(http);
    });
    after(async () => svc?.close());

    it('a registration flood keeps at most oauth.maxUnconsentedClients clients without a grant, and never evicts or hides a consented one', async () => {
      const consented = await registerClient(http);
      const { challenge } = pkce();
      const params = { response_type: 'code', client_id: consented.client_id, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256' };
      const { csrf } = await consentPage(http, cookie, params);
      expect((await decide(http, cookie, params, csrf, 'allow', [EDGE])).searchParams.get('code')).to.be.a('string');

      const flood: string[] = [];
      for (let i = 0; i < MAX_UNCONSENTED * 3; i++) flood.push((await registerClient(http)).client_id);
      const list = await listed();
      // Stored: the consented client and the newest unconsented ones, no more.
      expect(list.count).to.equal(MAX_UNCONSENTED + 1);
      expect(list.clients[0]!.id, 'the consented client is listed first').to.equal(consented.client_id);
      expect(list.clients.slice(1).map((c) => c.id)).to.deep.equal(flood.slice(-MAX_UNCONSENTED).reverse());
      // The oldest flood registrations are gone: an authorization request naming one is an error page.
      const gone = await http.get(`/dashboard/oauth/authorize?${new URLSearchParams({ ...params, client_id: flood[0]! })}`).set('cookie', cookie).expect(400);
      expect(gone.text).to.contain('invalid_client');
      // The consented client still authorizes.
      await consentPage(http, cookie, params);
    });

    it('a token narrowed offline with text outside the header charset gets a 401 challenge (RFC 6750 §3 characters), not a 500', async () => {
      const start = (await http.get('/start').expect(200)).body.token as string;
      const cases: Array<[string, string]> = [
        [appendCaveat(start, 'zz=\u20ac\u202e'), 'token_corrupted'],
        [narrowToken(start, { resource: 'http://elsewhere.example/\u20ac' }), 'token_wrong_resource'],
      ];
      for (const [token, code] of cases) {
        const res = await http.post('/mcp').set('authorization', `Bearer ${token}`).set('accept', 'application/json, text/event-stream').send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
        expect(res.status, res.text).to.equal(401);
        expect(res.body.error.code).to.equal(code);
        const challenge = res.headers['www-authenticate'] as string;
        expect(challenge).to.contain('error="invalid_token"');
        const description = /error_description="([^"]*)"/.exec(challenge)![1]!;
        expect(description).to.match(/^[\x20\x21\x23-\x5b\x5d-\x7e]+$/);
      }
    });

    it('a loopback IP redirect URI matches on any port (RFC 8252 §7.3), and on nothing else looser', async () => {
      const { client_id } = await registerClient(http, { redirect_uris: ['http://127.0.0.1:9/callback', 'http://[::1]/cb', 'http://localhost:9/callback', 'https://127.0.0.1:9/callback'] });
      const { verifier, challenge } = pkce();
      const ephemeral = 'http://127.0.0.1:54321/callback';
      const params = { response_type: 'code', client_id, redirect_uri: ephemeral, code_challenge: challenge, code_challenge_method: 'S256', state: 's' };
      const { html, csrf } = await consentPage(http, cookie, params);
      expect(html).to.contain(ephemeral);
      const back = await decide(http, cookie, params, csrf, 'allow', [EDGE]);
      expect(`${back.origin}${back.pathname}`).to.equal(ephemeral);
      const code = back.searchParams.get('code')!;
      // The code is bound to the URI as asked, port included.
      const form = { grant_type: 'authorization_code', code, client_id, code_verifier: verifier };
      expect((await http.post('/oauth/token').type('form').send({ ...form, redirect_uri: ephemeral }).expect(200)).body.access_token).to.match(/^sy1\./);
      await consentPage(http, cookie, { ...params, redirect_uri: 'http://[::1]:8080/cb' });
      for (const redirect_uri of ['http://127.0.0.1:54321/other', 'http://127.0.0.1:54321/callback?x=1', 'http://127.0.0.2:9/callback', 'http://localhost:54321/callback', 'https://127.0.0.1:54321/callback', 'http://127.0.0.1:99999/callback', 'http://127.0.0.1:54321@evil.example/callback', 'http://127.0.0.1.evil.example:9/callback']) {
        const res = await http.get(authorizeQuery({ ...params, redirect_uri })).set('cookie', cookie);
        expect(res.status, redirect_uri).to.equal(400);
        expect(res.headers['location'], redirect_uri).to.equal(undefined);
      }
    });

    it('limits token requests per client address (each refresh stores a row), in RFC 6749 form with Retry-After', async () => {
      const limited = await startTestService(engine, { tokens: { mintPerMinute: 3 } });
      try {
        const app = request(limited.switchyard.app);
        const { client_id } = await registerClient(app);
        const ask = () => app.post('/oauth/token').type('form').send({ grant_type: 'refresh_token', refresh_token: 'syr_madeup', client_id });
        for (let i = 0; i < 3; i++) expect((await ask()).body.error).to.equal('invalid_grant');
        const refused = await ask();
        expect(refused.status, refused.text).to.equal(429);
        expect(refused.body.error).to.equal('temporarily_unavailable');
        expect(Number(refused.headers['retry-after'])).to.be.greaterThan(0);
        // Registration keeps a budget of its own.
        await registerClient(app);
      } finally {
        await limited.close();
      }
    });

    it('refuses a client name with invisible or reordering characters (it is what the owner reads on the consent page)', async () => {
      const before = (await listed()).count;
      for (const client_name of ['Claude\u202e', 'Cla\u200bude', '\u2067Cursor\u2069', 'App\ufeff']) {
        const res = await http.post('/oauth/register').send({ client_name, redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' });
        expect(res.status, JSON.stringify(client_name)).to.equal(400);
        expect(res.body.error).to.equal('invalid_client_metadata');
      }
      expect((await listed()).count).to.equal(before);
      expect((await http.post('/oauth/register').send({ client_name: 'Éditeur 日本語', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }).expect(201)).body.client_name).to.equal('Éditeur 日本語');
    });

    it('refuses an OAuth access token in the URL (share=): the Authorization header only (OAuth 2.1, MCP)', async () => {
      const { client_id } = await registerClient(http);
      const { verifier, challenge } = pkce();
      const params = { response_type: 'code', client_id, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256' };
      const { csrf } = await consentPage(http, cookie, params);
      const code = (await decide(http, cookie, params, csrf, 'allow', [EDGE])).searchParams.get('code')!;
      const { access_token } = (await http.post('/oauth/token').type('form').send({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id, code_verifier: verifier }).expect(200)).body as { access_token: string };
      const body = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } };
      const inUrl = await http.post(`/mcp?share=${encodeURIComponent(access_token)}`).set('accept', 'application/json, text/event-stream').send(body);
      expect(inUrl.status, inUrl.text).to.equal(400);
      expect(inUrl.body.error.code).to.equal('invalid_request');
      expect(inUrl.body.error.message).to.contain('Authorization header');
      // Both ways at once is no way around it; the header alone works.
      expect((await http.post(`/mcp?share=${encodeURIComponent(access_token)}`).set('authorization', `Bearer ${access_token}`).set('accept', 'application/json, text/event-stream').send(body)).status).to.equal(400);
      await http.post('/mcp').set('authorization', `Bearer ${access_token}`).set('accept', 'application/json, text/event-stream').send(body).expect(200);
      // Other share tokens keep share= (links carry them).
      const start = (await http.get('/start').expect(200)).body.token as string;
      await http.get(`/api/dispatch?explain=1&share=${encodeURIComponent(start)}`).expect(200);
    });

    it('a consented OAuth token does not skip approvals: a run of an approval capability waits for the owner', async () => {
      const { client_id } = await registerClient(http);
      const { verifier, challenge } = pkce();
      const params = { response_type: 'code', client_id, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', scope: `invoke:${PAYMENTS}` };
      const { csrf } = await consentPage(http, cookie, params);
      const code = (await decide(http, cookie, params, csrf, 'allow', [PAYMENTS])).searchParams.get('code')!;
      const { access_token } = (await http.post('/oauth/token').type('form').send({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id, code_verifier: verifier }).expect(200)).body as { access_token: string };
      const res = await http.post('/mcp').set('authorization', `Bearer ${access_token}`).set('accept', 'application/json, text/event-stream').send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: PAYMENTS, arguments: { query: 'refund everything' } } }).expect(200);
      const run = res.body.result._meta['switchyard/run'] as { status: string; error: { code: string }; invocation: string };
      expect(run).to.include({ status: 'awaiting_approval' });
      expect(run.error.code).to.equal('approval_required');
      const pending = (await owner(http.get('/api/approvals')).expect(200)).body.items as Array<{ invocation: string; actor: string }>;
      expect(pending.find((p) => p.invocation === run.invocation)).to.include({ actor: client_id });
    });

    it('a confused client: the same resource spelled differently at both endpoints, a redirect_uri left out of both', async () => {
      const { client_id } = await registerClient(http);
      const url = new URL(svc.url);
      for (const resource of [`${svc.url}/mcp/`, `${url.protocol}//${url.host.toUpperCase()}/mcp`]) {
        const { verifier, challenge } = pkce();
        const params = { response_type: 'code', client_id, code_challenge: challenge, code_challenge_method: 'S256', resource };
        const { csrf } = await consentPage(http, cookie, params);
        const back = await decide(http, cookie, params, csrf, 'allow', [EDGE]);
        expect(`${back.origin}${back.pathname}`).to.equal(REDIRECT);
        const answer = await http.post('/oauth/token').type('form').send({ grant_type: 'authorization_code', code: back.searchParams.get('code')!, client_id, code_verifier: verifier, resource });
        expect(answer.status, answer.text).to.equal(200);
        const refreshed = await http.post('/oauth/token').type('form').send({ grant_type: 'refresh_token', refresh_token: answer.body.refresh_token, client_id, resource });
        expect(refreshed.status, refreshed.text).to.equal(200);
        await http.post('/mcp').set('authorization', `Bearer ${refreshed.body.access_token}`).set('accept', 'application/json, text/event-stream').send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } }).expect(200);
      }
      // Another resource is still another resource, and a client with two URIs must name the one.
      const { verifier, challenge } = pkce();
      const params = { response_type: 'code', client_id, code_challenge: challenge, code_challenge_method: 'S256' };
      const { csrf } = await consentPage(http, cookie, params);
      const code = (await decide(http, cookie, params, csrf, 'allow', [EDGE])).searchParams.get('code')!;
      const other = await http.post('/oauth/token').type('form').send({ grant_type: 'authorization_code', code, client_id, code_verifier: verifier, resource: `${svc.url}/MCP` });
      expect(other.body.error, other.text).to.equal('invalid_target');
      const two = await registerClient(http, { redirect_uris: [REDIRECT, 'http://127.0.0.1:9/second'] });
      const p2 = { ...params, client_id: two.client_id, redirect_uri: REDIRECT };
      const { csrf: csrf2 } = await consentPage(http, cookie, p2);
      const code2 = (await decide(http, cookie, p2, csrf2, 'allow', [EDGE])).searchParams.get('code')!;
      expect((await http.post('/oauth/token').type('form').send({ grant_type: 'authorization_code', code: code2, client_id: two.client_id, code_verifier: verifier })).body.error).to.equal('invalid_grant');
    });

    it('a client registered without the refresh_token grant gets no refresh token, and the refresh grant is unauthorized_client', async () => {
      const { client_id } = await registerClient(http, { grant_types: ['authorization_code'] });
      const { verifier, challenge } = pkce();
      const params = { response_type: 'code', client_id, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256' };
      const { csrf } = await consentPage(http, cookie, params);
      const code = (await decide(http, cookie, params, csrf, 'allow', [EDGE])).searchParams.get('code')!;
      const answer = (await http.post('/oauth/token').type('form').send({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id, code_verifier: verifier }).expect(200)).body;
      expect(answer.access_token).to.match(/^sy1\./);
      expect(answer).to.not.have.property('refresh_token');
      const refused = await http.post('/oauth/token').type('form').send({ grant_type: 'refresh_token', refresh_token: 'syr_anything', client_id });
      expect(refused.status).to.equal(400);
      expect(refused.body.error).to.equal('unauthorized_client');
    });

    it('warns on the consent page when the answer goes to a program on this computer, not to a web site', async () => {
      const warning = 'id="local-redirect-warning"';
      for (const [redirect, warned] of [[REDIRECT, true], ['http://localhost:7/cb', true], ['cursor://anysphere.cursor-mcp/oauth/callback', true], ['https://app.example/cb', false]] as const) {
        const { client_id } = await registerClient(http, { client_name: 'Claude', redirect_uris: [redirect] });
        const { html } = await consentPage(http, cookie, { response_type: 'code', client_id, redirect_uri: redirect, code_challenge: pkce().challenge, code_challenge_method: 'S256' });
        expect(html.includes(warning), redirect).to.equal(warned);
      }
    });
  });
}
