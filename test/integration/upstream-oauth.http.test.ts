// Upstreams that sign in with OAuth, through the whole service on each engine, against a real MCP
// server guarded by its own authorization server on loopback (test/support/oauth-upstream.ts):
// client credentials are obtained and obtained again when refused; for authorization code the
// owner connects in the dashboard, calls run and are ledgered, an expired access token is
// refreshed, and a revoked grant gives upstream_auth_required and a dashboard that says reconnect.
// Tokens are sealed in the database and never show in logs, ledger records or answers; two
// processes refreshing at once spend a rotating refresh token once.
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import knexFactory from 'knex';
import request from 'supertest';
import { createLogger, createSwitchyard, loadConfig } from '@switchyard/app';
import { CredentialSealer, McpUpstreamClient, UpstreamOAuthClients, type UpstreamOAuthConfig } from '@switchyard/mcp';
import { KnexUpstreamCredentialStore, openDatabase, type Database } from '@switchyard/storage-knex';
import { TEST_API_KEY, engines, freshDatabase, startTestService, type TestDatabase, type TestService } from '../support/app.js';
import { startOAuthUpstream, type OAuthUpstream } from '../support/oauth-upstream.js';

const OPEN = { auth: 'none', risk: 'low', approval: false };
const key = () => ({ kid: 'k1', secret: randomBytes(32).toString('base64') });

