// The conformance suite 0.2.0-alpha.12's client scenarios against Switchyard's upstream client
// (test/support/conformance-client.ts: import the scenario server's tools, call each with the
// example built from its schema), at each era's wire: tools_call against a 2025-11-25 server and
// against one that speaks only 2026-07-28 (initialize refused with -32020, then 2026-07-28).
import { expect } from 'chai';
import { CONFORMANCE_2026_CLI, runClientScenario } from '../support/conformance.js';

describe('MCP conformance suite 0.2.0-alpha.12: client scenarios against our upstream client', function () {
  this.timeout(300_000);
  const at = (version: string) => ({ cli: CONFORMANCE_2026_CLI, args: ['--spec-version', version] });
  const failures = (r: { checks: Array<{ id: string; status: string }> }) => r.checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING').map((c) => c.id).sort();

  for (const version of ['2025-11-25', '2026-07-28']) {
    it(`tools_call at ${version}: imports the server's tools and calls add_numbers`, async () => {
      const result = await runClientScenario('tools_call', {}, at(version));
      expect(failures(result), result.log.slice(-2000)).to.deep.equal([]);
      expect(result.passed).to.equal(true);
      expect(result.checks.map((c) => c.id)).to.include('tool-add-numbers');
    });
  }

  it('request-metadata at 2026-07-28: every request after the first carries the envelope; the first is our initialize', async () => {
    // Known and kept on purpose: the client opens with initialize (what every 2025 upstream needs,
    // at no extra cost to them), so the scenario sees that one request without the 2026 header and
    // _meta, then the 2026-07-28 retry with both. A probe-first client would pass it.
    const result = await runClientScenario('request-metadata', {}, at('2026-07-28'));
    expect(failures(result)).to.deep.equal(['sep-2575-client-populates-meta', 'sep-2575-client-sends-client-info', 'sep-2575-http-client-sends-version-header']);
    const passed = result.checks.filter((c) => c.status === 'SUCCESS').map((c) => c.id).sort();
    // Its 2026 connection declares elicitation, sampling and roots (the eras are bridged: an upstream's questions reach the caller).
    expect(passed).to.deep.equal(['sep-2575-client-declares-elicitation-capability', 'sep-2575-client-declares-roots-capability', 'sep-2575-client-declares-sampling-capability', 'sep-2575-client-retry-supported-version', 'sep-2575-http-version-header-matches-meta']);
  });
});
