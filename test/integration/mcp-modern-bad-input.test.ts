// Bad input on the 2026-07-28 faces (issue 26), on every face: a `requestState` this service never
// issued (forged, tampered or replayed) and an oversized `_meta` are -32602, an unknown version
// -32022 naming the supported ones, an Mcp-Method or Mcp-Name header missing or contradicting the
// body -32020, a method the revision removed 404 -32601; the request id echoed, never a 500, and
// the tool does not run (no invocation recorded). Well-formed headers without a credential are
// still 401. An upstream that answers in the wrong era (a 2026 InputRequiredResult on a session
// it opened at 2025-11-25) fails the run, never recorded ok.
import { expect } from 'chai';
import { join } from 'node:path';
import request from 'supertest';
import { PROJECT_ROOT } from '@switchyard/app';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';
import { startWrongEraUpstream, type WrongEraUpstream } from '../support/wrong-era-mcp-server.js';

const FAITHFUL = join(PROJECT_ROOT, 'test', 'support', 'faithful-mcp-server.mjs');
const OPEN = { auth: 'none', risk: 'low', approval: false };
const FACES = [
  { path: '/mcp', tool: 'FAITHFUL_SAY' },
  { path: '/mcp/servers/faithful', tool: 'say' },
  { path: '/mcp/v/curated', tool: 'FAITHFUL_SAY' },
];
const envelope = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' }, 'io.modelcontextprotocol/clientCapabilities': {} };
const modern = (name: string) => ({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name });
/** Every version a face speaks, newest era first, as -32022's data.supported names them. */
const SUPPORTED = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'];

