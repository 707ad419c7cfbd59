// The conformance suite of 0.2.0-alpha.12, which scores MCP 2026-07-28, run for two revisions'
// frozen requirements (--requirements 2025-11-25 and --requirements 2026-07-28, each at its own
// wire) against a reference upstream that speaks both eras (the v2 server SDK), directly and through
// Switchyard's /mcp/servers/<name>, on each engine. What fails directly and what is lost through the
// gateway are listed here with their reasons; the test fails when either list changes, a scenario
// that starts passing included, so the lists only ever shrink on purpose.
import { expect } from 'chai';
import request from 'supertest';
import { engines, startListeningService, type ListeningService } from '../support/app.js';
import { startConformanceUpstream2026, type ConformanceUpstream2026 } from '../support/conformance-upstream-2026.js';
import { startCredentialProxy, type CredentialProxy } from '../support/credential-proxy.js';
import { freePort } from '../support/free-port.js';
import { CONFORMANCE_2026_CLI, runConformance, type ScenarioResult } from '../support/conformance.js';

const OPEN = { auth: 'none', risk: 'low', approval: false };

const NO_ASKING_TOOLS = 'the reference has no tools that ask the client (elicitation, sampling) yet';
const NO_TASKS = 'tasks are an extension the reference does not implement';

/** Scenarios the reference upstream fails on its own, per revision, and why. */
const REFERENCE_FAILS: Record<string, Record<string, string>> = {
  '2025-11-25': {
    'elicitation-sep1034-defaults': NO_ASKING_TOOLS,
    'elicitation-sep1330-enums': NO_ASKING_TOOLS,
    'tools-call-elicitation': NO_ASKING_TOOLS,
    'tools-call-sampling': NO_ASKING_TOOLS,
  },
  '2026-07-28': {
    'http-custom-header-server-validation': 'the reference lists no tool with x-mcp-header annotations',
    'json-schema-2020-12': 'the reference\'s 2020-12 tool predates the suite\'s allOf, if/then/else and $anchor checks',
    'server-stateless': 'the reference lists no diagnostic test_missing_capability tool',
    'tasks-capability-negotiation': NO_TASKS,
    'tasks-dispatch-and-envelope': NO_TASKS,
    'tasks-lifecycle': NO_TASKS,
    'tasks-mrtr-composition': NO_TASKS,
    'tasks-mrtr-input': NO_TASKS,
    'tasks-request-headers': NO_TASKS,
    'tasks-request-state-removal': NO_TASKS,
    'tasks-required-task-error': NO_TASKS,
    'tasks-wire-fields': NO_TASKS,
  },
};

/**
 * Scenarios that pass directly but not through the gateway, per revision, and why: none. The
 * reference speaks both eras, and Switchyard speaks each caller its own (a 2026-07-28 caller over a
 * 2026 connection), so the multi-round-trip scenarios reach a 2026 caller as they do directly.
 */
const GATEWAY_LOSES: Record<string, Record<string, string>> = {
  '2025-11-25': {},
  '2026-07-28': {},
};

/**
 * The multi-round-trip scenarios through the gateway in front of the reference's 2026-only twin
 * (Switchyard speaks 2026-07-28 to it): those that pass directly but not through us, and why: none
 * (prompts/get's InputRequiredResult reaches the 2026 caller as it is, forwarded-input.ts).
 */
const MODERN_ONLY_LOSES: Record<string, string> = {};
const INPUT_REQUIRED = /^input-required-result-/;

const passing = (results: Map<string, ScenarioResult>) => [...results].filter(([, r]) => r.passed).map(([name]) => name).sort();
const failing = (results: Map<string, ScenarioResult>) => [...results].filter(([, r]) => !r.passed).map(([name]) => name).sort();

