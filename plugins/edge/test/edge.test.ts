// The EDGE plugin against its simulator over a real SSE transport.
import { expect } from 'chai';
import { pluginContract, startPluginHarness } from '@switchyard/plugin-kit/testing';
import { edgePlugin } from '../src/index.js';
import { ActiveWorkers } from '../src/simulator/index.js';

const W1 = '3f9a1c07d2b84e6fa5c0e1d2b3a49f81';
const W2 = 'aaaaaaaabbbbbbbbccccccccdddddddd';
const KEY = 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER';

pluginContract(edgePlugin, {
  start: () => startPluginHarness(edgePlugin, { upstream: { url: 'simulator' } }),
  valid: { [KEY]: [{ workerId: W1 }, JSON.stringify({ workerId: W2 }), { workerId: W1.toUpperCase() }, { workerId: 'AbCdEf0123456789aBcDeF0123456789' }] },
  invalid: {
    [KEY]: [{}, { workerId: 'not-hex' }, { workerId: 'G'.repeat(32) }, { workerId: `${W1}0` }, { workerId: 42 }, '[1,2]'],
  },
});

describe('plugin edge: manifest and simulator state', function () {
  it('declares JSON Schema draft-07 on its input schema, as the spec says', function () {
    expect(edgePlugin.capabilities[0]!.inputs['$schema']).to.equal('http://json-schema.org/draft-07/schema#');
  });

  it('answers with the previous active worker, per account', function () {
    const state = new ActiveWorkers('acct');
    expect(state.activate(W1).previous_worker_id).to.equal(null);
    expect(state.activate(W2)).to.include({ active_worker_id: W2, previous_worker_id: W1, account_id: 'acct' });
    expect(state.activate(W1, 'other').previous_worker_id).to.equal(null);
    expect(state.current().active_worker_id).to.equal(W2);
  });

  it('keeps state across calls through the SSE upstream', async function () {
    const h = await startPluginHarness(edgePlugin, { upstream: { url: 'simulator' } });
    const client = h.tools;
    try {
      const up = h.loaded.upstream!;
      expect(up.transport).to.equal('sse');
      const first = await client.callTool(up, 'workers_builds_set_active_worker', { workerId: W1 }, { timeoutMs: 2000 });
      const second = await client.callTool(up, 'workers_builds_set_active_worker', { workerId: W2 }, { timeoutMs: 2000 });
      expect(first.value).to.include({ previous_worker_id: null, active_worker_id: W1 });
      expect(second.value).to.include({ previous_worker_id: W1, active_worker_id: W2 });
      // Upper-case hex names the same worker: the simulator keeps ids in lower case.
      const third = await client.callTool(up, 'workers_builds_set_active_worker', { workerId: W1.toUpperCase() }, { timeoutMs: 2000 });
      expect(third.isError).to.equal(false);
      expect(third.value).to.include({ previous_worker_id: W2, active_worker_id: W1 });
      expect(up.url).to.match(/\/sse$/);
    } finally {
      await h.close();
    }
  });
});