for (const engine of engines()) {
  describe(`upstreams that sign in with OAuth (${engine})`, function () {
    this.timeout(60_000);
    let svc: TestService;
    let http: ReturnType<typeof request>;
    let cc: OAuthUpstream;
    let ac: OAuthUpstream;
    const lines: string[] = [];
    const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);
    const run = (k: string) => owner(http.post('/api/dispatch')).send({ key: k, body: {} });
    let cookie: string;

    const upstreamsPage = async () => (await http.get('/dashboard/upstreams').set('cookie', cookie).expect(200)).text;
    const decode = (s: string) => s.replace(/&amp;/g, '&').replace(/&#39;/g, "'").replace(/&quot;/g, '"');

    /** The owner's Connect in the dashboard, the consent at the authorization server, and the callback. */
    async function connect(name: string): Promise<request.Response> {
      const csrf = /name="csrf" value="([^"]+)"/.exec(await upstreamsPage())![1]!;
      const pressed = await http.post(`/dashboard/upstreams/${name}/connect`).set('cookie', cookie).type('form').send({ csrf }).expect(200);
      const binding = pressed.headers['set-cookie']![0]!.split(';')[0]!;
      const authorizationUrl = decode(/id="continue" href="([^"]+)"/.exec(pressed.text)![1]!);
      const consent = await fetch(authorizationUrl, { redirect: 'manual' });
      expect(consent.status).to.equal(302);
      const back = new URL(consent.headers.get('location')!);
      expect(back.pathname).to.equal(`/dashboard/upstreams/${name}/callback`);
      return http.get(`${back.pathname}${back.search}`).set('cookie', binding);
    }

    before(async () => {
      cc = await startOAuthUpstream();
      ac = await startOAuthUpstream();
      const destination = { write: (line: string) => void lines.push(line) };
      svc = await startTestService(
        engine,
        {
          upstreams: {
            connectTimeoutMs: 5000,
            oauthKeys: [key()],
            servers: {
              cc: { system: 'CC', transport: 'streamable-http', url: cc.url, oauth: { grant: 'client_credentials', clientId: cc.confidential.clientId, clientSecret: cc.confidential.clientSecret }, defaults: OPEN },
              ac: { system: 'AC', transport: 'streamable-http', url: ac.url, oauth: { grant: 'authorization_code' }, defaults: OPEN },
            },
          },
        },
        { logger: createLogger('debug', { destination }) },
      );
      http = request(svc.switchyard.app);
      const signedIn = await http.post('/dashboard/login').type('form').send({ api_key: TEST_API_KEY, next: '/dashboard/upstreams' }).expect(303);
      cookie = signedIn.headers['set-cookie']![0]!.split(';')[0]!;
    });
    after(async () => {
      await svc?.close();
      await cc?.close();
      await ac?.close();
    });

    it('signs in with client credentials at start: the tools are imported and run, and a refused token is replaced', async () => {
      expect(svc.switchyard.registry.has('CC_WHOAMI')).to.equal(true);
      const first = await run('CC_WHOAMI').expect(200);
      expect(first.body.result).to.deep.equal({ subject: cc.confidential.clientId, client: cc.confidential.clientId });
      const obtained = cc.tokenRequests.filter((t) => t.grant === 'client_credentials' && t.ok).length;
      expect(obtained).to.be.greaterThan(0);
      cc.expireAccessTokens();
      const again = await run('CC_WHOAMI').expect(200);
      expect(again.body.invocation).to.include({ ok: true, status: 'ok' });
      expect(cc.tokenRequests.filter((t) => t.grant === 'client_credentials' && t.ok).length).to.equal(obtained + 1);
    });

    it('refuses an authorization-code upstream until the owner connects it: upstream_auth_required naming the dashboard', async () => {
      expect(svc.switchyard.registry.has('AC_WHOAMI')).to.equal(false);
      const listed = await owner(http.get('/api/upstreams')).expect(200);
      const entry = listed.body.items.find((u: { name: string }) => u.name === 'ac');
      expect(entry.last_error.code).to.equal('upstream_auth_required');
      expect(entry.last_error.message).to.contain('/dashboard/upstreams');
      expect(entry.oauth).to.include({ grant: 'authorization_code', state: 'not_connected' });
      const other = listed.body.items.find((u: { name: string }) => u.name === 'cc');
      expect(other.oauth).to.include({ grant: 'client_credentials', state: 'connected' });
      const refresh = await owner(http.post('/api/upstreams/ac/refresh')).expect(503);
      expect(refresh.body.error.code).to.equal('upstream_auth_required');
      // Nothing was sent to the upstream's authorization server for it.
      expect(ac.tokenRequests).to.deep.equal([]);
      const page = await upstreamsPage();
      expect(page).to.match(/data-upstream="ac" data-state="not_connected"/).and.match(/data-upstream="cc" data-state="connected"/);
    });

    it('connects in the dashboard: PKCE and state at the authorization server, then calls run and are ledgered', async () => {
      const done = await connect('ac');
      expect(done.status).to.equal(200);
      expect(done.text).to.contain('Connected ac');
      const asked = ac.authorizeRequests.at(-1)!;
      expect(asked).to.include({ response_type: 'code', code_challenge_method: 'S256', resource: ac.url });
      expect(asked['state']).to.have.length.greaterThan(30);
      expect(asked['redirect_uri']).to.match(/\/dashboard\/upstreams\/ac\/callback$/);
      expect(svc.switchyard.registry.has('AC_WHOAMI')).to.equal(true);
      const ran = await run('AC_WHOAMI').expect(200);
      expect(ran.body.result).to.include({ subject: 'owner' });
      const ledger = await owner(http.get('/api/invocations?object_id=AC_WHOAMI')).expect(200);
      expect(ledger.body.items.map((i: { id: string }) => i.id)).to.include(ran.body.invocation.id);
      expect(await upstreamsPage()).to.match(/data-upstream="ac" data-state="connected"/);
    });

    it('refuses a callback that does not carry the state bound to this browser, and a forged Connect', async () => {
      const csrf = /name="csrf" value="([^"]+)"/.exec(await upstreamsPage())![1]!;
      await http.post('/dashboard/upstreams/ac/connect').set('cookie', cookie).type('form').send({ csrf: `${csrf}x` }).expect(403);
      const pressed = await http.post('/dashboard/upstreams/ac/connect').set('cookie', cookie).type('form').send({ csrf }).expect(200);
      const consent = await fetch(decode(/id="continue" href="([^"]+)"/.exec(pressed.text)![1]!), { redirect: 'manual' });
      const back = new URL(consent.headers.get('location')!);
      // Another browser (no binding cookie), or a state that is not the one sent.
      const unbound = await http.get(`${back.pathname}${back.search}`).expect(400);
      expect(unbound.text).to.contain('invalid_request');
      const binding = pressed.headers['set-cookie']![0]!.split(';')[0]!;
      back.searchParams.set('state', 'forged');
      await http.get(`${back.pathname}${back.search}`).set('cookie', binding).expect(400);
      // The owner (or the server) refused: said so, and nothing stored changes.
      const denied = await http.get('/dashboard/upstreams/ac/callback?error=access_denied&error_description=the%20owner%20said%20no').set('cookie', binding).expect(400);
      expect(denied.text).to.contain('access_denied').and.contain('the owner said no');
      expect(await upstreamsPage()).to.match(/data-upstream="ac" data-state="connected"/);
      // The stored connection still works.
      await run('AC_WHOAMI').expect(200);
    });

    it('refuses an answer whose iss names another authorization server, or has none though the server always sends it (RFC 9207): upstream_auth_failed, its code never exchanged', async () => {
      for (const tamper of [(u: URL) => u.searchParams.set('iss', 'https://evil.example.com'), (u: URL) => u.searchParams.set('iss', `${ac.issuer}/`), (u: URL) => u.searchParams.delete('iss')]) {
        const csrf = /name="csrf" value="([^"]+)"/.exec(await upstreamsPage())![1]!;
        const pressed = await http.post('/dashboard/upstreams/ac/connect').set('cookie', cookie).type('form').send({ csrf }).expect(200);
        const binding = pressed.headers['set-cookie']![0]!.split(';')[0]!;
        const consent = await fetch(decode(/id="continue" href="([^"]+)"/.exec(pressed.text)![1]!), { redirect: 'manual' });
        const back = new URL(consent.headers.get('location')!);
        expect(back.searchParams.get('iss')).to.equal(ac.issuer);
        tamper(back);
        const exchanges = ac.tokenRequests.filter((t) => t.grant === 'authorization_code').length;
        const refused = await http.get(`${back.pathname}${back.search}`).set('cookie', binding).expect(502);
        expect(refused.text).to.contain('upstream_auth_failed').and.contain('RFC 9207');
        expect(ac.tokenRequests.filter((t) => t.grant === 'authorization_code').length).to.equal(exchanges);
        // The same answer with its iss put right is no longer awaited: that connection has ended.
        back.searchParams.set('iss', ac.issuer);
        await http.get(`${back.pathname}${back.search}`).set('cookie', binding).expect(400);
        expect(ac.tokenRequests.filter((t) => t.grant === 'authorization_code').length).to.equal(exchanges);
      }
      // The connection made before is untouched.
      expect(await upstreamsPage()).to.match(/data-upstream="ac" data-state="connected"/);
      await run('AC_WHOAMI').expect(200);
    });

    it('refreshes an expired access token with the refresh token, and the call runs', async () => {
      const refreshes = ac.tokenRequests.filter((t) => t.grant === 'refresh_token').length;
      ac.expireAccessTokens();
      const ran = await run('AC_WHOAMI').expect(200);
      expect(ran.body.result).to.include({ subject: 'owner' });
      expect(ac.tokenRequests.filter((t) => t.grant === 'refresh_token' && t.ok).length).to.equal(refreshes + 1);
    });

    it('answers upstream_auth_required when the grant is revoked, and the dashboard says reconnect; connecting again mends it', async () => {
      ac.revokeAll();
      const refused = await run('AC_WHOAMI');
      expect(refused.body.ok).to.equal(false);
      expect(refused.body.invocation.error.code).to.equal('upstream_auth_required');
      expect(refused.body.invocation.error.message).to.contain('/dashboard/upstreams');
      expect(await upstreamsPage()).to.match(/data-upstream="ac" data-state="reconnect"/).and.contain('Reconnect');
      expect((await connect('ac')).status).to.equal(200);
      await run('AC_WHOAMI').expect(200);
    });

    it('keeps the tokens sealed in the database, and out of logs, ledger records, answers and pages', async () => {
      const issued = [...cc.issued, ...ac.issued, cc.confidential.clientSecret];
      expect(issued.length).to.be.greaterThan(6);
      const db = knexFactory(engine === 'sqlite' ? { client: 'sqlite3', connection: { filename: svc.db.url.replace(/^sqlite:/, '') }, useNullAsDefault: true } : { client: 'pg', connection: svc.db.url });
      try {
        const rows = (await db('upstream_credentials').select('*')) as Array<Record<string, unknown>>;
        expect(rows.map((r) => r['upstream']).sort()).to.deep.equal(['ac', 'cc']);
        const stored = JSON.stringify(rows);
        for (const token of issued) expect(stored).to.not.contain(token);
        expect(String(rows[0]!['sealed'])).to.match(/^v1\.k1\./);
      } finally {
        await db.destroy();
      }
      const answers = [
        JSON.stringify((await owner(http.get('/api/invocations?object_id=AC_WHOAMI')).expect(200)).body),
        JSON.stringify((await owner(http.get('/api/invocations?object_id=CC_WHOAMI')).expect(200)).body),
        JSON.stringify((await owner(http.get('/api/upstreams')).expect(200)).body),
        await upstreamsPage(),
        lines.join('\n'),
      ];
      expect(lines.length).to.be.greaterThan(0);
      for (const text of answers) for (const token of issued) expect(text).to.not.contain(token);
    });
  });

  describe(`upstream OAuth credentials across processes (${engine})`, function () {
    this.timeout(60_000);
    let upstream: OAuthUpstream;
    let tdb: TestDatabase;
    const dbs: Database[] = [];
    const sharedKeys = [key()];

    before(async () => {
      upstream = await startOAuthUpstream();
      tdb = await freshDatabase(engine);
    });
    after(async () => {
      for (const db of dbs) await db.close();
      await tdb?.drop();
      await upstream?.close();
    });

    it('a process that saw the upstream unconnected uses the connection another process made', async () => {
      const db = await openDatabase(tdb.url, { leafWorker: false });
      dbs.push(db);
      const sides = [db, db].map(() => {
        const oauth = new UpstreamOAuthClients([{ name: 'late', url: upstream.url, oauth: { grant: 'authorization_code' } }], new KnexUpstreamCredentialStore(db.knex), new CredentialSealer(sharedKeys), { connectUrl: '/dashboard/upstreams' });
        return { oauth, client: new McpUpstreamClient({ oauth }) };
      });
      const address = { url: upstream.url, transport: 'streamable-http' as const, oauth: 'late' };
      try {
        const refused = await sides[1]!.client.callTool(address, 'whoami', {}, { timeoutMs: 5000 }).then(() => null, (err: unknown) => err);
        expect(refused).to.have.property('code', 'upstream_auth_required');
        const consent = await fetch(await sides[0]!.oauth.begin('late', 'http://127.0.0.1:1/dashboard/upstreams/late/callback', 'state-of-late-connect-0123456789'), { redirect: 'manual' });
        const back = new URL(consent.headers.get('location')!);
        await sides[0]!.oauth.complete('late', back.searchParams.get('state')!, back.searchParams.get('code')!, back.searchParams.get('iss'));
        expect((await sides[1]!.client.callTool(address, 'whoami', {}, { timeoutMs: 5000 })).isError).to.equal(false);
      } finally {
        for (const side of sides) await side.client.close();
      }
    });

    it('refuses an authorization server whose metadata names another issuer (RFC 8414 §3.3): upstream_auth_failed at Connect, nothing registered or asked', async () => {
      const poisoned = await startOAuthUpstream({ metadataIssuer: 'https://attacker.example.com' });
      const db = await openDatabase(tdb.url, { leafWorker: false });
      dbs.push(db);
      const oauth = new UpstreamOAuthClients([{ name: 'poisoned', url: poisoned.url, oauth: { grant: 'authorization_code' } }], new KnexUpstreamCredentialStore(db.knex), new CredentialSealer(sharedKeys), { connectUrl: '/dashboard/upstreams' });
      try {
        const refused = await oauth.begin('poisoned', 'http://127.0.0.1:1/dashboard/upstreams/poisoned/callback', 'state-of-poisoned-connect-0123456789').then(() => null, (err: unknown) => err);
        expect(refused).to.have.property('code', 'upstream_auth_failed');
        expect((refused as Error).message).to.contain('https://attacker.example.com').and.contain('RFC 8414');
        expect(poisoned.registrations).to.deep.equal([]);
        expect(poisoned.authorizeRequests).to.deep.equal([]);
        expect((await oauth.list())[0]).to.include({ state: 'not_connected' });
      } finally {
        await poisoned.close();
      }
    });

    it('two processes refreshing at once spend a rotating refresh token once, and both calls run', async () => {
      const keys = sharedKeys;
      const config: UpstreamOAuthConfig = { grant: 'authorization_code' };
      // Two "processes": each its own database connection, sign-in clients and MCP client.
      const pair = [await openDatabase(tdb.url, { leafWorker: false }), await openDatabase(tdb.url, { leafWorker: false })];
      dbs.push(...pair);
      const sides = pair.map((db) => {
        const oauth = new UpstreamOAuthClients([{ name: 'ac', url: upstream.url, oauth: config }], new KnexUpstreamCredentialStore(db.knex), new CredentialSealer(keys), { connectUrl: '/dashboard/upstreams' });
        return { oauth, client: new McpUpstreamClient({ oauth }) };
      });
      const address = { url: upstream.url, transport: 'streamable-http' as const, oauth: 'ac' };
      // The owner connects through the first.
      const state = randomBytes(16).toString('base64url');
      const consent = await fetch(await sides[0]!.oauth.begin('ac', 'http://127.0.0.1:1/dashboard/upstreams/ac/callback', state), { redirect: 'manual' });
      const back = new URL(consent.headers.get('location')!);
      await sides[0]!.oauth.complete('ac', back.searchParams.get('state')!, back.searchParams.get('code')!, back.searchParams.get('iss'));
      for (const side of sides) expect((await side.client.callTool(address, 'whoami', {}, { timeoutMs: 5000 })).isError).to.equal(false);
      try {
        for (let round = 0; round < 3; round++) {
          upstream.expireAccessTokens();
          const before = upstream.tokenRequests.filter((t) => t.grant === 'refresh_token').length;
          const results = await Promise.all(sides.map((side) => side.client.callTool(address, 'whoami', {}, { timeoutMs: 5000 })));
          expect(results.map((r) => r.isError)).to.deep.equal([false, false]);
          const spent = upstream.tokenRequests.filter((t) => t.grant === 'refresh_token').slice(before);
          // One refresh, never a reuse (which would have revoked the family).
          expect(spent).to.deep.equal([{ grant: 'refresh_token', ok: true }]);
        }
        expect((await sides[1]!.oauth.list())[0]).to.include({ name: 'ac', state: 'connected' });
      } finally {
        for (const side of sides) await side.client.close();
      }
    });

    it('refreshes a token that has expired by its expires_in before using it: the stale token is never sent', async () => {
      const db = await openDatabase(tdb.url, { leafWorker: false });
      dbs.push(db);
      let clock = Date.now();
      const oauth = new UpstreamOAuthClients([{ name: 'clocked', url: upstream.url, oauth: { grant: 'authorization_code' } }], new KnexUpstreamCredentialStore(db.knex), new CredentialSealer(sharedKeys), { connectUrl: '/dashboard/upstreams', now: () => clock });
      const client = new McpUpstreamClient({ oauth });
      const address = { url: upstream.url, transport: 'streamable-http' as const, oauth: 'clocked' };
      try {
        const consent = await fetch(await oauth.begin('clocked', 'http://127.0.0.1:1/dashboard/upstreams/clocked/callback', 'state-of-clocked-connect-0123456789'), { redirect: 'manual' });
        const back = new URL(consent.headers.get('location')!);
        await oauth.complete('clocked', back.searchParams.get('state')!, back.searchParams.get('code')!, back.searchParams.get('iss'));
        expect((await client.callTool(address, 'whoami', {}, { timeoutMs: 5000 })).isError).to.equal(false);
        const first = upstream.presented.at(-1)!;
        const refreshes = upstream.tokenRequests.filter((t) => t.grant === 'refresh_token').length;
        // An hour later by our clock (the fixture's tokens live an hour): refreshed first.
        clock += 3600 * 1000;
        const presentedBefore = upstream.presented.length;
        expect((await client.callTool(address, 'whoami', {}, { timeoutMs: 5000 })).isError).to.equal(false);
        expect(upstream.tokenRequests.filter((t) => t.grant === 'refresh_token').length).to.equal(refreshes + 1);
        expect(upstream.presented.slice(presentedBefore)).to.not.include(first);
      } finally {
        await client.close();
      }
    });

    it('refuses to start with an OAuth upstream and no key to seal its credentials, naming the setting', async () => {
      const config = loadConfig({ env: {}, overrides: { database: { url: tdb.url }, upstreams: { servers: { ac: { system: 'AC', transport: 'streamable-http', url: upstream.url, oauth: { grant: 'authorization_code' } } } } } });
      const refused = await createSwitchyard(config, { logger: createLogger('silent') }).then(() => null, (err: Error) => err);
      expect(refused?.message).to.contain('upstreams.oauthKeys');
      expect(() => loadConfig({ env: {}, overrides: { upstreams: { oauthKeys: [{ kid: 'k1', secret: 'short' }] } } })).to.throw(/upstreams\.oauthKeys/);
      const stdio = loadConfig({ env: {}, overrides: { database: { url: tdb.url }, upstreams: { oauthKeys: [key()], servers: { s: { system: 'S', transport: 'stdio', command: 'true', oauth: { grant: 'client_credentials', clientId: 'x', clientSecret: 'y' } } } } } });
      expect((await createSwitchyard(stdio, { logger: createLogger('silent') }).then(() => null, (err: Error) => err))?.message).to.contain('streamable-http');
    });
  });
}