for (const engine of engines()) {
  describe(`MCP conformance suite 0.2.0-alpha.12, 2025-11-25 and 2026-07-28, through /mcp/servers/<name> (${engine})`, function () {
    this.timeout(600_000);
    let upstream: ConformanceUpstream2026;
    let modernOnly: ConformanceUpstream2026;
    let svc: ListeningService;
    let proxy: CredentialProxy;
    let throughModernOnly = new Map<string, ScenarioResult>();
    const direct = new Map<string, Map<string, ScenarioResult>>();
    const gateway = new Map<string, Map<string, ScenarioResult>>();

    before(async () => {
      upstream = await startConformanceUpstream2026();
      modernOnly = await startConformanceUpstream2026({ modernOnly: true });
      const proxyPort = await freePort();
      svc = await startListeningService(engine, {
        upstreams: {
          servers: {
            conformance: { system: 'CONFORMANCE', transport: 'streamable-http', url: upstream.url, defaults: OPEN },
            conformancemodern: { system: 'CONFORMANCEMODERN', transport: 'streamable-http', url: modernOnly.url, defaults: OPEN },
          },
        },
        mcp: { allowedHosts: [`127.0.0.1:${proxyPort}`, `localhost:${proxyPort}`] },
      });
      // The suite sends no headers of its own, and its raw header probes drop the URL's query (where
      // share= could ride): a keyless token from /start goes as a Bearer on every request, added by
      // a proxy in front of the service (its name allowed as a host), as a client configured with the token sends it.
      const { token } = (await request(svc.url).get('/start').expect(200)).body as { token: string };
      proxy = await startCredentialProxy(proxyPort, svc.url, { authorization: `Bearer ${token}` });
      for (const revision of Object.keys(REFERENCE_FAILS)) {
        const suite = { cli: CONFORMANCE_2026_CLI, args: ['--requirements', revision] };
        direct.set(revision, await runConformance(upstream.url, suite));
        gateway.set(revision, await runConformance(`${proxy.url}/mcp/servers/conformance`, suite));
      }
      throughModernOnly = await runConformance(`${proxy.url}/mcp/servers/conformancemodern`, { cli: CONFORMANCE_2026_CLI, args: ['--requirements', '2026-07-28'] });
    });
    after(async () => {
      await proxy?.close();
      await svc?.close();
      await upstream?.close();
      await modernOnly?.close();
    });

    it('2026-07-28: the multi-round-trip scenarios pass through the gateway in front of a 2026-only upstream (the eras bridged), but those listed', () => {
      const asking = passing(direct.get('2026-07-28')!).filter((name) => INPUT_REQUIRED.test(name));
      expect(asking).to.have.length.greaterThan(0);
      expect(asking.filter((name) => !throughModernOnly.get(name)?.passed)).to.deep.equal(Object.keys(MODERN_ONLY_LOSES).sort());
    });

    for (const revision of Object.keys(REFERENCE_FAILS)) {
      it(`${revision}: the reference fails only the scenarios listed, for the reasons given`, () => {
        expect(failing(direct.get(revision)!)).to.deep.equal(Object.keys(REFERENCE_FAILS[revision]!).sort());
      });

      it(`${revision}: every scenario that passes directly passes through the gateway, but those listed`, () => {
        const results = gateway.get(revision)!;
        expect([...results.keys()].sort()).to.deep.equal([...direct.get(revision)!.keys()].sort());
        const lost = passing(direct.get(revision)!).filter((name) => !results.get(name)?.passed);
        expect(lost).to.deep.equal(Object.keys(GATEWAY_LOSES[revision]!).sort());
        // Nothing passes through us that fails directly: the gateway adds no behaviour of its own.
        expect(passing(results).filter((name) => !direct.get(revision)!.get(name)?.passed)).to.deep.equal([]);
      });
    }

    it('scores: at parity in both revisions, 2025-11-25 29 of 33 and 2026-07-28 38 of 50, directly and through the gateway', () => {
      const score = (m: Map<string, ScenarioResult>) => `${passing(m).length}/${m.size}`;
      expect([score(direct.get('2025-11-25')!), score(gateway.get('2025-11-25')!)]).to.deep.equal(['29/33', '29/33']);
      expect([score(direct.get('2026-07-28')!), score(gateway.get('2026-07-28')!)]).to.deep.equal(['38/50', '38/50']);
    });
  });
}
