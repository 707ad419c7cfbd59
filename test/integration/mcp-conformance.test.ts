// The official MCP conformance suite's server scenarios, run against a reference upstream directly
// and through Switchyard's /mcp/servers/<name> (imported, every call a ledgered run): every scenario
// that passes directly passes through the gateway, with no exceptions.
import { expect } from 'chai';
import request from 'supertest';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';
import { startConformanceUpstream, type ConformanceUpstream } from '../support/conformance-upstream.js';
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

    it('ledgers every tool call the suite made through the gateway under its capability key', async () => {
      const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);
      const ledger = await owner(request(svc.url).get('/api/invocations?object_id=CONFORMANCE_TEST_SIMPLE_TEXT')).expect(200);
      const items = ledger.body.items as { key: string; source?: string; ok: boolean }[];
      expect(items.length).to.be.greaterThan(0);
      expect(items.every((i) => i.key === 'CONFORMANCE_TEST_SIMPLE_TEXT' && i.ok)).to.equal(true);
    });
  });
}
