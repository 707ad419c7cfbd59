// The background tasks a process runs, as the container builds them (adapters/app's
// background-wiring.ts), in their order, per role and engine: every role sweeps its runs; on a
// shared database every role hears the other processes' refreshes; a worker or an `all` process
// also refreshes upstreams, integrates the ledger, forwards and applies retention; witnesses only
// when some are configured.
import { expect } from 'chai';
import { engines, startTestService, type TestService } from '../support/app.js';
import { startTestWitness } from '../support/witness.js';

for (const engine of engines()) {
  describe(`background tasks built by the container, in order (${engine})`, function () {
    this.timeout(30_000);
    const shared = engine === 'postgres';
    const run = async (overrides: Record<string, unknown>): Promise<string[]> => {
      let svc: TestService | undefined;
      try {
        svc = await startTestService(engine, overrides);
        return svc.switchyard.background.names;
      } finally {
        await svc?.close();
      }
    };

    it('an all process runs every task but the witnesses (none configured), the listener only on a shared database', async () => {
      expect(await run({})).to.deep.equal(['run-sweeper', ...(shared ? ['upstream-listener'] : []), 'upstream-refresher', 'integrator', 'forwarder', 'retention']);
    });

    it('configured witnesses add their task between the integrator and the forwarder', async () => {
      const witness = await startTestWitness('witness.test/tasks');
      try {
        expect(await run({ ledger: { witnesses: [{ name: witness.name, vkey: witness.vkey, url: witness.url }] } })).to.deep.equal(['run-sweeper', ...(shared ? ['upstream-listener'] : []), 'upstream-refresher', 'integrator', 'witnesses', 'forwarder', 'retention']);
      } finally {
        await witness.close();
      }
    });

    if (shared) {
      it('an api process runs only what every role runs: the run sweeper and the upstream listener', async () => {
        expect(await run({ role: 'api' })).to.deep.equal(['run-sweeper', 'upstream-listener']);
      });
    }
  });
}
