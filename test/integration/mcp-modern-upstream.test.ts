// An upstream that speaks only MCP 2026-07-28 (the v2 server SDK, legacy refused), on each engine:
// over streamable HTTP Switchyard's first request is the server/discover probe, then initialize
// (a server of both eras is kept at 2025), refused here, so the probe's discover answer is adopted
// (not asked again); over stdio its initialize is refused with -32022 naming 2026-07-28, so it
// connects again on that revision; either way it imports the tools with
// their 2020-12 schemas as listed, and runs them from /api/dispatch and from an MCP client on
// /mcp/servers/<name>, into the ledger. Its tools/list_changed (which a 2025 server sends unasked)
// is listened for with subscriptions/listen, and refreshes the import.
import { expect } from 'chai';
import { join } from 'node:path';
import request from 'supertest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { PROJECT_ROOT } from '@switchyard/app';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';
import { startModernUpstream, type ModernUpstream } from '../support/modern-mcp-server.js';

const OPEN = { auth: 'none', risk: 'low', approval: false };
const MODERN_STDIO = join(PROJECT_ROOT, 'test', 'support', 'modern-mcp-server.mjs');

for (const engine of engines()) {
  describe(`an upstream that speaks only MCP 2026-07-28 (${engine})`, function () {
    this.timeout(60_000);
    let upstream: ModernUpstream;
    let svc: ListeningService;
    const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);

    before(async () => {
      upstream = await startModernUpstream();
      svc = await startListeningService(engine, {
        upstreams: {
          servers: {
            modern: { system: 'MODERN', transport: 'streamable-http', url: upstream.url, defaults: OPEN },
            modernstdio: { system: 'MODERNSTDIO', transport: 'stdio', command: process.execPath, args: [MODERN_STDIO], defaults: OPEN },
          },
        },
      });
    });
    after(async () => {
      await svc?.close();
      await upstream?.close();
    });

    it('is imported: the server/discover probe, initialize refused, the probe\'s answer adopted, then every request at 2026-07-28; its schema kept as listed', async () => {
      const { items } = (await owner(request(svc.url).get('/api/upstreams')).expect(200)).body;
      expect(items.find((u: { name: string }) => u.name === 'modern')).to.include({ status: 'ok', system: 'MODERN', tools: 1 });
      const { capability } = svc.switchyard.registry.require('MODERN_ECHO');
      expect(capability).to.include({ tool: 'echo', title: 'Echo', runner: 'mcp:modern' });
      expect(capability.inputs).to.deep.equal({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { message: { type: 'string', minLength: 1 } }, required: ['message'] });
      // Its tools say listChanged (the SDK's McpServer declares it): a subscriptions/listen for that is opened beside, in no fixed order.
      expect(upstream.seen.map((s) => s.method).filter((m) => m !== 'subscriptions/listen')).to.deep.equal(['server/discover', 'initialize', 'tools/list']);
      expect(upstream.seen.filter((s) => s.method === 'subscriptions/listen')).to.have.length(1);
      expect(upstream.seen.filter((s) => s.method !== 'initialize').every((s) => s.version === '2026-07-28')).to.equal(true);
    });

    it('hears its tools/list_changed on the subscriptions/listen stream Switchyard holds, and lists its tools again', async () => {
      const listed = () => upstream.seen.filter((s) => s.method === 'tools/list').length;
      const before = listed();
      upstream.addTool('shout');
      for (;;) {
        if (listed() > before) break;
        await new Promise((r) => setTimeout(r, 25));
      }
      expect(upstream.seen.at(-1)).to.deep.equal({ method: 'tools/list', version: '2026-07-28' });
    });

    it('answers a 2025 caller\'s resources/subscribe -32601 when the 2026-only upstream does not honor resource subscriptions on its listen', async () => {
      const client = new Client({ name: 'era-test', version: '0.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp/servers/modern`), { requestInit: { headers: { 'x-sheets-key': TEST_API_KEY } } }));
      try {
        const refused = await client.subscribeResource({ uri: 'memo://nothing' }).then(() => null, (err: unknown) => err);
        expect(refused).to.be.instanceOf(McpError);
        expect((refused as McpError).code).to.equal(-32601);
        expect((refused as McpError).message).to.contain('did not honor a subscription to memo://nothing');
      } finally {
        await client.close();
      }
    });

    it('runs its tool from /api/dispatch into the ledger; arguments its schema refuses never reach it', async () => {
      const ran = (await owner(request(svc.url).post('/api/dispatch')).send({ key: 'MODERN_ECHO', body: { message: 'hello' } }).expect(200)).body;
      expect(ran.invocation.ok).to.equal(true);
      expect(ran.result).to.deep.equal({ message: 'hello', era: 'modern' });
      const stored = (await owner(request(svc.url).get(`/api/invocations/${ran.invocation.id}`)).expect(200)).body.invocation;
      expect(stored).to.include({ key: 'MODERN_ECHO', ok: true });
      const calls = upstream.seen.filter((s) => s.method === 'tools/call').length;
      const refused = (await owner(request(svc.url).post('/api/dispatch')).send({ key: 'MODERN_ECHO', body: { message: '' } })).body;
      expect(refused.invocation.ok).to.equal(false);
      expect(refused.invocation.error.code).to.equal('invalid_arguments');
      expect(upstream.seen.filter((s) => s.method === 'tools/call').length).to.equal(calls);
    });

    it('is imported and run over stdio too', async () => {
      expect(svc.switchyard.registry.require('MODERNSTDIO_ECHO').capability.inputs).to.have.property('$schema', 'https://json-schema.org/draft/2020-12/schema');
      const ran = (await owner(request(svc.url).post('/api/dispatch')).send({ key: 'MODERNSTDIO_ECHO', body: { message: 'piped' } }).expect(200)).body;
      expect(ran.invocation.ok).to.equal(true);
      expect(ran.result).to.deep.equal({ message: 'piped', era: 'modern' });
    });

    it('serves its tool to a 2025 MCP client on /mcp/servers/<name>: the eras are bridged', async () => {
      const client = new Client({ name: 'era-test', version: '0.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp/servers/modern`), { requestInit: { headers: { 'x-sheets-key': TEST_API_KEY } } }));
      try {
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name)).to.deep.equal(['echo']);
        const result = await client.callTool({ name: 'echo', arguments: { message: 'bridged' } });
        expect(result.isError).to.equal(false);
        expect(result.structuredContent).to.deep.include({ message: 'bridged', era: 'modern' });
        expect(upstream.seen.at(-1)).to.deep.equal({ method: 'tools/call', version: '2026-07-28' });
      } finally {
        await client.close();
      }
    });
  });
}
