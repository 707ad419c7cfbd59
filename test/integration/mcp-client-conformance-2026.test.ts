// The conformance suite 0.2.0-alpha.12's client scenarios against Switchyard's upstream client
// (test/support/conformance-client.ts: import the scenario server's tools, call each with the
// example built from its schema), at each era's wire: tools_call against a 2025-11-25 server and
// against one that speaks only 2026-07-28 (found by the server/discover probe), and request-metadata.
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

  it('request-metadata at 2026-07-28: every request carries the envelope and the version header, the probe included, and a refused version is retried', async () => {
    // Over streamable HTTP the client probes with server/discover at 2026-07-28 before any
    // initialize, as the revision has a client of both eras do; the scenario refuses the first
    // request (-32022) and sees the retry at a version it offered.
    const result = await runClientScenario('request-metadata', {}, at('2026-07-28'));
    expect(failures(result), result.log.slice(-2000)).to.deep.equal([]);
    expect(result.passed).to.equal(true);
    const passed = result.checks.filter((c) => c.status === 'SUCCESS').map((c) => c.id).sort();
    // Its 2026 connection declares elicitation, sampling and roots (the eras are bridged: an upstream's questions reach the caller).
    expect(passed).to.deep.equal(['sep-2575-client-declares-elicitation-capability', 'sep-2575-client-declares-roots-capability', 'sep-2575-client-declares-sampling-capability', 'sep-2575-client-populates-meta', 'sep-2575-client-retry-supported-version', 'sep-2575-client-sends-client-info', 'sep-2575-http-client-sends-version-header', 'sep-2575-http-version-header-matches-meta']);
  });
});