for (const engine of engines()) {
  describe(`bad input on the MCP 2026-07-28 faces (${engine})`, function () {
    this.timeout(60_000);
    let svc: ListeningService;
    let wrongEra: WrongEraUpstream;
    const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);
    const runs = async () => (await owner(request(svc.url).get('/api/invocations?object_id=FAITHFUL_SAY')).expect(200)).body.items.length as number;
    const post = async (path: string, body: Record<string, unknown>, headers: Record<string, string>, credential: Record<string, string> = { 'x-sheets-key': TEST_API_KEY }) => {
      const res = await fetch(`${svc.url}${path}`, { method: 'POST', headers: { ...credential, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify({ jsonrpc: '2.0', ...body }) });
      return { status: res.status, body: (await res.json()) as { id: unknown; error?: { code: number; message: string; data?: Record<string, unknown> }; result?: Record<string, unknown> } };
    };

    before(async () => {
      wrongEra = await startWrongEraUpstream();
      svc = await startListeningService(engine, {
        upstreams: {
          servers: {
            faithful: { system: 'FAITHFUL', transport: 'stdio', command: process.execPath, args: [FAITHFUL], defaults: OPEN },
            wrongera: { system: 'WRONGERA', transport: 'streamable-http', url: wrongEra.url, defaults: OPEN },
          },
        },
        mcp: { virtualServers: { curated: { description: 'The say tool', tools: ['FAITHFUL_SAY'] } } },
      });
    });
    after(async () => {
      await svc?.close();
      await wrongEra?.close();
    });

    for (const face of FACES) {
      it(`${face.path}: a well-formed call runs (the control for what follows)`, async () => {
        const before = await runs();
        const { status, body } = await post(face.path, { id: 1, method: 'tools/call', params: { name: face.tool, arguments: { text: 'ok' }, _meta: envelope } }, modern(face.tool));
        expect(status).to.equal(200);
        expect(body.result, JSON.stringify(body)).to.have.property('content');
        expect(await runs()).to.equal(before + 1);
      });

      it(`${face.path}: a requestState it never issued (forged, tampered, replayed) is -32602 invalid_request_state; the tool does not run`, async () => {
        const before = await runs();
        for (const requestState of ['forged', 'eyJ2IjoxfQ.AAAA.BBBB', 'x'.repeat(2048)]) {
          const { status, body } = await post(face.path, { id: 2, method: 'tools/call', params: { name: face.tool, arguments: { text: 'never' }, requestState, _meta: envelope } }, modern(face.tool));
          expect(status, JSON.stringify(body)).to.not.equal(500);
          expect(body.id).to.equal(2);
          expect(body.error?.code, JSON.stringify(body)).to.equal(-32602);
          expect(body.error!.data).to.deep.include({ reason: 'invalid_request_state' });
        }
        expect(await runs()).to.equal(before);
      });

      it(`${face.path}: an oversized _meta is -32602 naming the limit; the tool does not run`, async () => {
        const before = await runs();
        const { status, body } = await post(face.path, { id: 3, method: 'tools/call', params: { name: face.tool, arguments: { text: 'never' }, _meta: { ...envelope, 'example.com/blob': 'x'.repeat(64 * 1024) } } }, modern(face.tool));
        expect(status, JSON.stringify(body)).to.not.equal(500);
        expect(body.id).to.equal(3);
        expect(body.error?.code, JSON.stringify(body)).to.equal(-32602);
        expect(body.error!.data).to.deep.include({ code: 'meta_too_large', limit: 16384 });
        expect(await runs()).to.equal(before);
      });
      it(`${face.path}: an unknown version is 400 -32022 naming every supported version, the request id echoed; the tool does not run`, async () => {
        const before = await runs();
        const { status, body } = await post(face.path, { id: 5, method: 'tools/call', params: { name: face.tool, arguments: { text: 'never' }, _meta: { ...envelope, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } } }, { ...modern(face.tool), 'mcp-protocol-version': '2099-01-01' });
        expect(status, JSON.stringify(body)).to.equal(400);
        expect(body.id).to.equal(5);
        expect(body.error?.code).to.equal(-32022);
        expect(body.error!.data!['supported']).to.deep.equal(SUPPORTED);
        expect(await runs()).to.equal(before);
      });

      it(`${face.path}: an Mcp-Name or Mcp-Method header missing or contradicting the body is 400 -32020, the id echoed; the tool does not run`, async () => {
        const before = await runs();
        const cases: Array<Record<string, string>> = [
          { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call' },
          { ...modern(face.tool), 'mcp-name': `${face.tool}_other` },
          { 'mcp-protocol-version': '2026-07-28', 'mcp-name': face.tool },
          { ...modern(face.tool), 'mcp-method': 'TOOLS/CALL' },
        ];
        for (const headers of cases) {
          const { status, body } = await post(face.path, { id: 6, method: 'tools/call', params: { name: face.tool, arguments: { text: 'never' }, _meta: envelope } }, headers);
          expect(status, JSON.stringify(headers)).to.equal(400);
          expect(body.id, JSON.stringify(headers)).to.equal(6);
          expect(body.error?.code, JSON.stringify(headers)).to.equal(-32020);
        }
        expect(await runs()).to.equal(before);
      });

      it(`${face.path}: methods the revision removed (initialize, logging/setLevel, resources/subscribe) are 404 -32601`, async () => {
        for (const method of ['initialize', 'logging/setLevel', 'resources/subscribe']) {
          const params = method === 'logging/setLevel' ? { level: 'info' } : method === 'resources/subscribe' ? { uri: 'memo://counter' } : {};
          const { status, body } = await post(face.path, { id: 7, method, params: { ...params, _meta: envelope } }, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(method === 'resources/subscribe' ? { 'mcp-name': 'memo://counter' } : {}) });
          expect(status, method).to.equal(404);
          expect(body.id, method).to.equal(7);
          expect(body.error?.code, method).to.equal(-32601);
        }
      });

      it(`${face.path}: well-formed 2026 headers without a credential are still 401, and nothing runs`, async () => {
        const before = await runs();
        const res = await post(face.path, { id: 8, method: 'tools/call', params: { name: face.tool, arguments: { text: 'never' }, _meta: envelope } }, modern(face.tool), {});
        expect(res.status).to.equal(401);
        expect(await runs()).to.equal(before);
      });
    }

    it('an upstream that answers in the wrong era (InputRequiredResult on its 2025 session) fails the run, never recorded ok; the 2026 caller gets the failure, not a 500', async () => {
      const wrongRuns = async () => (await owner(request(svc.url).get('/api/invocations?object_id=WRONGERA_ASK')).expect(200)).body.items as Array<{ ok: boolean; error?: { code: string } }>;
      const before = (await wrongRuns()).length;
      // The probe was refused as a 2025 server refuses it; the session was opened with initialize.
      expect(wrongEra.seen.slice(0, 2)).to.deep.equal(['server/discover', 'initialize']);
      const { status, body } = await post('/mcp/servers/wrongera', { id: 9, method: 'tools/call', params: { name: 'ask', arguments: {}, _meta: envelope } }, modern('ask'));
      expect(status, JSON.stringify(body)).to.equal(200);
      expect(body.id).to.equal(9);
      expect(body.result, JSON.stringify(body)).to.include({ isError: true, resultType: 'complete' });
      const run = (body.result!['_meta'] as Record<string, { ok: boolean; error: { code: string; message: string } }>)['switchyard/run']!;
      expect(run.ok).to.equal(false);
      expect(run.error.code).to.equal('upstream_unavailable');
      expect(run.error.message).to.include('input_required');
      const after = await wrongRuns();
      expect(after.length).to.equal(before + 1);
      expect(after.every((r) => r.ok === false)).to.equal(true);
      // The same through /api/dispatch: a failed run, 502, never 500 and never ok.
      const dispatched = await owner(request(svc.url).post('/api/dispatch')).send({ key: 'WRONGERA_ASK', body: {} });
      expect(dispatched.status).to.equal(502);
      expect(dispatched.body.invocation).to.include({ ok: false });
    });

    it('an oversized _meta is refused on a 2025 session too (the limit is the same in both eras); the tool does not run', async () => {
      const before = await runs();
      const init = await fetch(`${svc.url}/mcp`, { method: 'POST', headers: { 'x-sheets-key': TEST_API_KEY, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } }) });
      expect(init.status).to.equal(200);
      const session = init.headers.get('mcp-session-id');
      await init.text();
      const headers: Record<string, string> = { 'mcp-protocol-version': '2025-11-25', ...(session ? { 'mcp-session-id': session } : {}) };
      const { status, body } = await post('/mcp', { id: 4, method: 'tools/call', params: { name: 'FAITHFUL_SAY', arguments: { text: 'never' }, _meta: { progressToken: 1, 'example.com/blob': 'é'.repeat(9000) } } }, headers);
      expect(status, JSON.stringify(body)).to.equal(200);
      expect(body.id).to.equal(4);
      expect(body.error?.code, JSON.stringify(body)).to.equal(-32602);
      // 'é' is two bytes in UTF-8: 9,000 of them are over 16 KiB though under 16,384 characters.
      expect(body.error!.data!['bytes']).to.be.greaterThan(18000);
      expect(await runs()).to.equal(before);
    });
  });
}
