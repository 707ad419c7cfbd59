// Hostile and careless senders against the real service over raw sockets, on SQLite and PostgreSQL:
// the webhook is looked up before its body is read (unknown 404, Off 403 at once), bodies in flight
// are held to a budget (503 + Retry-After), slow bodies time out (408), header limits answer 431,
// every header of an accepted delivery is stored, and a refused action refuses its delivery.
import { expect } from 'chai';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { TEST_API_KEY, engines, startTestService, type TestService } from '../support/app.js';
import { parseExposition, valueOf } from '../support/prometheus.js';
import { LAST_CHUNK, chunk, openRaw } from '../support/raw-http.js';

const TEN_MIB = 10 * 1024 * 1024;

interface Running {
  svc: TestService;
  server: Server;
  port: number;
  http: ReturnType<typeof request>;
}

async function start(engine: Parameters<typeof startTestService>[0], overrides: Record<string, unknown> = {}): Promise<Running> {
  const svc = await startTestService(engine, overrides);
  const server = svc.switchyard.createServer().listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { svc, server, port: (server.address() as AddressInfo).port, http: request(server) };
}

async function stop(r: Running | undefined): Promise<void> {
  if (!r) return;
  r.server.closeAllConnections();
  await new Promise((done) => r.server.close(done));
  await r.svc.close();
}

const owner = (t: request.Test) => t.set('x-sheets-key', TEST_API_KEY);
const newHook = async (r: Running, name: string): Promise<string> => (await owner(r.http.post('/api/objects/webhook')).send({ name }).expect(201)).body.id;
const entryOf = async (r: Running, id: string) => (await owner(r.http.get(`/api/ledger/${id}`)).expect(200)).body.entry;
const deliveriesOf = async (r: Running, hookId: string) => (await owner(r.http.get(`/api/ledger?event=webhook%20delivery&hook=${hookId}`)).expect(200)).body.items;

