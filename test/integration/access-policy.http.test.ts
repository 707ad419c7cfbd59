// The access policy through HTTP, on each engine: what others' records show, who may replay and
// repair, receipts of narrowed tokens, reserved actors, bad credentials on self_scope, malformed
// caveats and narrowing, and the ownership matrix: every object route × every credential × (its own
// object, someone else's) with the exact outcome.
import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import request from 'supertest';
import { narrowToken } from '@switchyard/core';
import { TEST_API_KEY, engines, startTestService, type TestService } from '../support/app.js';

const EDGE = 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER';
const GROUP = 'MESSAGING_UPDATE_GROUP';
const WORKER = '0123456789abcdef0123456789abcdef';
const SECRET_WORKER = 'feedfacefeedfacefeedfacefeedface';
const edgeOk = { workerId: WORKER };
const edgeBad = { workerId: 'not-hex' };
const groupOk = { group_id: 'grp_6a2d8c5f90', name: 'Board' };
const groupBad = {};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const PRIVATE_FIELDS = ['actor', 'args', 'body', 'result', 'source', 'error', 'yield', 'request_id'];

/** Appends a raw caveat the way an offline tool could: signed onto the chain, unchecked. */
function appendRaw(token: string, raw: string): string {
  const [, payload, sig] = token.split('.');
  const body = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as { c: string[] };
  const next = createHmac('sha256', Buffer.from(sig!, 'base64url')).update(raw).digest();
  return `sy1.${Buffer.from(JSON.stringify({ ...body, c: [...body.c, raw] })).toString('base64url')}.${next.toString('base64url')}`;
}

