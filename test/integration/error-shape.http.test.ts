// One error shape: every answer with ok:false carries a top-level error {code, message}, whatever
// the route, and runs that failed or were refused keep their invocation beside it (the same error).
// Table-driven across dispatch (POST and GET), replay, repair, hook actions, /api/route, approvals,
// the ledger reads, /mcp and /healthz, on SQLite and (in CI) PostgreSQL.
import { expect } from 'chai';
import request from 'supertest';
import type { Knex } from 'knex';
import { TEST_API_KEY, engines, startTestService, type TestService } from '../support/app.js';

const EDGE = 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER';
const LOOKUP = 'MESSAGING_BATCH_LOOKUP_PHONE_NUMBERS';
const PAYMENTS = 'PAYMENTS_PROCESSOR_API_SEARCH';
const WORKER = '0123456789abcdef0123456789abcdef';

interface Answer {
  status: number;
  body: Record<string, unknown> & { ok?: unknown; error?: { code?: unknown; message?: unknown }; invocation?: { error?: unknown } };
}

/** The shape every ok:false answer must have; a run also keeps its invocation, whose error is the same. */
function expectErrorShape(answer: Answer, code: string, run: boolean): void {
  const { body } = answer;
  expect(body.ok, JSON.stringify(body)).to.equal(false);
  expect(body.error, 'top-level error').to.be.an('object');
  expect(body.error!.code).to.equal(code);
  expect(body.error!.message).to.be.a('string').and.not.equal('');
  if (run) {
    expect(body.invocation, 'a run keeps its invocation').to.be.an('object');
    expect(body.error).to.deep.equal(body.invocation!.error);
  }
}