for (const engine of engines()) {
  describe(`webhook intake under hostile traffic (${engine})`, function () {
    this.timeout(30_000);
    let r: Running;
    before(async () => {
      r = await start(engine);
    });
    after(() => stop(r));

    it('answers an unknown webhook 404 at once, before its 10 MiB body is sent', async () => {
      const req = await openRaw(r.port, 'POST', '/hook/hk_000000000000', [['Content-Type', 'application/json'], ['Content-Length', String(TEN_MIB)]]);
      const answer = await req.answer;
      req.close();
      expect(answer.status).to.equal(404);
      expect(answer.body.error.code).to.equal('webhook_not_found');
      expect(answer.headers['connection']).to.equal('close');
    });

    it('refuses an Off webhook 403 at once, recording the headers, the first bytes, body_truncated and the declared size', async () => {
      const hookId = await newHook(r, 'off');
      await owner(r.http.patch(`/api/objects/webhook/${hookId}`)).send({ on: false }).expect(200);
      const req = await openRaw(r.port, 'POST', `/hook/${hookId}`, [['Content-Type', 'application/octet-stream'], ['X-Delivery-Id', 'off-1'], ['Content-Length', String(TEN_MIB)]]);
      req.write(Buffer.alloc(10_000, 0x61));
      const answer = await req.answer;
      req.close();
      expect(answer.status).to.equal(403);
      expect(answer.body.error.code).to.equal('webhook_off');
      expect(answer.body.outcome).to.equal('refused');
      const e = await entryOf(r, answer.body.entry);
      expect(e.outcome).to.equal('refused');
      expect(e.refusal).to.include({ code: 'webhook_off', body_truncated: true, declared_size: TEN_MIB });
      expect(e.body).to.equal('a'.repeat(4096));
      expect(e.body_size).to.equal(TEN_MIB);
      expect(e.delivery_id).to.equal('off-1');
      expect(e.headers).to.deep.include(['X-Delivery-Id', 'off-1']);
    });

    it('keeps a small body to an Off webhook whole, without the truncated flag', async () => {
      const hookId = await newHook(r, 'off-small');
      await owner(r.http.patch(`/api/objects/webhook/${hookId}`)).send({ on: false }).expect(200);
      const res = await r.http.post(`/hook/${hookId}`).set('content-type', 'application/json').send('{"n":1}').expect(403);
      const e = await entryOf(r, res.body.entry);
      expect(e).to.include({ body: '{"n":1}', body_size: 7 });
      expect(e.refusal).to.not.have.property('body_truncated');
    });

    it('stores every one of 1,100 headers of an accepted delivery, its delivery id (the last) included', async () => {
      const hookId = await newHook(r, 'many-headers');
      const headers: Array<[string, string]> = [];
      for (let i = 0; i < 1099; i++) headers.push([`X-H${i}`, String(i)]);
      headers.push(['X-GitHub-Delivery', 'gh-last-header']);
      const req = await openRaw(r.port, 'POST', `/hook/${hookId}`, [...headers, ['Content-Type', 'application/json'], ['Content-Length', '2']]);
      req.write('{}');
      const answer = await req.answer;
      req.close();
      expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
      expect(answer.body.delivery_id).to.equal('gh-last-header');
      const e = await entryOf(r, answer.body.entry);
      expect(e.headers.filter(([n]: [string]) => /^X-H\d+$/.test(n))).to.have.length(1099);
    });

    describe('refused actions are refusals (one vocabulary: accepted, duplicate, refused)', () => {
      const LOOKUP = 'MESSAGING_BATCH_LOOKUP_PHONE_NUMBERS';
      let hookId: string;
      before(async () => {
        hookId = await newHook(r, 'actions');
      });

      const cases: Array<[string, string, string, string, number]> = [
        ['a limit violation', LOOKUP, JSON.stringify({ numbers: Array.from({ length: 101 }, (_, i) => `+1415555${1000 + i}`) }), 'invalid_arguments', 422],
        ['a schema violation', LOOKUP, '{"numbers":"not a list"}', 'invalid_arguments', 422],
        ['a body that is not JSON', LOOKUP, 'numbers=+14155552671', 'invalid_arguments', 422],
        ['auth required', 'PAYMENTS_PROCESSOR_API_SEARCH', '{"query":"refund"}', 'credential_required', 401],
      ];
      for (const [name, action, body, code, status] of cases) {
        it(`refuses the delivery for ${name} (${code}), and the ledger says refused`, async () => {
          const res = await r.http.post(`/hook/${hookId}/${action}`).set('content-type', 'application/json').send(body);
          expect(res.status).to.equal(status);
          expect(res.body.ok).to.equal(false);
          expect(res.body.error.code).to.equal(code);
          expect(res.body.delivery).to.include({ outcome: 'refused' });
          // The refused run is still an invocation in the ledger, linked from the delivery.
          expect(res.body.invocation).to.include({ ran: false, ok: false });
          const e = await entryOf(r, res.body.delivery.entry);
          expect(e.outcome).to.equal('refused');
          expect(e.refusal.code).to.equal(code);
          expect(e.action_run).to.include({ status: 'refused', invocation: res.body.invocation.id });
          const listed = (await deliveriesOf(r, hookId)).find((d: { id: string }) => d.id === e.id);
          expect(listed).to.include({ outcome: 'refused' });
        });
      }

      it('lists a retried delivery as duplicate and a good one as accepted', async () => {
        const headers = { 'content-type': 'application/json', 'webhook-id': 'msg_vocabulary' };
        const first = await r.http.post(`/hook/${hookId}`).set(headers).send('{"a":1}').expect(200);
        const again = await r.http.post(`/hook/${hookId}`).set(headers).send('{"a":1}').expect(200);
        expect(first.body.outcome).to.equal('accepted');
        expect(again.body.outcome).to.equal('duplicate');
        const items = await deliveriesOf(r, hookId);
        expect(items.find((d: { id: string }) => d.id === first.body.entry).outcome).to.equal('accepted');
        expect(items.find((d: { id: string }) => d.id === again.body.entry).outcome).to.equal('duplicate');
      });
    });
  });

  describe(`request budgets and limits (${engine})`, function () {
    this.timeout(30_000);
    const BUDGET = 64 * 1024;
    let r: Running;
    let hookId: string;
    before(async () => {
      r = await start(engine, { server: { bodyBudgetBytes: BUDGET, bodyTimeoutMs: 1500, maxHeaders: 50, maxHeaderBytes: 4096, retryAfterSeconds: 7 }, webhooks: { bodyLimitBytes: 1024 * 1024 } });
      hookId = await newHook(r, 'budget');
    });
    after(() => stop(r));

    it('answers 503 with Retry-After before reading a body that would pass the budget, on /hook and /api alike, and admits it once bodies are done', async () => {
      const holder = await openRaw(r.port, 'POST', `/hook/${hookId}`, [['Content-Type', 'application/octet-stream'], ['Content-Length', String(60 * 1024)]]);
      holder.write(Buffer.alloc(1024, 1));
      // Give the holder's head time to reach the gate (no timing assert: only ordering).
      await new Promise((done) => setTimeout(done, 200));

      const hook = await openRaw(r.port, 'POST', `/hook/${hookId}`, [['Content-Type', 'application/json'], ['Content-Length', String(8 * 1024)]]);
      const hookAnswer = await hook.answer;
      hook.close();
      expect(hookAnswer.status).to.equal(503);
      expect(hookAnswer.headers['retry-after']).to.equal('7');
      expect(hookAnswer.body.error.code).to.equal('service_busy');

      const api = await openRaw(r.port, 'POST', '/api/dispatch', [['Content-Type', 'application/json'], ['X-Sheets-Key', TEST_API_KEY], ['Content-Length', String(8 * 1024)]]);
      const apiAnswer = await api.answer;
      api.close();
      expect(apiAnswer.status).to.equal(503);
      expect(apiAnswer.headers['retry-after']).to.equal('7');

      holder.write(Buffer.alloc(59 * 1024, 1));
      expect((await holder.answer).status).to.equal(200);
      holder.close();
      await r.http.post(`/hook/${hookId}`).set('content-type', 'application/octet-stream').send(Buffer.alloc(8 * 1024, 2)).expect(200);
      // Refused requests stored nothing: only the holder and the last one are deliveries.
      expect((await deliveriesOf(r, hookId)).map((d: { body_size: number }) => d.body_size)).to.deep.equal([8 * 1024, 60 * 1024]);
    });

    it('counts a chunked body as it arrives and refuses it with 503 when the budget runs out', async () => {
      const req = await openRaw(r.port, 'POST', `/hook/${hookId}`, [['Content-Type', 'application/octet-stream'], ['Transfer-Encoding', 'chunked']]);
      for (let i = 0; i < 20; i++) req.write(chunk(Buffer.alloc(16 * 1024, 3)));
      const answer = await req.answer;
      req.close();
      expect(answer.status).to.equal(503);
      expect(answer.body.error.code).to.equal('service_busy');
      // The budget is whole again afterwards.
      await r.http.post(`/hook/${hookId}`).set('content-type', 'application/octet-stream').send(Buffer.alloc(60 * 1024, 4)).expect(200);
    });

    it('stores a chunked body that fits', async () => {
      const req = await openRaw(r.port, 'POST', `/hook/${hookId}`, [['Content-Type', 'text/plain'], ['Transfer-Encoding', 'chunked']]);
      req.write(chunk(Buffer.from('hello ')));
      req.write(chunk(Buffer.from('world')));
      req.write(LAST_CHUNK);
      const answer = await req.answer;
      req.close();
      expect(answer.status).to.equal(200);
      expect((await entryOf(r, answer.body.entry)).body).to.equal('hello world');
    });

    it('answers 408 when a body does not arrive within the timeout, and stores nothing', async () => {
      const before = (await deliveriesOf(r, hookId)).length;
      const req = await openRaw(r.port, 'POST', `/hook/${hookId}`, [['Content-Type', 'application/json'], ['Content-Length', '100']]);
      req.write('{"slow":');
      const answer = await req.answer;
      req.close();
      expect(answer.status).to.equal(408);
      expect(answer.body.error.code).to.equal('request_timeout');
      const api = await openRaw(r.port, 'POST', '/api/dispatch', [['Content-Type', 'application/json'], ['X-Sheets-Key', TEST_API_KEY], ['Content-Length', '100']]);
      api.write('{"key":');
      expect((await api.answer).status).to.equal(408);
      api.close();
      expect((await deliveriesOf(r, hookId)).length).to.equal(before);
    });

    it('answers 431 past the header count and past the header bytes, storing nothing', async () => {
      const before = (await deliveriesOf(r, hookId)).length;
      const many: Array<[string, string]> = Array.from({ length: 60 }, (_, i) => [`X-N${i}`, 'v']);
      const counted = await openRaw(r.port, 'POST', `/hook/${hookId}`, [...many, ['Content-Length', '2']]);
      counted.write('{}');
      const countAnswer = await counted.answer;
      counted.close();
      expect(countAnswer.status).to.equal(431);
      expect(countAnswer.body.error.code).to.equal('headers_too_large');

      const big = await openRaw(r.port, 'POST', `/hook/${hookId}`, [['X-Big', 'b'.repeat(5000)], ['Content-Length', '2']]);
      big.write('{}');
      const bigAnswer = await big.answer;
      big.close();
      expect(bigAnswer.status).to.equal(431);
      expect(bigAnswer.body.error.code).to.equal('headers_too_large');
      expect((await deliveriesOf(r, hookId)).length).to.equal(before);
    });

    it('counts every request turned away by a limit as a refused request by its code', async () => {
      const refused = async (reason: string) =>
        valueOf(parseExposition((await owner(r.http.get('/metrics')).expect(200)).text), 'switchyard_refusals_total', { kind: 'request', reason }) ?? 0;
      const before = { busy: await refused('service_busy'), timeout: await refused('request_timeout'), headers: await refused('headers_too_large') };

      const holder = await openRaw(r.port, 'POST', `/hook/${hookId}`, [['Content-Type', 'application/octet-stream'], ['Content-Length', String(60 * 1024)]]);
      holder.write(Buffer.alloc(1024, 1));
      await new Promise((done) => setTimeout(done, 200));
      const busy = await openRaw(r.port, 'POST', `/hook/${hookId}`, [['Content-Type', 'application/json'], ['Content-Length', String(8 * 1024)]]);
      expect((await busy.answer).status).to.equal(503);
      busy.close();
      holder.write(Buffer.alloc(59 * 1024, 1));
      expect((await holder.answer).status).to.equal(200);
      holder.close();

      const slow = await openRaw(r.port, 'POST', `/hook/${hookId}`, [['Content-Type', 'application/json'], ['Content-Length', '100']]);
      slow.write('{"slow":');
      expect((await slow.answer).status).to.equal(408);
      slow.close();

      const many = await openRaw(r.port, 'POST', `/hook/${hookId}`, [...Array.from({ length: 60 }, (_, i): [string, string] => [`X-N${i}`, 'v']), ['Content-Length', '2']]);
      many.write('{}');
      expect((await many.answer).status).to.equal(431);
      many.close();
      const big = await openRaw(r.port, 'POST', `/hook/${hookId}`, [['X-Big', 'b'.repeat(5000)], ['Content-Length', '2']]);
      big.write('{}');
      expect((await big.answer).status).to.equal(431);
      big.close();

      expect((await refused('service_busy')) - before.busy).to.equal(1);
      expect((await refused('request_timeout')) - before.timeout).to.equal(1);
      // One by the gate (header count), one by the parser (header bytes).
      expect((await refused('headers_too_large')) - before.headers).to.equal(2);
    });
  });
}
