// The conformance suite 0.2.0-alpha.12's client scenarios against Switchyard's upstream client
// (test/support/conformance-client.ts: import the scenario server's tools and call each, with the
// calls the scenario names or the example built from its schema, a caller answering what the
// upstream asks), at each era's wire: every client scenario the two revisions' frozen requirements
// list (auth included), then tools_call and request-metadata in detail.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { PROJECT_ROOT } from '@switchyard/app';
import { CONFORMANCE_2026_CLI, inPairs, runClientScenario, type ScenarioResult } from '../support/conformance.js';

/** The client scenarios a revision's frozen requirements list (requirements/<revision>.yaml, `client:`). */
function requiredClientScenarios(revision: string): string[] {
  const text = readFileSync(join(PROJECT_ROOT, 'node_modules', '@modelcontextprotocol', 'conformance-2026', 'requirements', `${revision}.yaml`), 'utf8');
  const section = text.slice(text.indexOf('\nclient:\n') + '\nclient:\n'.length);
  return [...section.slice(0, section.search(/\n\S/)).matchAll(/^ {2}- (\S+)$/gm)].map((m) => m[1]!);
}

/** Required client scenarios our upstream client fails, per revision, and why. The test fails when one starts passing. */
const CLIENT_FAILS: Record<string, Record<string, string>> = {
  '2025-11-25': {},
  '2026-07-28': {},
};

describe('MCP conformance suite 0.2.0-alpha.12: client scenarios against our upstream client', function () {
  this.timeout(900_000);
  const at = (version: string) => ({ cli: CONFORMANCE_2026_CLI, args: ['--spec-version', version] });
  const failures = (r: { checks: Array<{ id: string; status: string }> }) => r.checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING').map((c) => c.id).sort();
  // Each scenario runs once per revision in this file: the detailed tests below read the run the
  // requirements test made (or make it, when run alone).
  const runs = new Map<string, Promise<ScenarioResult & { log: string }>>();
  const scenarioAt = (scenario: string, version: string) => {
    const key = `${version} ${scenario}`;
    if (!runs.has(key)) runs.set(key, runClientScenario(scenario, {}, at(version)));
    return runs.get(key)!;
  };

  for (const revision of Object.keys(CLIENT_FAILS)) {
    it(`${revision}: every client scenario its requirements list passes at its own wire (the auth scenarios signing in through the owner's consent or registration), but those listed`, async () => {
      const scenarios = requiredClientScenarios(revision);
      expect(scenarios).to.include('tools_call');
      expect(scenarios.filter((name) => name.startsWith('auth/')).length).to.be.greaterThan(10);
      const results: Map<string, ScenarioResult & { log: string }> = await inPairs(scenarios, (scenario) => scenarioAt(scenario, revision));
      const failed = scenarios.filter((name) => !results.get(name)!.passed).sort();
      const why = failed.filter((name) => !(name in CLIENT_FAILS[revision]!)).map((name) => `${name}: ${JSON.stringify(failures(results.get(name)!))}\n${results.get(name)!.log.slice(-800)}`).join('\n\n');
      expect(failed, why).to.deep.equal(Object.keys(CLIENT_FAILS[revision]!).sort());
    });
  }

  for (const version of ['2025-11-25', '2026-07-28']) {
    it(`tools_call at ${version}: imports the server's tools and calls add_numbers`, async () => {
      const result = await scenarioAt('tools_call', version);
      expect(failures(result), result.log.slice(-2000)).to.deep.equal([]);
      expect(result.passed).to.equal(true);
      expect(result.checks.map((c) => c.id)).to.include('tool-add-numbers');
    });
  }

  it('request-metadata at 2026-07-28: every request carries the envelope and the version header, the probe included, and a refused version is retried', async () => {
    // Over streamable HTTP the client probes with server/discover at 2026-07-28 before any
    // initialize, as the revision has a client of both eras do; the scenario refuses the first
    // request (-32022) and sees the retry at a version it offered.
    const result = await scenarioAt('request-metadata', '2026-07-28');
    expect(failures(result), result.log.slice(-2000)).to.deep.equal([]);
    expect(result.passed).to.equal(true);
    const passed = result.checks.filter((c) => c.status === 'SUCCESS').map((c) => c.id).sort();
    // Its 2026 connection declares elicitation, sampling and roots (the eras are bridged: an upstream's questions reach the caller).
    expect(passed).to.deep.equal(['sep-2575-client-declares-elicitation-capability', 'sep-2575-client-declares-roots-capability', 'sep-2575-client-declares-sampling-capability', 'sep-2575-client-populates-meta', 'sep-2575-client-retry-supported-version', 'sep-2575-client-sends-client-info', 'sep-2575-http-client-sends-version-header', 'sep-2575-http-version-header-matches-meta']);
  });
});