for (const engine of engines()) {
  describe(`one error shape on every route (${engine})`, function () {
    this.timeout(30_000);
    let svc: TestService;
    let http: ReturnType<typeof request>;
    let token: string;
    let hookId: string;
    let offHookId: string;
    let failedEdge: string;
    let okEdge: string;
    const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);
    const share = () => encodeURIComponent(token);

    before(async () => {
      svc = await startTestService(engine, { tokens: { mintPerMinute: 1000 } });
      http = request(svc.switchyard.app);
      token = (await http.get('/start').expect(200)).body.token;
      hookId = (await owner(http.post('/api/objects/webhook')).send({ name: 'shape' }).expect(201)).body.id;
      offHookId = (await owner(http.post('/api/objects/webhook')).send({ name: 'shape-off' }).expect(201)).body.id;
      await owner(http.patch(`/api/objects/webhook/${offHookId}`)).send({ on: false }).expect(200);
      failedEdge = (await owner(http.post('/api/dispatch')).send({ key: EDGE, body: { workerId: 'nope' } }).expect(422)).body.invocation.id;
      okEdge = (await owner(http.post('/api/dispatch')).send({ key: EDGE, body: { workerId: WORKER } }).expect(200)).body.invocation.id;
    });
    after(async () => svc?.close());

    // [what, request, status, code, is a run]
    const cases: Array<[string, () => request.Test, number, string, boolean]> = [
      ['POST dispatch: arguments off the schema', () => owner(http.post('/api/dispatch')).send({ key: EDGE, body: { workerId: 'xyz' } }), 422, 'invalid_arguments', true],
      ['POST dispatch: waiting for approval', () => owner(http.post('/api/dispatch')).send({ key: PAYMENTS, body: { query: 'refund' } }), 202, 'approval_required', true],
      ['POST dispatch: WEB_FETCH to loopback', () => owner(http.post('/api/dispatch')).send({ key: 'WEB_FETCH', body: 'GET|http://127.0.0.1:1/||' }), 403, 'blocked_address', true],
      ['POST dispatch: upstream tool error', () => owner(http.post('/api/dispatch')).send({ key: 'MESSAGING_UPDATE_GROUP', body: { group_id: 'grp_nosuchgroup', name: 'x' } }), 422, 'tool_error', true],
      ['POST dispatch: unknown key', () => owner(http.post('/api/dispatch')).send({ key: 'NO_SUCH_KEY', body: '{}' }), 404, 'unknown_capability', false],
      ['POST dispatch: not JSON', () => owner(http.post('/api/dispatch')).set('content-type', 'text/plain').send('key=EDGE'), 415, 'unsupported_media_type', false],
      ['POST dispatch: unknown envelope field', () => owner(http.post('/api/dispatch')).send({ key: EDGE, body: '{}', extra: 1 }), 400, 'invalid_request', false],
      ['POST dispatch: no credential', () => http.post('/api/dispatch').send({ key: EDGE, body: { workerId: WORKER } }), 401, 'credential_required', false],
      ['POST dispatch: token outside its scope', () => http.post('/api/dispatch').set('authorization', `Bearer ${token}`).send({ key: PAYMENTS, body: { query: 'x' } }), 403, 'scope_denied', false],
      ['POST dispatch: corrupted token', () => http.post('/api/dispatch').set('authorization', 'Bearer not-a-token').send({ key: EDGE, body: '{}' }), 401, 'token_corrupted', false],
      ['GET invoke: arguments off the schema', () => http.get(`/api/dispatch?invoke=${EDGE}&body=${encodeURIComponent('{"workerId":1}')}&share=${share()}`), 422, 'invalid_arguments', true],
      ['GET invoke: no credential', () => http.get(`/api/dispatch?invoke=${EDGE}&body=%7B%7D`), 401, 'credential_required', false],
      ['GET dispatch: no query verb', () => http.get('/api/dispatch'), 400, 'invalid_request', false],
      ['GET dispatch: unknown contract key', () => http.get('/api/dispatch?key=NO_SUCH_KEY'), 404, 'unknown_capability', false],
      ['GET dispatch: unknown system', () => http.get('/api/dispatch?map=NOPE'), 404, 'unknown_system', false],
      ['GET dispatch: receipt without a credential', () => http.get(`/api/dispatch?receipt=${okEdge}`), 401, 'credential_required', false],
      ['GET dispatch: receipt of an unknown invocation', () => http.get(`/api/dispatch?receipt=inv_doesnotexist00000000&share=${share()}`), 404, 'invocation_not_found', false],
      ['replay: unknown invocation', () => owner(http.post('/api/dispatch')).send({ replay: 'inv_doesnotexist00000000' }), 404, 'invocation_not_found', false],
      ['replay: of a failed run fails again', () => owner(http.post('/api/dispatch')).send({ replay: failedEdge }), 422, 'invalid_arguments', true],
      ['repair: of a successful run', () => owner(http.post('/api/dispatch')).send({ key: EDGE, body: { workerId: WORKER }, repairs: okEdge }), 422, 'invalid_repair', false],
      ['repair: malformed link', () => owner(http.post('/api/dispatch')).send({ key: EDGE, body: { workerId: WORKER }, repairs: 'nope' }), 422, 'invalid_repair', false],
      ['hook action: arguments off the schema', () => http.post(`/hook/${hookId}/${LOOKUP}`).set('content-type', 'application/json').send('{"numbers":"+1"}'), 422, 'invalid_arguments', true],
      ['hook action: auth required, refused', () => http.post(`/hook/${hookId}/${PAYMENTS}`).set('content-type', 'application/json').send('{"query":"refund"}'), 401, 'credential_required', true],
      ['hook action: unknown action', () => http.post(`/hook/${hookId}/NO_SUCH_ACTION`).set('content-type', 'application/json').send('{}'), 404, 'unknown_capability', false],
      ['hook: webhook off', () => http.post(`/hook/${offHookId}`).set('content-type', 'application/json').send('{"id":"1"}'), 403, 'webhook_off', false],
      ['hook: unknown webhook', () => http.post('/hook/hk_000000000000').set('content-type', 'application/json').send('{}'), 404, 'webhook_not_found', false],
      ['/api/route: a tag that fails', () => owner(http.post('/api/route')).send({ text: `[${EDGE}]{"workerId":"${WORKER}"}[/${EDGE}] then [${EDGE}]{"workerId":"bad"}[/${EDGE}]` }), 200, 'invalid_arguments', false],
      ['/api/route: no credential', () => http.post('/api/route').send({ text: 'x' }), 401, 'credential_required', false],
      ['approvals: unknown invocation', () => owner(http.post('/api/approvals/inv_doesnotexist00000000')).send({ decision: 'approve' }), 404, 'invocation_not_found', false],
      ['ledger: bad object_id', () => owner(http.get('/api/invocations?object_id=not a key')), 400, 'invalid_request', false],
      ['/mcp: no credential', () => http.post('/mcp').send({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), 401, 'credential_required', false],
      ['no such route', () => http.get('/api/nope'), 404, 'not_found', false],
    ];

    for (const [what, send, status, code, run] of cases) {
      it(`${what}: ${status} ok:false with error.code ${code}${run ? ', invocation beside it' : ''}`, async () => {
        const res = await send();
        expect(res.status, JSON.stringify(res.body)).to.equal(status);
        expectErrorShape(res as unknown as Answer, code, run);
      });
    }

    it('/api/route names each failed tag at the top and keeps each run with its own error', async () => {
      const res = await owner(http.post('/api/route')).send({ text: `[${EDGE}]{"workerId":"bad"}[/${EDGE}] [NO_SUCH_KEY]{}[/NO_SUCH_KEY]` }).expect(200);
      expect(res.body.error.failed).to.deep.equal([
        { key: EDGE, at: 0, code: 'invalid_arguments' },
        { key: 'NO_SUCH_KEY', at: res.body.runs[1].at, code: 'unknown_capability' },
      ]);
      expectErrorShape({ status: 200, body: res.body.runs[0] }, 'invalid_arguments', true);
      expect(res.body.runs[1].error.code).to.equal('unknown_capability');
    });

    it('a run that is ok carries no top-level error', async () => {
      const res = await owner(http.post('/api/dispatch')).send({ key: EDGE, body: { workerId: WORKER } }).expect(200);
      expect(res.body).to.have.all.keys('ok', 'result', 'invocation', 'yield', '_self');
      const route = await owner(http.post('/api/route')).send({ text: `[${EDGE}]{"workerId":"${WORKER}"}[/${EDGE}]` }).expect(200);
      expect(route.body).to.not.have.property('error');
      expect(route.body.ok).to.equal(true);
    });

    it('/healthz without its database: 503 ok:false with error database_unavailable', async () => {
      const broken = await startTestService(engine);
      try {
        const db = await broken.switchyard.container.getAsync<{ knex: Knex }>(Symbol.for('switchyard.Database'));
        await db.knex.destroy();
        const res = await request(broken.switchyard.app).get('/healthz');
        expect(res.status).to.equal(503);
        expectErrorShape(res as unknown as Answer, 'database_unavailable', false);
      } finally {
        // Closing a service whose pool is gone may fail; the test database is dropped either way.
        await broken.close().catch(() => broken.db.drop());
      }
    });
  });
}
