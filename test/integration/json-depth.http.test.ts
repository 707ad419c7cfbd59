// Arguments nested deeper than the configured limit (dispatch.maxArgumentDepth, 64 by default) are
// invalid arguments on every face that parses them: POST and GET /api/dispatch, hook actions,
// /api/route and /mcp tools/call. The run is refused with 422 invalid_arguments and ledgered as
// failed, like any other invalid arguments; nothing walks the deep value recursively.
import { expect } from 'chai';
import request from 'supertest';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';

const EDGE = 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER';
const FINDING_DEPTH = 4500;

/** `depth` nested arrays as JSON text: `[[[…]]]`. */
const nestedText = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
/** The same as a value, built without recursion. */
const nestedValue = (depth: number): unknown => {
  let value: unknown[] = [];
  for (let i = 1; i < depth; i++) value = [value];
  return value;
};

for (const engine of engines()) {
  describe(`argument depth limit (${engine})`, function () {
    this.timeout(30_000);
    let svc: ListeningService;
    let http: ReturnType<typeof request>;
    const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);
    const count = async (key: string) => (await owner(http.get(`/api/invocations?object_id=${key}&limit=1000`)).expect(200)).body.items.length as number;
    const invocation = async (id: string) => (await owner(http.get(`/api/invocations/${id}`)).expect(200)).body.invocation;

    /** A refusal for depth: invalid_arguments naming the limit, the run failed and not run. */
    const expectTooDeep = (inv: { status: string; ran: boolean; args: unknown; error: { code: string; max_depth?: number } }, limit = 64) => {
      expect(inv).to.include({ status: 'failed', ran: false });
      expect(inv.args).to.equal(null);
      expect(inv.error.code).to.equal('invalid_arguments');
      expect(inv.error.max_depth).to.equal(limit);
    };

    before(async () => {
      svc = await startListeningService(engine);
      http = request(svc.url);
    });
    after(async () => svc?.close());

    it('POST /api/dispatch: a body of JSON text nested 4,500 deep is 422 invalid_arguments, ledgered', async () => {
      const before = await count(EDGE);
      const text = `{"workerId":${nestedText(FINDING_DEPTH)}}`;
      const res = await owner(http.post('/api/dispatch')).set('content-type', 'application/json').send(JSON.stringify({ key: EDGE, body: text })).expect(422);
      expectTooDeep(res.body.invocation);
      expect(await count(EDGE)).to.equal(before + 1);
      const stored = await invocation(res.body.invocation.id);
      expectTooDeep(stored);
      expect(stored.body).to.equal(text);
    });

    it('POST /api/dispatch: a body object nested 4,500 deep is 422 invalid_arguments, ledgered with its text', async () => {
      const before = await count(EDGE);
      const bodyText = `{"workerId":${nestedText(FINDING_DEPTH)}}`;
      const res = await owner(http.post('/api/dispatch')).set('content-type', 'application/json').send(`{"key":"${EDGE}","body":${bodyText}}`).expect(422);
      expectTooDeep(res.body.invocation);
      expect(await count(EDGE)).to.equal(before + 1);
      expect((await invocation(res.body.invocation.id)).body).to.equal(bodyText);
    });

    it('POST /api/dispatch: a value nested 300,000 deep in another field of the envelope is a coded refusal, not a 500', async () => {
      const deep = nestedText(300_000);
      const res = await owner(http.post('/api/dispatch')).set('content-type', 'application/json').send(`{"key":"${EDGE}","body":{},"repairs":${deep}}`).expect(422);
      expect(res.body.error).to.include({ code: 'invalid_repair', reason: 'malformed', repairs: null });
      const body = await owner(http.post('/api/dispatch')).set('content-type', 'application/json').send(`{"key":"${EDGE}","body":${deep}}`).expect(422);
      expectTooDeep(body.body.invocation);
    });

    it('GET /api/dispatch?invoke: arguments one level past the limit are 422 invalid_arguments, ledgered', async () => {
      const before = await count(EDGE);
      const res = await owner(http.get('/api/dispatch')).query({ invoke: EDGE, body: nestedText(65) }).expect(422);
      expectTooDeep(res.body.invocation);
      expect(await count(EDGE)).to.equal(before + 1);
    });

    it('arguments exactly at the limit are not refused for their depth', async () => {
      const res = await owner(http.post('/api/dispatch')).send({ key: EDGE, body: { workerId: nestedValue(63) } }).expect(422);
      expect(res.body.invocation.error.code).to.equal('invalid_arguments');
      expect(res.body.invocation.error).to.not.have.property('max_depth');
    });

    it('a hook action with a body nested 4,500 deep is 422 invalid_arguments, the run ledgered', async () => {
      const hook = (await owner(http.post('/api/objects/webhook')).send({ name: 'deep' }).expect(201)).body;
      const before = await count(EDGE);
      const res = await http.post(`/hook/${hook.id}/${EDGE}`).set('content-type', 'application/json').send(`{"workerId":${nestedText(FINDING_DEPTH)}}`).expect(422);
      expectTooDeep(res.body.invocation);
      expect(res.body.delivery.entry).to.be.a('string');
      expect(await count(EDGE)).to.equal(before + 1);
    });

    it('POST /api/route: a tag whose arguments nest 4,500 deep fails with invalid_arguments, the run ledgered', async () => {
      const before = await count(EDGE);
      const text = `run [${EDGE}]{"workerId":${nestedText(FINDING_DEPTH)}}[/${EDGE}] please`;
      const res = await owner(http.post('/api/route')).send({ text }).expect(200);
      expect(res.body.count).to.equal(1);
      expect(res.body.runs[0].ok).to.equal(false);
      expectTooDeep(res.body.runs[0].invocation);
      expect(await count(EDGE)).to.equal(before + 1);
    });

    it('/mcp tools/call: arguments nested 4,500 deep are an isError result with a failed, ledgered invocation', async () => {
      const before = await count(EDGE);
      // Sent as text: the SDK client itself cannot stringify a value this deep.
      const call = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"${EDGE}","arguments":{"workerId":${nestedText(FINDING_DEPTH)}}}}`;
      const res = await owner(http.post('/mcp')).set('accept', 'application/json, text/event-stream').set('content-type', 'application/json').send(call).expect(200);
      const result = res.body.result as { isError: boolean; structuredContent: { status: string; invocation: string; error: { code: string; max_depth: number } } };
      expect(result.isError).to.equal(true);
      const s = result.structuredContent;
      expect(s.status).to.equal('failed');
      expect(s.error.code).to.equal('invalid_arguments');
      expect(s.error.max_depth).to.equal(64);
      expectTooDeep(await invocation(s.invocation));
      expect(await count(EDGE)).to.equal(before + 1);
    });

    it('the limit is configurable', async () => {
      const strict = await startListeningService(engine, { dispatch: { maxArgumentDepth: 3 } });
      try {
        // {} is depth 1: {workerId: [[[1]]]} is 4, {workerId: [[1]]} is 3.
        const res = await owner(request(strict.url).post('/api/dispatch')).send({ key: EDGE, body: { workerId: [[[1]]] } }).expect(422);
        expectTooDeep(res.body.invocation, 3);
        const within = await owner(request(strict.url).post('/api/dispatch')).send({ key: EDGE, body: { workerId: [[1]] } }).expect(422);
        expect(within.body.invocation.error).to.not.have.property('max_depth');
      } finally {
        await strict.close();
      }
    });
  });
}
