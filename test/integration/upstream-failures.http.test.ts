// Upstreams that are down or never answer, through the whole service: each run is a failed
// invocation in the ledger with a coded error (502/504), it can be repaired, and the service keeps
// serving everything else.
import { expect } from 'chai';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { TEST_API_KEY, engines, startTestService, type TestService } from '../support/app.js';

const EDGE = 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER';
const GROUP = 'MESSAGING_UPDATE_GROUP';

/** A TCP port that accepts connections and never says a word. */
async function blackHole(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v4/mcp`,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** A port nobody listens on: bind one, then release it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

for (const engine of engines()) {
  describe(`HTTP dispatch with failing upstreams (${engine})`, function () {
    let svc: TestService;
    let hole: Awaited<ReturnType<typeof blackHole>>;
    let http: ReturnType<typeof request>;
    const run = (payload: object) => http.post('/api/dispatch').set('x-sheets-key', TEST_API_KEY).send(payload);

    before(async function () {
      hole = await blackHole();
      svc = await startTestService(engine, {
        dispatch: { timeoutMs: 700 },
        upstreams: { connectTimeoutMs: 500 },
        plugins: {
          edge: { upstream: { url: `http://127.0.0.1:${await closedPort()}/sse` } },
          messaging: { upstream: { url: hole.url } },
        },
      });
      http = request(svc.switchyard.app);
    });
    after(async () => {
      await svc?.close();
      await hole?.close();
    });

    it('answers 502 upstream_unavailable for an upstream that is down, and ledgers it', async function () {
      const res = await run({ key: EDGE, body: { workerId: '0123456789abcdef0123456789abcdef' } }).expect(502);
      expect(res.body.ok).to.equal(false);
      expect(res.body.invocation).to.include({ status: 'failed', ok: false, key: EDGE });
      expect(res.body.invocation.error.code).to.equal('upstream_unavailable');
      expect(res.body).to.have.all.keys('ok', 'error', 'result', 'invocation', 'yield', '_self');
      expect(res.body.error).to.deep.equal(res.body.invocation.error);
      const stored = await http.get(`/api/invocations/${res.body.invocation.id}`).set('x-sheets-key', TEST_API_KEY).expect(200);
      expect(stored.body.invocation.error.code).to.equal('upstream_unavailable');
    });

    it('answers 504 upstream_timeout for an upstream that never answers, and ledgers it', async function () {
      const started = Date.now();
      const res = await run({ key: GROUP, body: { group_id: 'grp_4f7c2a9d1e', name: 'x' } }).expect(504);
      expect(res.body.invocation.error.code).to.equal('upstream_timeout');
      expect(Date.now() - started).to.be.lessThan(5000);
      const listed = await http.get(`/api/invocations?object_id=${GROUP}`).set('x-sheets-key', TEST_API_KEY).expect(200);
      expect(listed.body.items.map((i: { id: string }) => i.id)).to.include(res.body.invocation.id);
    });

    it('lets a failed run be repaired (the repair fails too while the upstream is down, and still links)', async function () {
      const bad = await run({ key: EDGE, body: { workerId: '0123456789abcdef0123456789abcdef' } }).expect(502);
      const again = await run({ key: EDGE, body: { workerId: '0123456789abcdef0123456789abcdef' }, repairs: bad.body.invocation.id }).expect(502);
      expect(again.body.invocation.repairs).to.equal(bad.body.invocation.id);
      const read = await http.get(`/api/invocations/${bad.body.invocation.id}`).set('x-sheets-key', TEST_API_KEY).expect(200);
      expect(read.body.invocation.repaired_by).to.deep.equal([again.body.invocation.id]);
    });

    it('keeps serving: health, contracts and the capabilities that do not need the failing upstreams', async function () {
      await http.get('/healthz').expect(200);
      await http.get(`/api/dispatch?key=${EDGE}&format=markdown`).expect(200);
      const local = await run({ key: 'WEB_FETCH', body: 'GET|http://127.0.0.1/||' }).expect(403);
      expect(local.body.invocation.error.code).to.equal('blocked_address');
      // The same black-holed messaging upstream: still a coded failure, never a crash.
      await run({ key: 'MESSAGING_BATCH_LOOKUP_PHONE_NUMBERS', body: { numbers: ['+14155552671'] } }).expect(504);
    });
  });
}
