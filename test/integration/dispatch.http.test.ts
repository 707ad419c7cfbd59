// POST /api/dispatch and the public reads, through HTTP against the real app, real storage and
// real MCP simulators, on SQLite and (in CI) PostgreSQL.
import { once } from 'node:events';
import { connect, type AddressInfo } from 'node:net';
import { expect } from 'chai';
import request from 'supertest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '@switchyard/app';
import { QUERY_VERBS } from '@switchyard/http-api';
import { TEST_API_KEY, engines, startTestService, type TestService } from '../support/app.js';

const WORKER_A = '0123456789abcdef0123456789abcdef';
const WORKER_B = 'fedcba9876543210fedcba9876543210';
const KEYS = [
  'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER',
  'MESSAGING_BATCH_LOOKUP_PHONE_NUMBERS',
  'MESSAGING_UPDATE_GROUP',
  'PAYMENTS_PROCESSOR_API_SEARCH',
  'WEB_FETCH',
] as const;

describe('GET /api/dispatch query verbs in the docs', () => {
  it('docs/api.md lists exactly the verbs of the table, each with its move', () => {
    const api = readFileSync(join(PROJECT_ROOT, 'docs', 'api.md'), 'utf8');
    const section = api.slice(api.indexOf('### `GET /api/dispatch`'), api.indexOf('An unknown key answers'));
    const rows = [...section.matchAll(/^\| `([a-z_]+)=[^|]*\| ([^|]+) \|/gm)].map((m) => ({ verb: m[1]!, move: m[2]!.trim() }));
    expect([...new Set(rows.map((r) => r.verb))].sort()).to.deep.equal([...QUERY_VERBS].sort());
    for (const row of rows) expect(row.move, row.verb).to.not.equal('');
  });
});

for (const engine of engines()) {
  describe(`HTTP dispatch (${engine})`, function () {
    let svc: TestService;
    let http: ReturnType<typeof request>;
    const run = (payload: unknown) => http.post('/api/dispatch').set('x-sheets-key', TEST_API_KEY).send(payload as object);
    const count = async (key: string) =>
      (await http.get(`/api/invocations?object_id=${key}&limit=1000`).set('x-sheets-key', TEST_API_KEY).expect(200)).body.items.length as number;

    before(async function () {
      svc = await startTestService(engine);
      http = request(svc.switchyard.app);
    });
    after(async () => svc?.close());

    describe('public reads', () => {
      it('answers /healthz with the engine', async () => {
        const res = await http.get('/healthz').expect(200);
        expect(res.body).to.deep.include({ ok: true, capabilities: 5 });
        expect(res.body.database).to.deep.equal({ ok: true, engine: engine === 'sqlite' ? 'sqlite' : 'postgresql', reads: true, write: { ok: true } });
      });

      it('lists the five known capabilities in the registry, self-describing, with their MCP annotations', async () => {
        const res = await http.get('/api/dispatch?registry=1').expect(200);
        expect(res.body.capabilities.map((c: { key: string }) => c.key)).to.deep.equal(KEYS);
        for (const c of res.body.capabilities) {
          expect(c).to.have.all.keys('key', 'Path', 'Capability', 'run_now', 'Example call', 'type · runner', 'inputs', 'outputs', 'auth · risk', 'From the router', 'annotations');
        }
        const edge = res.body.capabilities[0];
        expect(edge.Path).to.equal('OIP > EDGE > EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER');
        expect(edge.inputs.$schema).to.equal('http://json-schema.org/draft-07/schema#');
        expect(edge['type · runner']).to.equal('tool · edge builds');
        expect(edge.Capability).to.match(/tool server: http:\/\/127\.0\.0\.1:\d+\//);
        const payments = res.body.capabilities.find((c: { key: string }) => c.key === 'PAYMENTS_PROCESSOR_API_SEARCH');
        expect(payments['auth · risk']).to.equal('required · high · approval required');
      });

      it('serves each contract as JSON and as markdown, without a credential', async () => {
        for (const key of KEYS) {
          const json = await http.get(`/api/dispatch?key=${key}`).expect(200);
          expect(json.body.contract.key).to.equal(key);
          const md = await http.get(`/api/dispatch?key=${key}&format=markdown`).expect(200);
          expect(md.headers['content-type']).to.match(/^text\/markdown/);
          expect(md.text).to.contain(`# ${key}`).and.contain('| run_now |').and.contain('## inputs');
        }
      });

      it('answers an unknown key with 404 unknown_capability and did_you_mean links', async () => {
        const res = await http.get('/api/dispatch?key=MESSAGING_UPDATE_GROUPS').expect(404);
        expect(res.body.ok).to.equal(false);
        expect(res.body.error.code).to.equal('unknown_capability');
        expect(res.body.error.did_you_mean[0].key).to.equal('MESSAGING_UPDATE_GROUP');
        expect(res.body.error.did_you_mean[0].contract).to.match(/\/api\/dispatch\?key=MESSAGING_UPDATE_GROUP$/);
      });

      it('takes exactly one query verb: any two are 400 invalid_request naming both, and nothing runs', async () => {
        const values: Record<string, string> = {
          invoke: `${KEYS[0]}&body=${encodeURIComponent(JSON.stringify({ workerId: WORKER_A }))}`,
          key: KEYS[0], confirm: 'inv_doesnotexist00000000', receipt: 'inv_doesnotexist00000000', map: '1',
          registry: '1', ask: 'edge', build: '1', explain: '1', self_scope: `1&keys=${KEYS[0]}`,
        };
        const verbs = Object.keys(values);
        const before = await count(KEYS[0]);
        let pairs = 0;
        for (const [i, a] of verbs.entries()) {
          for (const b of verbs.slice(i + 1)) {
            const res = await http.get(`/api/dispatch?${a}=${values[a]}&${b}=${values[b]}`).set('x-sheets-key', TEST_API_KEY).expect(400);
            expect(res.body.error).to.include({ code: 'invalid_request' });
            expect(res.body.error.verbs, `${a} + ${b}`).to.deep.equal([a, b]);
            expect(res.body.error.message).to.contain(a).and.contain(b);
            pairs += 1;
          }
        }
        expect(pairs).to.equal(45);
        expect(await count(KEYS[0])).to.equal(before);
        // Each verb alone is answered (none of them is the "no verb" or "two verbs" 400).
        for (const verb of verbs) {
          const res = await http.get(`/api/dispatch?${verb}=${values[verb]}`).set('x-sheets-key', TEST_API_KEY);
          expect(res.body.error?.verbs, verb).to.equal(undefined);
          expect(res.body.error?.queries, verb).to.equal(undefined);
        }
      });

      it('renders the root map and system articles as markdown', async () => {
        const root = await http.get('/api/dispatch?map=1&format=markdown').expect(200);
        expect(root.text).to.match(/^# OIP/).and.contain('- EDGE').and.contain('MESSAGING_UPDATE_GROUP');
        for (const system of ['EDGE', 'MESSAGING', 'PAYMENTS']) {
          const article = await http.get(`/api/dispatch?map=${system}&format=markdown`).expect(200);
          expect(article.text).to.match(new RegExp(`^# ${system}`));
        }
        const unknown = await http.get('/api/dispatch?map=NOPE&format=markdown').expect(404);
        expect(unknown.body.error.code).to.equal('unknown_system');
      });

      it('refuses a GET with no known query as invalid_request', async () => {
        const res = await http.get('/api/dispatch').expect(400);
        expect(res.body.error.code).to.equal('invalid_request');
      });
    });

    describe('running', () => {
      it('runs EDGE over SSE and answers exactly { ok, result, invocation, yield, _self }', async () => {
        const first = await run({ key: KEYS[0], body: JSON.stringify({ workerId: WORKER_A }) }).expect(200);
        expect(first.body).to.have.all.keys('ok', 'result', 'invocation', 'yield', '_self');
        expect(first.body.ok).to.equal(true);
        expect(first.body.result.active_worker_id).to.equal(WORKER_A);
        const second = await run({ key: KEYS[0], body: JSON.stringify({ workerId: WORKER_B }) }).expect(200);
        expect(second.body.result.active_worker_id).to.equal(WORKER_B);
        expect(second.body.result.previous_worker_id).to.equal(WORKER_A);
        expect(second.body.invocation).to.include({ key: KEYS[0], status: 'ok', ran: true, actor: 'owner' });
        expect(second.body.yield.material).to.be.greaterThan(0);
        expect(second.body._self.Path).to.equal(`OIP > EDGE > ${KEYS[0]}`);
      });

      it('runs MESSAGING phone lookups (streamable HTTP, /v4/) with country and type', async () => {
        const res = await run({ key: 'MESSAGING_BATCH_LOOKUP_PHONE_NUMBERS', body: { numbers: ['+14155552671', '+447400123456'] } }).expect(200);
        expect(res.body.ok).to.equal(true);
        expect(JSON.stringify(res.body.result)).to.contain('US').and.contain('GB');
        expect(res.body._self.Capability).to.contain('/v4/');
      });

      const invalid: [string, string, unknown][] = [
        ['EDGE workerId missing', KEYS[0], {}],
        ['EDGE workerId not 32 hex', KEYS[0], { workerId: 'xyz' }],
        ['EDGE workerId a number', KEYS[0], { workerId: 12 }],
        ['group_id without grp_', 'MESSAGING_UPDATE_GROUP', { group_id: 'abc', name: 'x' }],
        ['group name missing', 'MESSAGING_UPDATE_GROUP', { group_id: 'grp_abc' }],
        ['extra property on update group', 'MESSAGING_UPDATE_GROUP', { group_id: 'grp_abc', name: 'x', extra: true }],
        ['numbers not E.164', 'MESSAGING_BATCH_LOOKUP_PHONE_NUMBERS', { numbers: ['4155552671'] }],
        ['101 numbers', 'MESSAGING_BATCH_LOOKUP_PHONE_NUMBERS', { numbers: Array.from({ length: 101 }, (_, i) => `+1415555${String(i).padStart(4, '0')}`) }],
        ['numbers not an array', 'MESSAGING_BATCH_LOOKUP_PHONE_NUMBERS', { numbers: '+14155552671' }],
        ['extra property on lookup', 'MESSAGING_BATCH_LOOKUP_PHONE_NUMBERS', { numbers: ['+14155552671'], plan: 'x' }],
        ['body not JSON', KEYS[0], '{"workerId":'],
        ['body a number', KEYS[0], 12],
      ];
      for (const [name, key, body] of invalid) {
        it(`answers ${name} with 422 invalid_arguments, ledgered as failed`, async () => {
          const before = await count(key);
          const res = await run({ key, body }).expect(422);
          expect(res.body).to.have.all.keys('ok', 'error', 'result', 'invocation', 'yield', '_self');
          expect(res.body.ok).to.equal(false);
          expect(res.body.error).to.deep.equal(res.body.invocation.error);
          expect(res.body.invocation.error.code).to.equal('invalid_arguments');
          expect(res.body.invocation).to.include({ ran: false, status: 'failed' });
          expect(await count(key)).to.equal(before + 1);
        });
      }

      it('repairs a failed invocation and derives repaired_by', async () => {
        const bad = await run({ key: KEYS[0], body: { workerId: 'nope' } }).expect(422);
        const fixed = await run({ key: KEYS[0], body: { workerId: WORKER_A }, repairs: bad.body.invocation.id }).expect(200);
        expect(fixed.body.invocation.repairs).to.equal(bad.body.invocation.id);
        const read = await http.get(`/api/invocations/${bad.body.invocation.id}`).set('x-sheets-key', TEST_API_KEY).expect(200);
        expect(read.body.invocation.repaired_by).to.deep.equal([fixed.body.invocation.id]);
        const lineage = await http.get(`/api/invocations/${fixed.body.invocation.id}`).set('x-sheets-key', TEST_API_KEY).expect(200);
        expect(lineage.body.lineage.repairs_chain).to.deep.equal([bad.body.invocation.id]);
      });

      it('closes the lineage once a repair succeeds (409 lineage_closed) and keeps the chain linear', async () => {
        const bad = (await run({ key: KEYS[0], body: { workerId: 'nope' } }).expect(422)).body.invocation.id;
        const fix1 = (await run({ key: KEYS[0], body: { workerId: 'still nope' }, repairs: bad }).expect(422)).body.invocation.id;
        let before = await count(KEYS[0]);
        // The failure already has a repair: the next attempt repairs that one, never the failure again.
        const again = await run({ key: KEYS[0], body: { workerId: WORKER_A }, repairs: bad }).expect(422);
        expect(again.body.error).to.include({ code: 'invalid_repair', reason: 'superseded', repairs: bad, repair_instead: fix1 });
        expect(await count(KEYS[0])).to.equal(before);
        // A failed repair may itself be repaired.
        const fix2 = (await run({ key: KEYS[0], body: { workerId: WORKER_A }, repairs: fix1 }).expect(200)).body.invocation.id;
        before = await count(KEYS[0]);
        for (const target of [bad, fix1]) {
          const closed = await run({ key: KEYS[0], body: { workerId: WORKER_B }, repairs: target }).expect(409);
          expect(closed.body.error).to.include({ code: 'lineage_closed', repairs: target, closed_by: fix2 });
          expect(closed.body.error.message).to.contain(fix2);
        }
        expect(await count(KEYS[0])).to.equal(before);
        const read = await http.get(`/api/invocations/${bad}`).set('x-sheets-key', TEST_API_KEY).expect(200);
        expect(read.body.invocation.repaired_by).to.deep.equal([fix1]);
        const tip = await http.get(`/api/invocations/${fix2}`).set('x-sheets-key', TEST_API_KEY).expect(200);
        expect(tip.body.lineage.repairs_chain).to.deep.equal([fix1, bad]);
      });

      it('lets only one of two simultaneous repairs of one failure run', async () => {
        const bad = (await run({ key: KEYS[0], body: { workerId: 'nope' } }).expect(422)).body.invocation.id;
        const answers = await Promise.all([WORKER_A, WORKER_B].map((workerId) => run({ key: KEYS[0], body: { workerId }, repairs: bad })));
        expect(answers.map((a) => a.status).sort()).to.deep.equal([200, 409]);
        const loser = answers.find((a) => a.status !== 200)!;
        const winner = answers.find((a) => a.status === 200)!;
        // Refused while the winner ran, or after it ended (the lineage is read again once reserved).
        expect(loser.body.error.code).to.be.oneOf(['lineage_closed', 'repair_in_progress']);
        expect(loser.body.error[loser.body.error.code === 'lineage_closed' ? 'closed_by' : 'in_progress']).to.be.oneOf([winner.body.invocation.id, null]);
        const read = await http.get(`/api/invocations/${bad}`).set('x-sheets-key', TEST_API_KEY).expect(200);
        expect(read.body.invocation.repaired_by).to.have.length(1);
      });

      it('refuses a repair of a successful invocation (invalid_repair) and ledgers nothing', async () => {
        const good = await run({ key: KEYS[0], body: { workerId: WORKER_A } }).expect(200);
        const before = await count(KEYS[0]);
        const res = await run({ key: KEYS[0], body: { workerId: WORKER_B }, repairs: good.body.invocation.id }).expect(422);
        expect(res.body.error).to.include({ code: 'invalid_repair', reason: 'not_failed' });
        expect(await count(KEYS[0])).to.equal(before);
      });

      it('replays an invocation as a new one pointing at the original', async () => {
        const first = await run({ key: KEYS[0], body: { workerId: WORKER_B } }).expect(200);
        const again = await run({ replay: first.body.invocation.id }).expect(200);
        expect(again.body.invocation.replays).to.equal(first.body.invocation.id);
        expect(again.body.invocation.id).to.not.equal(first.body.invocation.id);
        expect(again.body.result.previous_worker_id).to.equal(WORKER_B);
        await run({ replay: 'inv_doesnotexist00000000' }).expect(404);
      });

      it('holds PAYMENTS (approval required) as awaiting_approval (202) without running it, ledgered', async () => {
        const res = await run({ key: 'PAYMENTS_PROCESSOR_API_SEARCH', body: { query: 'refund a charge' } }).expect(202);
        expect(res.body.ok).to.equal(false);
        expect(res.body.invocation).to.include({ status: 'awaiting_approval', ran: false });
        expect(res.body.invocation.error.code).to.equal('approval_required');
      });

      it('refuses WEB_FETCH to loopback (blocked_address), ledgered', async () => {
        const res = await run({ key: 'WEB_FETCH', body: 'GET|http://127.0.0.1:1/||' }).expect(403);
        expect(res.body.invocation.error.code).to.equal('blocked_address');
      });

      it('answers WEB_FETCH with a malformed URL 422 invalid_arguments, with the API key and keyless, ledgered and never run', async () => {
        const token = (await http.get('/start').expect(200)).body.token as string;
        for (const body of ['GET|http://x%25y/||', 'GET|http://example.com:99999/||', { method: 'GET', url: 'http://x%25y/' }]) {
          const before = await count('WEB_FETCH');
          const keyed = await run({ key: 'WEB_FETCH', body }).expect(422);
          const keyless = await http.get(`/api/dispatch?invoke=WEB_FETCH&body=${encodeURIComponent(typeof body === 'string' ? body : JSON.stringify(body))}&share=${encodeURIComponent(token)}`).expect(422);
          for (const res of [keyed, keyless]) {
            expect(res.body.error).to.include({ code: 'invalid_arguments' });
            expect(res.body.error.errors.map((e: { path: string; keyword: string }) => `${e.path} ${e.keyword}`)).to.deep.equal(['/url format']);
            expect(res.body.invocation).to.include({ status: 'failed', ran: false });
          }
          expect(await count('WEB_FETCH')).to.equal(before + 2);
        }
      });

      it('answers an unknown group as a tool error from the upstream, ledgered and repairable', async () => {
        const res = await run({ key: 'MESSAGING_UPDATE_GROUP', body: { group_id: 'grp_doesnotexist', name: 'x' } }).expect(422);
        expect(res.body.invocation).to.include({ status: 'failed', ran: true });
        expect(res.body.invocation.error.code).to.equal('tool_error');
      });
    });

    describe('bad requests', () => {
      it('needs the API key to run: missing → 401 credential_required, wrong → 401 invalid_api_key', async () => {
        const missing = await http.post('/api/dispatch').send({ key: KEYS[0], body: '{}' }).expect(401);
        expect(missing.body.error.code).to.equal('credential_required');
        const wrong = await http.post('/api/dispatch').set('x-sheets-key', 'sy_wrong').send({ key: KEYS[0], body: '{}' }).expect(401);
        expect(wrong.body.error.code).to.equal('invalid_api_key');
      });

      it('refuses non-JSON (415), no body (400), malformed JSON (400), a non-object (400), unknown fields (400) and an unknown key (404) without ledgering', async () => {
        const before = await count(KEYS[0]);
        await http.post('/api/dispatch').set('x-sheets-key', TEST_API_KEY).set('content-type', 'text/plain').send('hello').expect(415);
        const empty = await http.post('/api/dispatch').set('x-sheets-key', TEST_API_KEY).set('content-type', 'application/json').expect(400);
        expect(empty.body.error).to.include({ code: 'invalid_request' });
        expect(empty.body.error.message).to.match(/no body/);
        // Also when nothing announces a body at all (curl -X POST with no data sends no length).
        const server = svc.switchyard.app.listen(0, '127.0.0.1');
        await once(server, 'listening');
        try {
          const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
          socket.end(`POST /api/dispatch HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nx-sheets-key: ${TEST_API_KEY}\r\nConnection: close\r\n\r\n`);
          let answer = '';
          for await (const chunk of socket) answer += String(chunk);
          expect(answer).to.match(/^HTTP\/1\.1 400 /);
          expect(answer).to.include('"code":"invalid_request"');
        } finally {
          server.close();
        }
        const malformed = await http.post('/api/dispatch').set('x-sheets-key', TEST_API_KEY).set('content-type', 'application/json').send('{"key":').expect(400);
        expect(malformed.body.error.code).to.equal('invalid_request');
        await run([1, 2]).expect(400);
        await run({ key: KEYS[0], body: '{}', surprise: 1 }).expect(400);
        const unknown = await run({ key: 'EDGE_SET_WORKER', body: '{}' }).expect(404);
        expect(unknown.body.error.did_you_mean.map((d: { key: string }) => d.key)).to.include(KEYS[0]);
        expect(await count(KEYS[0])).to.equal(before);
      });

      it('refuses an oversized request with 413 payload_too_large and keeps serving', async () => {
        const huge = JSON.stringify({ key: KEYS[0], body: 'x'.repeat(1024 * 1024 + 10) });
        const res = await http.post('/api/dispatch').set('x-sheets-key', TEST_API_KEY).set('content-type', 'application/json').send(huge).expect(413);
        expect(res.body.error.code).to.equal('payload_too_large');
        await http.get('/healthz').expect(200);
      });

      it('needs the API key to read the ledger, and validates paging', async () => {
        await http.get(`/api/invocations?object_id=${KEYS[0]}`).expect(401);
        await http.get(`/api/invocations?object_id=${KEYS[0]}&limit=0`).set('x-sheets-key', TEST_API_KEY).expect(400);
        await http.get(`/api/invocations?object_id=${KEYS[0]}&limit=abc`).set('x-sheets-key', TEST_API_KEY).expect(400);
        // Any letter case names a key (lower is LOWER); what is not key-shaped is refused.
        await http.get('/api/invocations?object_id=not-a-key').set('x-sheets-key', TEST_API_KEY).expect(400);
        await http.get('/api/invocations?object_id=1ABC').set('x-sheets-key', TEST_API_KEY).expect(400);
      });

      it('pages the ledger of a key newest first (before) or in append order (after), by one cursor rule', async () => {
        const list = (q: string): Promise<request.Response> => http.get(`/api/invocations?object_id=${KEYS[0]}&${q}`).set('x-sheets-key', TEST_API_KEY).expect(200);
        const all = (await list('limit=1000')).body;
        expect(all.order).to.equal('newest first');
        expect(all.items.length).to.be.greaterThan(5);
        const seqs = all.items.map((i: { seq: number }) => i.seq);
        expect(seqs).to.deep.equal([...seqs].sort((a: number, b: number) => b - a));
        for (const [first, param, expected] of [['order=newest', 'before', all.items], ['order=append', 'after', [...all.items].reverse()]] as const) {
          const seen: string[] = [];
          let cursor: string | null = null;
          do {
            const page: request.Response = await list(`limit=2&${cursor ? `${param}=${cursor}` : first}`);
            expect(page.body.order).to.equal(param === 'before' ? 'newest first' : 'append');
            seen.push(...page.body.items.map((i: { id: string }) => i.id));
            cursor = page.body.next_cursor;
          } while (cursor);
          expect(seen).to.deep.equal(expected.map((i: { id: string }) => i.id));
        }
        // A cursor says which way it pages: both at once, or one against the order named, is refused.
        for (const q of ['before=5&after=2', 'order=append&before=5', 'order=newest&after=2', 'order=sideways']) {
          expect((await http.get(`/api/invocations?object_id=${KEYS[0]}&${q}`).set('x-sheets-key', TEST_API_KEY).expect(400)).body.error.code).to.equal('invalid_request');
        }
      });
    });
  });
}
