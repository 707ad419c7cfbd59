// Runs paused for their 2026-07-28 caller's input are bounded (mcp.pausedCalls), on each engine: a
// call that would pause past a credential's share is answered session_limit and its run is
// recorded cancelled, saying why (never ok, never left running); answering a paused call frees
// its place. Shutdown withdraws a paused run first, so its end is recorded before the database
// closes, and the service that opens the database next finds it cancelled.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createLogger, createSwitchyard, loadConfig } from '@switchyard/app';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';
import { startEverythingHttp, type EverythingHttp } from '../support/everything-server.js';

const OPEN = { auth: 'none', risk: 'low', approval: false };
const ELICIT = 'EVERYTHING_TRIGGER_ELICITATION_REQUEST';
const envelope = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' }, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
type RpcAnswer = { error?: { code: number; message: string; data?: Record<string, unknown> }; result?: Record<string, any> };
type Run = { id: string; ok: boolean; status: string; error?: { code: string; message: string } };

async function call(url: string, credential: Record<string, string>, params: Record<string, unknown>): Promise<RpcAnswer> {
  const res = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': ELICIT, ...credential },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: ELICIT, arguments: {}, _meta: envelope, ...params } }),
  });
  expect(res.status, `HTTP ${res.status}`).to.not.equal(500);
  return (await res.json()) as RpcAnswer;
}

const runsOf = async (app: Parameters<typeof request>[0]): Promise<Run[]> => (await request(app).get(`/api/invocations?object_id=${ELICIT}`).set('x-sheets-key', TEST_API_KEY).expect(200)).body.items as Run[];

/** Polls until the newest run of the key has ended (a withdrawn run is recorded once its upstream call returns). */
async function settledRuns(app: Parameters<typeof request>[0], count: number): Promise<Run[]> {
  for (let i = 0; i < 200; i++) {
    const runs = await runsOf(app);
    if (runs.length >= count) return runs;
    await new Promise((r) => setTimeout(r, 25));
  }
  return runsOf(app);
}

for (const engine of engines()) {
  describe(`MCP 2026-07-28: paused runs are bounded and withdrawn at shutdown (${engine})`, function () {
    this.timeout(60_000);
    let everything: EverythingHttp;
    let svc: ListeningService;
    const owner = { 'x-sheets-key': TEST_API_KEY };
    const servers = () => ({ everything: { system: 'EVERYTHING', transport: 'streamable-http', url: everything.url, defaults: OPEN } });

    before(async () => {
      everything = await startEverythingHttp();
      svc = await startListeningService(engine, { upstreams: { connectTimeoutMs: 20_000, servers: servers() }, mcp: { pausedCalls: { max: 100, maxPerCredential: 1, ttlMs: 60_000 } } });
    });
    after(async () => {
      await svc?.close();
      await everything?.stop();
    });

    it('past maxPerCredential: session_limit, the run recorded cancelled with the reason; another credential pauses; an answer frees the place', async () => {
      const first = await call(svc.url, owner, {});
      expect(first.result, JSON.stringify(first)).to.include({ resultType: 'input_required' });

      const before = (await runsOf(svc.url)).length;
      const second = await call(svc.url, owner, {});
      expect(second.error?.code, JSON.stringify(second)).to.equal(-32000);
      expect(second.error!.data).to.deep.include({ code: 'session_limit', limit: 1 });
      expect(second.error!.message).to.contain('mcp.pausedCalls.maxPerCredential');
      const runs = await settledRuns(svc.url, before + 1);
      expect(runs.length).to.equal(before + 1);
      expect(runs[0]).to.include({ ok: false, status: 'cancelled' });
      expect(runs[0]!.error!.message).to.contain('mcp.pausedCalls.maxPerCredential');

      // A share token is another credential: its call pauses beside the owner's.
      const token = (await request(svc.url).get('/start').expect(200)).body.token as string;
      const theirs = await call(svc.url, { authorization: `Bearer ${token}` }, {});
      expect(theirs.result, JSON.stringify(theirs)).to.include({ resultType: 'input_required' });

      // The owner answers: the run completes, and the owner may pause a call again.
      const key = Object.keys(first.result!['inputRequests'])[0]!;
      const done = await call(svc.url, owner, { requestState: first.result!['requestState'], inputResponses: { [key]: { action: 'decline' } } });
      expect(done.result, JSON.stringify(done)).to.have.property('content');
      const again = await call(svc.url, owner, {});
      expect(again.result, JSON.stringify(again)).to.include({ resultType: 'input_required' });
    });

    it('shutdown withdraws a paused run before the database closes: the next start finds it cancelled, saying why', async () => {
      const own = await startListeningService(engine, { upstreams: { connectTimeoutMs: 20_000, servers: servers() } });
      const { db } = own;
      try {
        const paused = await call(own.url, owner, {});
        expect(paused.result, JSON.stringify(paused)).to.include({ resultType: 'input_required' });
        // What main.ts does on SIGTERM: stop accepting, then close the service (not the test's own drop).
        own.server.closeAllConnections();
        await new Promise((r) => own.server.close(r));
        await own.switchyard.close();

        const config = loadConfig({ env: {}, overrides: { database: { url: db.url }, auth: { apiKey: TEST_API_KEY }, log: { level: 'silent' }, server: { port: 0 }, content: { folder: own.contentFolder } } });
        const next = await createSwitchyard(config, { logger: createLogger('silent') });
        try {
          const runs = await runsOf(next.app);
          expect(runs).to.have.length(1);
          expect(runs[0]).to.include({ ok: false, status: 'cancelled' });
          expect(runs[0]!.error!.message).to.contain('shutting down');
        } finally {
          await next.close();
        }
      } finally {
        // The service was closed above; what the test made goes here (own.close would close it twice).
        await db.drop();
        rmSync(join(own.contentFolder, '..'), { recursive: true, force: true });
      }
    });
  });
}