for (const engine of engines()) {
  describe(`HTTP access policy (${engine})`, function () {
    this.timeout(30_000);
    let svc: TestService;
    let http: ReturnType<typeof request>;
    const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);
    const bearer = (token: string) => (r: request.Test) => r.set('authorization', `Bearer ${token}`);
    const start = async (query = '') => (await http.get(`/start${query}`).expect(200)).body as { token: string; fingerprint: string };
    const observer = async () => (await http.get('/api/workspace/default/enter?role=observer').expect(200)).body.token as string;
    const run = async (as: (r: request.Test) => request.Test, key: string, body: unknown) => (await as(http.post('/api/dispatch')).send({ key, body })).body.invocation as { id: string; fingerprint: string | null; actor: string };
    const countOf = async (key: string) => (await owner(http.get(`/api/invocations?object_id=${key}&limit=1000`)).expect(200)).body.items.length as number;

    before(async () => {
      svc = await startTestService(engine, { tokens: { mintPerMinute: 1000 } });
      http = request(svc.switchyard.app);
    });
    after(async () => svc?.close());

    it('takes the owner\'s API key as a Bearer too (never in share=); a wrong one is still token_corrupted', async () => {
      // Owner-only moves (upstream management) and a run recorded as the owner's.
      expect((await bearer(TEST_API_KEY)(http.get('/api/upstreams')).expect(200)).body).to.have.property('items');
      const ran = await run(bearer(TEST_API_KEY), EDGE, edgeOk);
      expect(ran.fingerprint).to.equal(null);
      const inUrl = await http.get(`/api/upstreams?share=${encodeURIComponent(TEST_API_KEY)}`).expect(401);
      expect(inUrl.body.error.code).to.equal('token_corrupted');
      const wrong = await bearer(`${TEST_API_KEY}x`)(http.get('/api/upstreams')).expect(401);
      expect(wrong.body.error.code).to.equal('token_corrupted');
      // Both ways at once must agree, as share= and a Bearer token must.
      expect((await owner(bearer(TEST_API_KEY)(http.get('/api/upstreams'))).expect(200)).body).to.have.property('items');
    });

    it('an observer sees only the public (leaf) fields of others\' runs: no arguments, results, actors or webhook addresses', async () => {
      const hook = (await owner(http.post('/api/objects/webhook')).send({ name: 'edge-actions' }).expect(201)).body.id as string;
      const byHook = (await http.post(`/hook/${hook}/${EDGE}`).send({ workerId: SECRET_WORKER }).expect(200)).body.invocation.id as string;
      await run(owner, EDGE, { workerId: SECRET_WORKER });
      const obs = await observer();
      const listed = (await bearer(obs)(http.get(`/api/invocations?object_id=${EDGE}&limit=1000`)).expect(200)).body;
      expect(listed.items.length).to.be.greaterThan(1);
      for (const item of listed.items) {
        for (const field of PRIVATE_FIELDS) expect(item, field).to.not.have.property(field);
        expect(item).to.include.keys('id', 'key', 'status', 'ok', 'ran', 'fingerprint', 'created_at', 'withheld');
      }
      const text = JSON.stringify(listed);
      expect(text, 'the webhook address is its secret').to.not.contain(hook);
      expect(text).to.not.contain(SECRET_WORKER);
      const one = (await bearer(obs)(http.get(`/api/invocations/${byHook}`)).expect(200)).body.invocation;
      expect(one).to.not.have.property('source');
      expect(JSON.stringify(one)).to.not.contain(hook);
      // The owner still sees every record whole.
      const whole = (await owner(http.get(`/api/invocations/${byHook}`)).expect(200)).body.invocation;
      expect(whole).to.include({ actor: `hook:${hook}` });
      expect(whole.args).to.deep.equal({ workerId: SECRET_WORKER });
    });

    it('replay: only the owner and the token family that ran it; anyone else gets 404 and nothing is stored', async () => {
      const ownersRun = await run(owner, EDGE, { workerId: SECRET_WORKER });
      const a = await start();
      const b = await start();
      const aRun = await run(bearer(a.token), EDGE, edgeOk);
      const before = await countOf(EDGE);
      for (const [who, id] of [[b.token, aRun.id], [a.token, ownersRun.id]] as const) {
        const res = await bearer(who)(http.post('/api/dispatch')).send({ replay: id }).expect(404);
        expect(res.body.error.code).to.equal('invocation_not_found');
        expect(JSON.stringify(res.body)).to.not.contain(SECRET_WORKER);
      }
      expect(await countOf(EDGE), 'a refused replay runs nothing and stores nothing').to.equal(before);
      expect((await bearer(a.token)(http.post('/api/dispatch')).send({ replay: aRun.id }).expect(200)).body.invocation.replays).to.equal(aRun.id);
      expect((await owner(http.post('/api/dispatch')).send({ replay: aRun.id }).expect(200)).body.invocation.replays).to.equal(aRun.id);
    });

    it('repair: someone else\'s failure is 404 invocation_not_found; its own is repaired', async () => {
      const a = await start();
      const b = await start();
      const failed = await run(bearer(a.token), EDGE, edgeBad);
      const before = await countOf(EDGE);
      const res = await bearer(b.token)(http.post('/api/dispatch')).send({ key: EDGE, body: edgeOk, repairs: failed.id }).expect(404);
      expect(res.body.error.code).to.equal('invocation_not_found');
      expect(await countOf(EDGE)).to.equal(before);
      expect((await bearer(a.token)(http.post('/api/dispatch')).send({ key: EDGE, body: edgeOk, repairs: failed.id }).expect(200)).body.invocation.repairs).to.equal(failed.id);
    });

    it('a child narrowed to one key reads no receipt of its parent\'s runs on other keys', async () => {
      const parent = await start();
      const edgeRun = await run(bearer(parent.token), EDGE, edgeOk);
      const groupRun = await run(bearer(parent.token), GROUP, groupOk);
      const served = (await http.get(`/api/dispatch?self_scope=1&keys=${GROUP}&narrow=1&share=${encodeURIComponent(parent.token)}`).expect(200)).body.token as string;
      const offline = narrowToken(parent.token, { keys: [GROUP] });
      for (const child of [served, offline]) {
        expect((await bearer(child)(http.get(`/api/dispatch?receipt=${edgeRun.id}`)).expect(404)).body.error.code).to.equal('invocation_not_found');
        expect((await bearer(child)(http.get(`/api/dispatch?receipt=${groupRun.id}`)).expect(200)).body.invocation.id).to.equal(groupRun.id);
      }
      await bearer(parent.token)(http.get(`/api/dispatch?receipt=${edgeRun.id}`)).expect(200);
    });

    it('reserved actor names are refused at every mint and in any caveat; a token\'s actor is shown with its fingerprint', async () => {
      for (const path of ['/start?actor=owner', '/start?actor=hook%3Ahk_abcdefabcdef', '/start?actor=OWNER', '/api/workspace/default/enter?role=observer&actor=system', `/api/dispatch?self_scope=1&keys=${EDGE}&actor=mcp`]) {
        const res = await http.get(path).expect(400);
        expect(res.body.error.code, path).to.equal('invalid_request');
        expect(res.body.error.message, path).to.contain('reserved');
      }
      expect((await owner(http.post('/api/tokens')).send({ moves: ['explain'], actor: 'owner' }).expect(400)).body.error.code).to.equal('invalid_request');
      const plain = await start();
      const posing = narrowToken(plain.token, { actor: 'owner' });
      const before = await countOf(EDGE);
      expect((await bearer(posing)(http.post('/api/dispatch')).send({ key: EDGE, body: edgeOk }).expect(401)).body.error.code).to.equal('token_corrupted');
      expect(await countOf(EDGE)).to.equal(before);

      const alice = await start('?actor=alice');
      const ran = await run(bearer(alice.token), EDGE, edgeOk);
      expect(ran).to.include({ actor: 'alice', fingerprint: alice.fingerprint });
      const login = await http.post('/dashboard/login').type('form').send({ api_key: TEST_API_KEY, next: '/dashboard' }).expect(303);
      const cookie = login.headers['set-cookie']!;
      const page = await http.get(`/dashboard/ledger?key=${EDGE}`).set('cookie', cookie).expect(200);
      expect(page.text).to.contain(`alice (${alice.fingerprint})`);
      const detail = await http.get(`/dashboard/invocations/${ran.id}`).set('cookie', cookie).expect(200);
      expect(detail.text).to.contain(`alice (${alice.fingerprint})`);
    });

    it('actor names are NFKC-normalised; look-alikes of a reserved name and invisible characters are refused at every mint and in any caveat', async () => {
      const lookalikes = ['owner\u200b', '\uff4f\uff57\uff4e\uff45\uff52', '\u202eowner', 'ow\u200dner', 'bot\u0085', 'bot\u{e0001}', 'bot\u0378', 'bot\u2028x'];
      for (const actor of lookalikes) {
        const q = encodeURIComponent(actor);
        for (const path of [`/start?actor=${q}`, `/api/workspace/default/enter?role=observer&actor=${q}`, `/api/dispatch?self_scope=1&keys=${EDGE}&actor=${q}`]) {
          const res = await http.get(path).expect(400);
          expect(res.body.error.code, `${path}`).to.equal('invalid_request');
          expect(res.body.error.message, path).to.match(/reserved|no control, format \(zero-width, bidi\) or unassigned characters/);
        }
        expect((await owner(http.post('/api/tokens')).send({ moves: ['explain'], actor }).expect(400)).body.error.code, JSON.stringify(actor)).to.equal('invalid_request');
        const posing = narrowToken((await start()).token, { actor });
        const before = await countOf(EDGE);
        expect((await bearer(posing)(http.post('/api/dispatch')).send({ key: EDGE, body: edgeOk }).expect(401)).body.error.code, JSON.stringify(actor)).to.equal('token_corrupted');
        expect(await countOf(EDGE)).to.equal(before);
      }
      // The full-width name is the plain one: minted, run and stored in its NFKC form.
      const wide = await start(`?actor=${encodeURIComponent('\uff42\uff4f\uff54-\uff11')}`);
      expect((await run(bearer(wide.token), EDGE, edgeOk)).actor).to.equal('bot-1');
      const narrowed = narrowToken(wide.token, { actor: '\uff4e\uff49\uff47\uff48\uff54' });
      expect((await run(bearer(narrowed), EDGE, edgeOk)).actor).to.equal('bot-1/night');
    });

    it('an actor is at most 200 characters however many caveats stack: token_corrupted for the token, 400 for a parameter', async () => {
      // The finding: 40 actor= caveats of 190 characters stored a 7,716-character actor.
      let stacked = (await start()).token;
      for (let i = 0; i < 40; i++) stacked = narrowToken(stacked, { actor: `${String(i).padStart(2, '0')}${'a'.repeat(188)}` });
      const before = await countOf(EDGE);
      const refused = await bearer(stacked)(http.post('/api/dispatch')).send({ key: EDGE, body: edgeOk }).expect(401);
      expect(refused.body.error.code).to.equal('token_corrupted');
      expect(refused.body.error.message).to.contain('stack to more than 200 characters');
      expect(await countOf(EDGE)).to.equal(before);
      // Two that fit are one name; one character more is refused.
      const parent = await start(`?actor=${'p'.repeat(100)}`);
      expect((await run(bearer(narrowToken(parent.token, { actor: 'c'.repeat(99) })), EDGE, edgeOk)).actor).to.have.length(200);
      await bearer(narrowToken(parent.token, { actor: 'c'.repeat(100) }))(http.post('/api/dispatch')).send({ key: EDGE, body: edgeOk }).expect(401);
      // As a parameter: one actor past 200, or a child's that would stack past 200 under its parent.
      expect((await http.get(`/start?actor=${'a'.repeat(201)}`).expect(400)).body.error.code).to.equal('invalid_request');
      const child = await http.get(`/api/dispatch?self_scope=1&keys=${EDGE}&narrow=1&actor=${'c'.repeat(100)}&share=${encodeURIComponent(parent.token)}`).expect(400);
      expect(child.body.error).to.include({ code: 'invalid_request' });
      expect(child.body.error.message).to.contain('would pass 200 characters');
      await http.get(`/api/dispatch?self_scope=1&keys=${EDGE}&narrow=1&actor=${'c'.repeat(99)}&share=${encodeURIComponent(parent.token)}`).expect(200);
    });

    it('self_scope with an expired, corrupted or spent share= is refused with that error, minting nothing', async () => {
      const t = await start();
      const corrupted = t.token.slice(0, -3) + (t.token.endsWith('AAA') ? 'BBB' : 'AAA');
      const expiring = (await owner(http.post('/api/tokens')).send({ moves: ['invoke:*'], expires_in_s: 1 }).expect(201)).body.token as string;
      const single = (await http.get(`/api/dispatch?self_scope=1&keys=${EDGE}&narrow=1`).expect(200)).body.token as string;
      await http.get(`/api/dispatch?invoke=${EDGE}&body=${encodeURIComponent(JSON.stringify(edgeOk))}&share=${encodeURIComponent(single)}`).expect(200);
      await sleep(1100);
      for (const narrow of ['', '&narrow=1']) {
        const q = (token: string) => `/api/dispatch?self_scope=1&keys=${EDGE}${narrow}&share=${encodeURIComponent(token)}`;
        expect((await http.get(q(corrupted)).expect(401)).body.error.code, `corrupted${narrow}`).to.equal('token_corrupted');
        expect((await http.get(q(expiring)).expect(401)).body.error.code, `expired${narrow}`).to.equal('token_expired');
        const spent = (await http.get(q(single)).expect(403)).body.error;
        expect(spent, `spent${narrow}`).to.include({ code: 'scope_denied', uses: 1 });
      }
      expect((await http.get(`/api/dispatch?self_scope=1&keys=${EDGE}`).set('authorization', `Bearer ${corrupted}`).expect(401)).body.error.code).to.equal('token_corrupted');
      // The other keyless mints too: a credential sent along is never ignored.
      for (const path of ['/start', '/api/workspace/default/enter?role=observer']) {
        const sep = path.includes('?') ? '&' : '?';
        expect((await http.get(`${path}${sep}share=${encodeURIComponent(corrupted)}`).expect(401)).body.error.code, path).to.equal('token_corrupted');
        expect((await http.get(`${path}${sep}share=${encodeURIComponent(expiring)}`).expect(401)).body.error.code, path).to.equal('token_expired');
        expect((await http.get(`${path}${sep}share=${encodeURIComponent(single)}`).expect(403)).body.error.code, path).to.equal('scope_denied');
      }
    });

    // One malformed value per caveat name, appended offline: each is token_corrupted, never a 500.
    const MALFORMED: Record<string, string> = {
      moves: 'moves=%E0%A4%A',
      keys: 'keys=',
      actor: 'actor=owner',
      purpose: 'purpose=%',
      workspace: 'workspace=',
      role: 'role=%ZZ',
      expires: 'expires=',
      uses: 'uses=0',
    };
    it('a malformed value in any caveat is token_corrupted (401) on every kind of route', async () => {
      const t = (await start()).token;
      const routes = ['/api/dispatch?explain=1', `/api/dispatch?key=${EDGE}`, `/api/dispatch?self_scope=1&keys=${EDGE}`, '/api/proven-work'];
      const got: string[] = [];
      const want: string[] = [];
      for (const [name, raw] of Object.entries(MALFORMED)) {
        const bad = appendRaw(t, raw);
        for (const route of routes) {
          const res = await bearer(bad)(http.get(route));
          got.push(`${name} ${route}: ${res.status} ${res.body?.error?.code}`);
          want.push(`${name} ${route}: 401 token_corrupted`);
        }
        const posted = await bearer(bad)(http.post('/api/dispatch')).send({ key: EDGE, body: edgeOk });
        got.push(`${name} POST: ${posted.status} ${posted.body?.error?.code}`);
        want.push(`${name} POST: 401 token_corrupted`);
      }
      expect(got).to.deep.equal(want);
    });

    it('narrowing: purpose and actor refine; a token that could do nothing is refused, never answered ok', async () => {
      const t = await start('?actor=bot-1');
      const child = (await http.get(`/api/dispatch?self_scope=1&keys=${EDGE}&narrow=1&purpose=nightly&actor=night&share=${encodeURIComponent(t.token)}`).expect(200)).body;
      expect(child).to.include({ purpose: 'start › nightly', actor: 'bot-1/night' });
      expect(child.moves).to.include(`invoke:${EDGE}`);
      expect((await run(bearer(child.token), EDGE, edgeOk)).actor).to.equal('bot-1/night');

      // An observer may not invoke: narrowing it to keys leaves nothing to do.
      const obs = await observer();
      const refused = (await http.get(`/api/dispatch?self_scope=1&keys=${EDGE}&narrow=1&share=${encodeURIComponent(obs)}`).expect(403)).body.error;
      expect(refused.code).to.equal('scope_denied');
      expect(refused.refused).to.deep.equal([{ key: EDGE, reason: 'outside_parent' }]);
      // The owner's mint refuses caveats that leave no move.
      for (const body of [{ moves: [] }, { moves: ['invoke:*'], keys: [] }]) {
        expect((await owner(http.post('/api/tokens')).send(body).expect(400)).body.error.code, JSON.stringify(body)).to.equal('invalid_request');
      }
      // Offline, a second workspace can never hold: the token can do nothing, explain included.
      const elsewhere = narrowToken(obs, { workspace: 'elsewhere' });
      const denied = (await bearer(elsewhere)(http.get('/api/dispatch?explain=1')).expect(403)).body.error;
      expect(denied).to.deep.include({ code: 'scope_denied', allowed: [] });
    });

    describe('ownership matrix: every object route × every credential × (its own object, someone else\'s)', () => {
      type As = (r: request.Test) => request.Test;
      type Objects = { key: string; ok: string; failed: string; body: unknown };
      const creds: Record<string, { as: As; own: Objects | null; other: Objects }> = {};

      before(async () => {
        const objects = async (as: As, key: string, body: unknown, bad: unknown): Promise<Objects> => ({ key, body, ok: (await run(as, key, body)).id, failed: (await run(as, key, bad)).id });
        const startT = (await start()).token;
        const groupT = (await http.get(`/api/dispatch?self_scope=1&keys=${GROUP}`).expect(200)).body.token as string;
        const narrowed = narrowToken(startT, { moves: ['invoke:*'], keys: [EDGE] });
        const corrupted = startT.slice(0, -3) + (startT.endsWith('AAA') ? 'BBB' : 'AAA');
        const minted = (await owner(http.post('/api/tokens')).send({ moves: ['invoke:*', 'receipt:read', 'ledger:read'] }).expect(201)).body.token as string;
        const expiresAt = Date.now() + 2000;
        const expiring = (await owner(http.post('/api/tokens')).send({ moves: ['invoke:*', 'receipt:read', 'ledger:read'], expires_in_s: 2 }).expect(201)).body.token as string;
        const expiringOwn = await objects(bearer(expiring), EDGE, edgeOk, edgeBad);
        // Each repair target is repaired at most once, so every pair gets failures of its own.
        const ownersEdge = () => objects(owner, EDGE, edgeOk, edgeBad);
        Object.assign(creds, {
          none: { as: (r: request.Test) => r, own: null, other: await ownersEdge() },
          start: { as: bearer(startT), own: await objects(bearer(startT), EDGE, edgeOk, edgeBad), other: await ownersEdge() },
          'self-scoped other keys': { as: bearer(groupT), own: await objects(bearer(groupT), GROUP, groupOk, groupBad), other: await objects(owner, GROUP, groupOk, groupBad) },
          'narrowed from start': { as: bearer(narrowed), own: await objects(bearer(startT), EDGE, edgeOk, edgeBad), other: await ownersEdge() },
          expired: { as: bearer(expiring), own: expiringOwn, other: await ownersEdge() },
          corrupted: { as: bearer(corrupted), own: await objects(bearer(startT), EDGE, edgeOk, edgeBad), other: await ownersEdge() },
          observer: { as: bearer(await observer()), own: null, other: await ownersEdge() },
          'owner-minted token': { as: bearer(minted), own: await objects(bearer(minted), EDGE, edgeOk, edgeBad), other: await ownersEdge() },
          'API key': { as: owner, own: await ownersEdge(), other: await objects(bearer(await start().then((s) => s.token)), EDGE, edgeOk, edgeBad) },
        });
        await sleep(Math.max(0, expiresAt - Date.now() + 100));
      });

      type Body = { invocation?: { args?: unknown }; items?: Array<{ id: string; args?: unknown }> };
      type Route = { name: string; go: (h: ReturnType<typeof request>, o: Objects) => request.Test; shows?: (body: Body, o: Objects) => string };
      const whole = (inv: { args?: unknown } | undefined) => (inv?.args !== undefined ? 'whole' : 'public');
      const routes: Route[] = [
        { name: 'receipt', go: (h, o) => h.get(`/api/dispatch?receipt=${o.ok}`) },
        { name: 'invocation', go: (h, o) => h.get(`/api/invocations/${o.ok}`), shows: (b) => whole(b.invocation) },
        { name: 'invocations', go: (h, o) => h.get(`/api/invocations?object_id=${o.key}&limit=1000`), shows: (b, o) => whole(b.items?.find((i) => i.id === o.ok)) },
        { name: 'replay', go: (h, o) => h.post('/api/dispatch').send({ replay: o.ok }) },
        { name: 'repair', go: (h, o) => h.post('/api/dispatch').send({ key: o.key, body: o.body, repairs: o.failed }) },
      ];
      const T = (s: number, what = '') => `${s} ${what}`.trim();
      const NA = 'n/a';
      const all = (s: number, code: string) => routes.flatMap(() => [T(s, code), T(s, code)]);
      // Per credential, per route in order: [its own object, someone else's].
      const expected: Record<string, string[]> = {
        none: [NA, T(401, 'credential_required'), NA, T(401, 'credential_required'), NA, T(401, 'credential_required'), NA, T(401, 'credential_required'), NA, T(401, 'credential_required')],
        start: [T(200), T(404, 'invocation_not_found'), T(403, 'scope_denied'), T(403, 'scope_denied'), T(403, 'scope_denied'), T(403, 'scope_denied'), T(200), T(404, 'invocation_not_found'), T(200), T(404, 'invocation_not_found')],
        'self-scoped other keys': [T(200), T(404, 'invocation_not_found'), T(403, 'scope_denied'), T(403, 'scope_denied'), T(403, 'scope_denied'), T(403, 'scope_denied'), T(200), T(404, 'invocation_not_found'), T(200), T(404, 'invocation_not_found')],
        'narrowed from start': [T(403, 'scope_denied'), T(403, 'scope_denied'), T(403, 'scope_denied'), T(403, 'scope_denied'), T(403, 'scope_denied'), T(403, 'scope_denied'), T(200), T(404, 'invocation_not_found'), T(200), T(404, 'invocation_not_found')],
        expired: all(401, 'token_expired'),
        corrupted: all(401, 'token_corrupted'),
        observer: [NA, T(403, 'scope_denied'), NA, T(200, 'public'), NA, T(200, 'public'), NA, T(403, 'scope_denied'), NA, T(403, 'scope_denied')],
        'owner-minted token': [T(200), T(404, 'invocation_not_found'), T(200, 'whole'), T(200, 'public'), T(200, 'whole'), T(200, 'public'), T(200), T(404, 'invocation_not_found'), T(200), T(404, 'invocation_not_found')],
        'API key': [T(200), T(200), T(200, 'whole'), T(200, 'whole'), T(200, 'whole'), T(200, 'whole'), T(200), T(200), T(200), T(200)],
      };

      for (const [credName, outcomes] of Object.entries(expected)) {
        it(`${credName}: exactly the expected outcome on its own and someone else's objects`, async () => {
          const cred = creds[credName]!;
          const got: string[] = [];
          const want: string[] = [];
          let i = 0;
          for (const route of routes) {
            for (const [whose, objects] of [['own', cred.own], ['other', cred.other]] as const) {
              want.push(`${route.name} (${whose}): ${outcomes[i++]}`);
              if (!objects) {
                got.push(`${route.name} (${whose}): ${NA}`);
                continue;
              }
              const res = await cred.as(route.go(http, objects));
              const code = res.body?.error?.code ?? '';
              const shows = res.status === 200 && route.shows ? route.shows(res.body as Body, objects) : '';
              got.push(`${route.name} (${whose}): ${T(res.status, code || shows)}`);
            }
          }
          expect(got).to.deep.equal(want);
        });
      }
    });
  });
}
