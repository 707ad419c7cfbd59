// A 2026-07-28 call paused for its caller's input lives in the process that answered
// InputRequiredResult (issue 26 item 2), on PostgreSQL with two service processes: both open the
// requestState (its key is shared through the database), the one that does not hold the call
// refuses the retry with -32602 saying so and runs nothing, and the retry to the right process completes.
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_API_KEY, engines, freshDatabase } from '../support/app.js';
import { startEverythingHttp } from '../support/everything-server.js';
import { startServiceProcess, type Child } from '../support/processes.js';

const ELICIT = 'EVERYTHING_TRIGGER_ELICITATION_REQUEST';
const envelope = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' }, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
type Answer = { error?: { code: number; message: string; data?: Record<string, unknown> }; result?: Record<string, any> };

async function call(url: string, params: Record<string, unknown>): Promise<Answer> {
  const res = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { 'x-sheets-key': TEST_API_KEY, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': ELICIT },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: ELICIT, arguments: {}, _meta: envelope, ...params } }),
  });
  expect(res.status).to.not.equal(500);
  return (await res.json()) as Answer;
}

const runs = async (url: string): Promise<number> =>
  ((await (await fetch(`${url}/api/invocations?object_id=${ELICIT}`, { headers: { 'x-sheets-key': TEST_API_KEY } })).json()) as { items: unknown[] }).items.length;

if (engines().includes('postgres')) {
  describe('MCP eras bridged across processes: a paused 2026-07-28 call on PostgreSQL with two service processes', function () {
    this.timeout(120_000);

    it('the other process refuses the retry (-32602, naming why) and runs nothing; the process holding the call completes it', async () => {
      const db = await freshDatabase('postgres');
      const everything = await startEverythingHttp();
      const dir = mkdtempSync(join(tmpdir(), 'switchyard-eras-'));
      const file = join(dir, 'config.json');
      writeFileSync(file, JSON.stringify({ upstreams: { connectTimeoutMs: 20_000, servers: { everything: { system: 'EVERYTHING', transport: 'streamable-http', url: everything.url, defaults: { auth: 'none', risk: 'low', approval: false } } } } }));
      const env = { SWITCHYARD_API_KEY: TEST_API_KEY, SWITCHYARD_CONFIG: file, DATABASE_URL: db.url };
      const children: Child[] = [];
      try {
        const a = await startServiceProcess(env);
        children.push(a.child);
        const b = await startServiceProcess(env);
        children.push(b.child);

        const asked = (await call(a.url, {})).result!;
        expect(asked, JSON.stringify(asked)).to.include({ resultType: 'input_required' });
        const key = Object.keys(asked['inputRequests'])[0]!;
        const retry = { requestState: asked['requestState'], inputResponses: { [key]: { action: 'accept', content: { name: 'Katherine Johnson' } } } };

        const elsewhere = await call(b.url, retry);
        expect(elsewhere.error?.code, JSON.stringify(elsewhere)).to.equal(-32602);
        expect(elsewhere.error!.data).to.deep.include({ reason: 'invalid_request_state' });
        expect(elsewhere.error!.message).to.contain('another service process');
        expect(await runs(b.url)).to.equal(0);

        const done = await call(a.url, retry);
        expect(JSON.stringify(done.result?.['content']), JSON.stringify(done)).to.contain('Katherine Johnson');
        expect(await runs(b.url)).to.equal(1);
      } finally {
        await Promise.all(children.map((c) => c.stop()));
        await everything.stop();
        rmSync(dir, { recursive: true, force: true });
        await db.drop();
      }
    });
  });
}
