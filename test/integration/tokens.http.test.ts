// Share tokens through HTTP against the real service, on each engine: keyless minting, explain,
// invoke by GET, offline narrowing, uses, expiry and corruption, token uses in the ledger, and the
// scope matrix — every route (a router-tag run's denial is reported inside its 200 answer) × every kind of credential, with the exact outcome.
import { expect } from 'chai';
import request from 'supertest';
import { narrowToken } from '@switchyard/core';
import { TEST_API_KEY, engines, startTestService, type TestService } from '../support/app.js';

const EDGE = 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER';
const GROUP = 'MESSAGING_UPDATE_GROUP';
const PAYMENTS = 'PAYMENTS_PROCESSOR_API_SEARCH';
const WORKER = '0123456789abcdef0123456789abcdef';
const edgeBody = encodeURIComponent(JSON.stringify({ workerId: WORKER }));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const engine of engines()) {
  describe(`HTTP share tokens (${engine})`, function () {
    this.timeout(30_000);
    let svc: TestService;
    let http: ReturnType<typeof request>;
    const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);
    const start = async () => (await http.get('/start').expect(200)).body as { token: string; fingerprint: string; keys: string[]; moves: string[]; next: Record<string, string>; expires_at: string };

    before(async () => {
      svc = await startTestService(engine, { tokens: { mintPerMinute: 1000 }, ledger: { integrateIntervalMs: 50 } });
      http = request(svc.switchyard.app);
    });
    after(async () => svc?.close());

    it('/start mints a bounded token for the auth-none keys, with next steps filled in', async () => {
      const t = await start();
      expect(t.token).to.match(/^sy1\./);
      expect(t.fingerprint).to.match(/^fp_[0-9a-f]{16}$/);
      expect(t.keys).to.include(EDGE).and.not.include(PAYMENTS);
      expect(t.moves).to.include(`invoke:${EDGE}`).and.include('explain').and.not.include('ledger:read');
      expect(Date.parse(t.expires_at) - Date.now()).to.be.within(3500_000, 3600_000);
      for (const url of Object.values(t.next).filter((u) => !u.endsWith('/api/proven-work'))) expect(url).to.contain(`share=${encodeURIComponent(t.token)}`);
      const explained = (await http.get(new URL(t.next['explain']!).pathname + new URL(t.next['explain']!).search).expect(200)).body;
      expect(explained).to.include({ ok: true, credential: 'token', fingerprint: t.fingerprint, purpose: 'start' });
    });

    it('runs by GET invoke with share=, and by POST with a Bearer token; the run carries the fingerprint', async () => {
      const t = await start();
      const byGet = await http.get(`/api/dispatch?invoke=${EDGE}&body=${edgeBody}&share=${encodeURIComponent(t.token)}`).expect(200);
      expect(byGet.body).to.have.all.keys('ok', 'result', 'invocation', 'yield', '_self');
      expect(byGet.body.invocation).to.include({ key: EDGE, fingerprint: t.fingerprint, actor: `token:${t.fingerprint}` });
      expect(byGet.body._self.run_now).to.contain(`share=${encodeURIComponent(t.token)}`);
      const byPost = await http.post('/api/dispatch').set('authorization', `Bearer ${t.token}`).send({ key: EDGE, body: { workerId: WORKER } }).expect(200);
      expect(byPost.body.invocation.fingerprint).to.equal(t.fingerprint);
      // Its own receipt, yes; the owner's, no.
      await http.get(`/api/dispatch?receipt=${byGet.body.invocation.id}&share=${encodeURIComponent(t.token)}`).expect(200);
      const theirs = (await owner(http.post('/api/dispatch')).send({ key: EDGE, body: { workerId: WORKER } }).expect(200)).body.invocation.id;
      expect((await http.get(`/api/dispatch?receipt=${theirs}&share=${encodeURIComponent(t.token)}`).expect(404)).body.error.code).to.equal('invocation_not_found');
    });

    it('self_scope cuts the listed keys from the public set and lists the rest as refused', async () => {
      const res = (await http.get(`/api/dispatch?self_scope=1&keys=${EDGE},${PAYMENTS},NO_SUCH_KEY&purpose=nightly&actor=bot-1`).expect(200)).body;
      expect(res.granted).to.deep.equal([EDGE]);
      expect(res.refused.map((r: { key: string; reason: string }) => [r.key, r.reason])).to.deep.equal([[PAYMENTS, 'auth_required'], ['NO_SUCH_KEY', 'unknown']]);
      expect(res.refused[0]).to.not.have.property('did_you_mean');
      expect(res).to.include({ actor: 'bot-1', purpose: 'nightly' });
      const none = await http.get(`/api/dispatch?self_scope=1&keys=${PAYMENTS}`).expect(403);
      expect(none.body.error.code).to.equal('scope_denied');
    });

    it('self_scope: no keys is 400 invalid_request; an unknown key is refused with did_you_mean links', async () => {
      for (const path of ['/api/dispatch?self_scope=1', '/api/dispatch?self_scope=1&keys=', '/api/dispatch?self_scope=1&keys=,,']) {
        const res = await http.get(path).expect(400);
        expect(res.body.error.code, path).to.equal('invalid_request');
        expect(res.body.error.message, path).to.contain('keys=');
      }
      const typo = EDGE.slice(0, -2);
      const res = (await http.get(`/api/dispatch?self_scope=1&keys=${EDGE},${typo}`).expect(200)).body;
      const refused = res.refused.find((r: { key: string }) => r.key === typo);
      expect(refused.reason).to.equal('unknown');
      expect(refused.did_you_mean[0].key).to.equal(EDGE);
      expect(refused.did_you_mean[0].contract).to.match(new RegExp(`/api/dispatch\\?key=${EDGE}$`));
      // All refused: the 403 lists them the same way.
      const all = (await http.get(`/api/dispatch?self_scope=1&keys=${typo}`).expect(403)).body.error;
      expect(all.refused[0].did_you_mean[0].key).to.equal(EDGE);
    });

    it('explain without a token answers 200 and describes the public credential', async () => {
      const res = (await http.get('/api/dispatch?explain=1').expect(200)).body;
      expect(res).to.include({ ok: true, credential: 'public' });
      expect(res.moves).to.deep.equal(['contract:read', 'confirm:read']);
      expect(res.start).to.match(/\/start$/);
    });

    it('narrow=1: without a parent, invoke-only and single use; with one, parent ∩ keys', async () => {
      const single = (await http.get(`/api/dispatch?self_scope=1&keys=${EDGE}&narrow=1`).expect(200)).body;
      expect(single.moves).to.deep.equal([`invoke:${EDGE}`]);
      expect(single.uses).to.equal(1);
      expect(Date.parse(single.expires_at) - Date.now()).to.be.at.most(600_000);
      const share = encodeURIComponent(single.token);
      await http.get(`/api/dispatch?invoke=${EDGE}&body=${edgeBody}&share=${share}`).expect(200);
      const again = await http.get(`/api/dispatch?invoke=${EDGE}&body=${edgeBody}&share=${share}`).expect(403);
      expect(again.body.error).to.include({ code: 'scope_denied', needed: `invoke:${EDGE}` });
      expect((await http.get(`/api/dispatch?explain=1&share=${share}`).expect(403)).body.error.needed).to.equal('explain');

      const parent = await start();
      const child = (await http.get(`/api/dispatch?self_scope=1&keys=${GROUP},${PAYMENTS}&narrow=1&share=${encodeURIComponent(parent.token)}`).expect(200)).body;
      expect(child.keys).to.deep.equal([GROUP]);
      expect(child.narrowed_from).to.equal(parent.fingerprint);
      expect(child.fingerprint, 'a narrowed token is the same token, narrower').to.equal(parent.fingerprint);
      expect((await http.get(`/api/dispatch?invoke=${EDGE}&body=${edgeBody}&share=${encodeURIComponent(child.token)}`).expect(403)).body.error.code).to.equal('scope_denied');
    });

    it('narrowing offline (no server) gives a token that is denied outside its caveats', async () => {
      const t = await start();
      const narrowed = narrowToken(t.token, { keys: [GROUP] });
      const denied = await http.get(`/api/dispatch?invoke=${EDGE}&body=${edgeBody}&share=${encodeURIComponent(narrowed)}`).expect(403);
      expect(denied.body.error).to.deep.include({ code: 'scope_denied', needed: `invoke:${EDGE}` });
      expect(denied.body.error.allowed).to.include(`invoke:${GROUP}`).and.not.include(`invoke:${EDGE}`);
    });

    it('reports token_corrupted and token_expired, and never falls back to the public credential', async () => {
      const t = await start();
      const corrupted = t.token.slice(0, -3) + (t.token.endsWith('AAA') ? 'BBB' : 'AAA');
      for (const path of [`/api/dispatch?key=${EDGE}`, '/api/proven-work', `/api/dispatch?explain=1`]) {
        const sep = path.includes('?') ? '&' : '?';
        expect((await http.get(`${path}${sep}share=${encodeURIComponent(corrupted)}`).expect(401)).body.error.code, path).to.equal('token_corrupted');
      }
      const short = (await owner(http.post('/api/tokens')).send({ moves: ['contract:read'], expires_in_s: 1 }).expect(201)).body.token;
      await sleep(1100);
      expect((await http.get(`/api/dispatch?key=${EDGE}&share=${encodeURIComponent(short)}`).expect(401)).body.error.code).to.equal('token_expired');
    });

    it('writes every use, allowed or denied, to the ledger under the fingerprint, publicly provable', async () => {
      const t = await start();
      const share = encodeURIComponent(t.token);
      await http.get(`/api/dispatch?key=${EDGE}&share=${share}`).expect(200);
      await http.get(`/api/dispatch?invoke=${PAYMENTS}&body=%7B%7D&share=${share}`).expect(403);
      const uses = await svc.switchyard.container.getAsync<import('@switchyard/core').TokenUseStore>(Symbol.for('switchyard.TokenUseStore'));
      const listed = await uses.list(t.fingerprint, 10);
      expect(listed.map((u) => [u.move, u.outcome])).to.deep.equal([[`invoke:${PAYMENTS}`, 'denied'], ['contract:read', 'allowed']]);
      expect(listed.every((u) => !u.route.includes('sy1.')), 'the route never records the token').to.equal(true);
      let leaf;
      for (let i = 0; i < 100 && !leaf; i++) {
        const page = (await http.get('/api/proven-work?limit=1000').expect(200)).body;
        leaf = page.leaves.find((l: { kind: string; id: string }) => l.kind === 'token_use' && l.id === listed[0]!.id);
        if (!leaf) await sleep(50);
      }
      expect(JSON.parse(leaf.leaf)).to.include({ kind: 'token_use', fingerprint: t.fingerprint, move: `invoke:${PAYMENTS}`, outcome: 'denied' });
    });

    it('lets an observer into a known workspace, read-only; other roles need the owner', async () => {
      const obs = (await http.get('/api/workspace/default/enter?role=observer&actor=auditor').expect(200)).body;
      expect(obs.moves).to.include('ledger:read').and.not.include(`invoke:${EDGE}`);
      expect(obs).to.include({ workspace: 'default', role: 'observer', actor: 'auditor' });
      await http.get(`/api/invocations?object_id=${EDGE}&share=${encodeURIComponent(obs.token)}`).expect(200);
      expect((await http.get('/api/workspace/nope/enter?role=observer').expect(404)).body.error.code).to.equal('not_found');
      expect((await http.get('/api/workspace/default/enter?role=operator').expect(401)).body.error.code).to.equal('credential_required');
      const op = (await owner(http.get('/api/workspace/default/enter?role=operator')).expect(200)).body;
      expect(op.role).to.equal('operator');
    });

    it('refuses bad owner mint requests with 400, minting nothing', async () => {
      await owner(http.post('/api/tokens')).send({ moves: ['admin'] }).expect(400);
      await owner(http.post('/api/tokens')).send({ moves: ['explain'], expires_in_s: 0 }).expect(400);
      await owner(http.post('/api/tokens')).send({ moves: ['explain'], extra: 1 }).expect(400);
      await http.post('/api/tokens').send({ moves: ['explain'] }).expect(401);
      const t = await start();
      expect((await http.post('/api/tokens').set('authorization', `Bearer ${t.token}`).send({ moves: ['explain'] }).expect(403)).body.error.needed).to.equal('token:mint');
    });

    describe('scope matrix: every route × every credential', () => {
      const creds: Record<string, () => Promise<(r: request.Test) => request.Test>> = {};
      let ownRun = '';
      const withToken = (token: string) => (r: request.Test) => r.set('authorization', `Bearer ${token}`);
      before(async () => {
        ownRun = (await owner(http.post('/api/dispatch')).send({ key: EDGE, body: { workerId: WORKER } }).expect(200)).body.invocation.id;
        const startT = (await start()).token;
        const otherKeys = (await http.get(`/api/dispatch?self_scope=1&keys=${GROUP}`).expect(200)).body.token;
        const narrowed = narrowToken(startT, { moves: ['invoke:*'], keys: [EDGE] });
        const expired = (await owner(http.post('/api/tokens')).send({ moves: ['contract:read', 'confirm:read', 'explain', 'invoke:*', 'ledger:read', 'receipt:read'], expires_in_s: 1 }).expect(201)).body.token;
        const observer = (await http.get('/api/workspace/default/enter?role=observer').expect(200)).body.token;
        await sleep(1100);
        const corrupted = startT.slice(0, -3) + (startT.endsWith('AAA') ? 'BBB' : 'AAA');
        Object.assign(creds, {
          none: async () => (r: request.Test) => r,
          start: async () => withToken(startT),
          'self-scoped other keys': async () => withToken(otherKeys),
          narrowed: async () => withToken(narrowed),
          expired: async () => withToken(expired),
          corrupted: async () => withToken(corrupted),
          observer: async () => withToken(observer),
          'API key': async () => owner,
        });
      });

      type Route = { name: string; go: (h: ReturnType<typeof request>) => request.Test };
      const routes: Route[] = [
        { name: 'contract', go: (h) => h.get(`/api/dispatch?key=${EDGE}`) },
        { name: 'confirm', go: (h) => h.get(`/api/dispatch?confirm=${ownRun}`) },
        { name: 'receipt (the owner\'s run)', go: (h) => h.get(`/api/dispatch?receipt=${ownRun}`) },
        { name: 'explain', go: (h) => h.get('/api/dispatch?explain=1') },
        { name: 'invoke EDGE', go: (h) => h.get(`/api/dispatch?invoke=${EDGE}&body=${edgeBody}`) },
        { name: 'invoke PAYMENTS', go: (h) => h.get(`/api/dispatch?invoke=${PAYMENTS}&body=${encodeURIComponent('{"query":"refund"}')}`) },
        { name: 'invocations', go: (h) => h.get(`/api/invocations?object_id=${EDGE}`) },
        { name: 'deliveries', go: (h) => h.get('/api/ledger?event=webhook%20delivery') },
        { name: 'webhooks', go: (h) => h.get('/api/objects/webhook') },
        { name: 'mint', go: (h) => h.post('/api/tokens').send({ moves: ['explain'] }) },
        { name: 'proven-work', go: (h) => h.get('/api/proven-work') },
        { name: 'ask', go: (h) => h.get('/api/dispatch?ask=set%20the%20active%20worker') },
        { name: 'build', go: (h) => h.get('/api/dispatch?build=1') },
        { name: 'protocol spec', go: (h) => h.get('/api/workspace') },
        { name: 'upstreams', go: (h) => h.get('/api/upstreams') },
        { name: 'route EDGE tag', go: (h) => h.post('/api/route').send({ text: `[${EDGE}]{"workerId":"${WORKER}"}[/${EDGE}]` }) },
        // Only the API key publishes (once: the slug is then taken).
        { name: 'publish article', go: (h) => h.post('/api/articles').send({ slug: 'matrix-article', title: 'Matrix', tags: ['matrix'], date: '2026-11-23', summary: 'From the scope matrix.', body: 'Hello.' }) },
        // Pages are public reads that resolve no credential: the same page for every reader.
        { name: 'tag page', go: (h) => h.get('/tags/getting-started') },
        { name: 'mcp tools/list', go: (h) => h.post('/mcp').set('accept', 'application/json, text/event-stream').send({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) },
      ];
      // [status, code] per credential, in the order of `routes`. 0 means "any 2xx".
      const T = (s: number, code?: string) => [s, code] as const;
      const ok = T(200);
      const expected: Record<string, ReadonlyArray<readonly [number, string | undefined]>> = {
        none: [ok, ok, T(401, 'credential_required'), ok, T(401, 'credential_required'), T(401, 'credential_required'), T(401, 'credential_required'), T(401, 'credential_required'), T(401, 'credential_required'), T(401, 'credential_required'), ok, ok, ok, ok, T(401, 'credential_required'), T(401, 'credential_required'), T(401, 'credential_required'), ok, T(401, 'credential_required')],
        start: [ok, ok, T(404, 'invocation_not_found'), ok, ok, T(403, 'scope_denied'), T(403, 'scope_denied'), T(403, 'scope_denied'), T(403, 'scope_denied'), T(403, 'scope_denied'), ok, ok, ok, ok, T(403, 'scope_denied'), ok, T(403, 'scope_denied'), ok, ok],
        'self-scoped other keys': [ok, ok, T(404, 'invocation_not_found'), ok, T(403, 'scope_denied'), T(403, 'scope_denied'), T(403, 'scope_denied'), T(403, 'scope_denied'), T(403, 'scope_denied'), T(403, 'scope_denied'), ok, ok, ok, ok, T(403, 'scope_denied'), T(200, 'scope_denied'), T(403, 'scope_denied'), ok, ok],
        narrowed: [T(403, 'scope_denied'), T(403, 'scope_denied'), T(403, 'scope_denied'), T(403, 'scope_denied'), ok, T(403, 'scope_denied'), T(403, 'scope_denied'), T(403, 'scope_denied'), T(403, 'scope_denied'), T(403, 'scope_denied'), T(403, 'scope_denied'), T(403, 'scope_denied'), T(403, 'scope_denied'), T(403, 'scope_denied'), T(403, 'scope_denied'), ok, T(403, 'scope_denied'), ok, ok],
        expired: routes.map((r) => (r.name === 'tag page' ? ok : T(401, 'token_expired'))),
        corrupted: routes.map((r) => (r.name === 'tag page' ? ok : T(401, 'token_corrupted'))),
        observer: [ok, ok, T(403, 'scope_denied'), ok, T(403, 'scope_denied'), T(403, 'scope_denied'), ok, T(403, 'scope_denied'), T(403, 'scope_denied'), T(403, 'scope_denied'), ok, ok, ok, ok, T(403, 'scope_denied'), T(200, 'scope_denied'), T(403, 'scope_denied'), ok, ok],
        // PAYMENTS needs approval: the owner's run waits for it (202, awaiting_approval).
        'API key': [ok, ok, ok, ok, ok, T(202, 'approval_required'), ok, ok, ok, T(201), ok, ok, ok, ok, ok, ok, T(201), ok, ok],
      };

      for (const [credName, outcomes] of Object.entries(expected)) {
        it(`${credName}: exactly the expected outcome on every route`, async () => {
          const as = await creds[credName]!();
          const got: string[] = [];
          const want: string[] = [];
          for (const [i, route] of routes.entries()) {
            const res = await as(route.go(http));
            const [status, code] = outcomes[i]!;
            got.push(`${route.name}: ${res.status} ${res.body?.error?.code ?? res.body?.invocation?.error?.code ?? res.body?.runs?.[0]?.error?.code ?? ''}`.trim());
            want.push(`${route.name}: ${status} ${code ?? ''}`.trim());
          }
          expect(got).to.deep.equal(want);
        });
      }
    });
  });
}

describe('HTTP share tokens: keyless minting is rate limited per client', function () {
  this.timeout(20_000);
  it('answers 429 rate_limited with Retry-After past the limit, and minted nothing more', async () => {
    const svc = await startTestService('sqlite', { tokens: { mintPerMinute: 3 } });
    try {
      const http = request(svc.switchyard.app);
      for (let i = 0; i < 3; i++) await http.get('/start').expect(200);
      const limited = await http.get('/start').expect(429);
      expect(limited.body.error.code).to.equal('rate_limited');
      expect(Number(limited.headers['retry-after'])).to.be.within(1, 60);
      expect((await http.get('/api/dispatch?self_scope=1&keys=WEB_FETCH').expect(429)).body.error.code).to.equal('rate_limited');
    } finally {
      await svc.close();
    }
  });
});
