// The official MCP conformance suite's server scenarios, run against a reference upstream directly
// and through Switchyard's /mcp/servers/<name> (imported, every call a ledgered run): every scenario
// that passes directly passes through the gateway, with no exceptions.
import { expect } from 'chai';
import request from 'supertest';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { TOOLS, startConformanceUpstream, type ConformanceUpstream } from '../support/conformance-upstream.js';
import { runConformance, type ScenarioResult } from '../support/conformance.js';

const OPEN = { auth: 'none', risk: 'low', approval: false };

for (const engine of engines()) {
  describe(`MCP conformance suite through /mcp/servers/<name> (${engine})`, function () {
    this.timeout(180_000);
    let upstream: ConformanceUpstream;
    let svc: ListeningService;
    let direct: Map<string, ScenarioResult>;
    let gateway: Map<string, ScenarioResult>;

    before(async () => {
      upstream = await startConformanceUpstream();
      svc = await startListeningService(engine, { upstreams: { servers: { conformance: { system: 'CONFORMANCE', transport: 'streamable-http', url: upstream.url, defaults: OPEN } } } });
      // The suite's client sends no headers: a keyless token from /start rides in the URL (share=).
      const { token } = (await request(svc.url).get('/start').expect(200)).body as { token: string };
      direct = await runConformance(upstream.url);
      gateway = await runConformance(`${svc.url}/mcp/servers/conformance?share=${encodeURIComponent(token)}`);
    });
    after(async () => {
      await svc?.close();
      await upstream?.close();
    });

    it('runs the tools, resources, prompts, logging, progress and dns-rebinding scenarios directly, and the reference passes them', () => {
      const passing = [...direct].filter(([, r]) => r.passed).map(([name]) => name);
      for (const name of ['server-initialize', 'tools-list', 'tools-call-simple-text', 'tools-call-image', 'tools-call-with-progress', 'tools-call-with-logging', 'resources-subscribe', 'resources-unsubscribe', 'resources-read-binary', 'resources-templates-read', 'prompts-get-with-image', 'completion-complete', 'dns-rebinding-protection']) {
        expect(passing, name).to.include(name);
      }
    });

    it('passes through the gateway every scenario that passes directly', () => {
      const lost = [...direct]
        .filter(([name, r]) => r.passed && !gateway.get(name)?.passed)
        .map(([name]) => ({ name, failures: (gateway.get(name)?.checks ?? []).filter((c) => c.status === 'FAILURE').map((c) => c.errorMessage ?? c.id) }));
      expect(lost).to.deep.equal([]);
      expect([...gateway.keys()].sort()).to.deep.equal([...direct.keys()].sort());
    });

    it('serves the upstream\'s JSON Schema 2020-12 input schema verbatim on /mcp/servers/<name> and in its contract, and checks arguments against it', async () => {
      const listed = TOOLS.find((t) => t.name === 'json_schema_2020_12_tool')!.inputSchema;
      const client = new Client({ name: 'schema-test', version: '0.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp/servers/conformance`), { requestInit: { headers: { 'x-sheets-key': TEST_API_KEY } } }));
      try {
        const tool = (await client.listTools()).tools.find((t) => t.name === 'json_schema_2020_12_tool');
        expect(tool?.inputSchema).to.deep.equal(listed);
      } finally {
        await client.close();
      }
      const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);
      const key = 'CONFORMANCE_JSON_SCHEMA_2020_12_TOOL';
      expect(svc.switchyard.registry.require(key).capability.inputs).to.deep.equal(listed);
      const ran = await owner(request(svc.url).post('/api/dispatch')).send({ key, body: { name: 'Ada', address: { street: 'Main St', city: 'Springfield' } } }).expect(200);
      expect(ran.body.invocation.ok).to.equal(true);
      // Through $ref into $defs, and additionalProperties: false at the top: refused here, never run upstream.
      for (const body of [{ name: 'Ada', address: { street: 5 } }, { name: 'Ada', zip: '12345' }]) {
        const refused = (await owner(request(svc.url).post('/api/dispatch')).send({ key, body })).body;
        expect(refused.invocation.ok, JSON.stringify(body)).to.equal(false);
        expect(refused.invocation.error.code).to.equal('invalid_arguments');
      }
    });

    it('ledgers every tool call the suite made through the gateway under its capability key', async () => {
      const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);
      const ledger = await owner(request(svc.url).get('/api/invocations?object_id=CONFORMANCE_TEST_SIMPLE_TEXT')).expect(200);
      const items = ledger.body.items as { key: string; source?: string; ok: boolean }[];
      expect(items.length).to.be.greaterThan(0);
      expect(items.every((i) => i.key === 'CONFORMANCE_TEST_SIMPLE_TEXT' && i.ok)).to.equal(true);
    });
  });
}
