// Bad input on the 2026-07-28 faces (issue 26): a `requestState` this service never issued (forged,
// tampered or replayed) and an oversized `_meta` are JSON-RPC errors with the spec's code (-32602),
// the request id echoed, never a 500, and the tool does not run (no invocation recorded).
import { expect } from 'chai';
import { join } from 'node:path';
import request from 'supertest';
import { PROJECT_ROOT } from '@switchyard/app';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';

const FAITHFUL = join(PROJECT_ROOT, 'test', 'support', 'faithful-mcp-server.mjs');
const OPEN = { auth: 'none', risk: 'low', approval: false };
const FACES = [
  { path: '/mcp', tool: 'FAITHFUL_SAY' },
  { path: '/mcp/servers/faithful', tool: 'say' },
  { path: '/mcp/v/curated', tool: 'FAITHFUL_SAY' },
];
const envelope = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' }, 'io.modelcontextprotocol/clientCapabilities': {} };
const modern = (name: string) => ({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name });

for (const engine of engines()) {
  describe(`bad input on the MCP 2026-07-28 faces (${engine})`, function () {
    this.timeout(60_000);
    let svc: ListeningService;
    const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);
    const runs = async () => (await owner(request(svc.url).get('/api/invocations?object_id=FAITHFUL_SAY')).expect(200)).body.items.length as number;
    const post = async (path: string, body: Record<string, unknown>, headers: Record<string, string>) => {
      const res = await fetch(`${svc.url}${path}`, { method: 'POST', headers: { 'x-sheets-key': TEST_API_KEY, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify({ jsonrpc: '2.0', ...body }) });
      return { status: res.status, body: (await res.json()) as { id: unknown; error?: { code: number; message: string; data?: Record<string, unknown> }; result?: Record<string, unknown> } };
    };

    before(async () => {
      svc = await startListeningService(engine, {
        upstreams: { servers: { faithful: { system: 'FAITHFUL', transport: 'stdio', command: process.execPath, args: [FAITHFUL], defaults: OPEN } } },
        mcp: { virtualServers: { curated: { description: 'The say tool', tools: ['FAITHFUL_SAY'] } } },
      });
    });
    after(async () => svc?.close());

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
    }

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
