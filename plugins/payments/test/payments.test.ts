// The PAYMENTS plugin: its schema rows, its ranked search, and the simulator over streamable HTTP.
// The capability needs approval, so through dispatch every run is refused (approval_required) until
// approvals exist; the search itself is tested against the upstream directly.
import { expect } from 'chai';
import { McpUpstreamClient } from '@switchyard/mcp';
import { OWNER, CapabilityRegistry, DispatchService, RunnerDirectory, systemClock, type RunningSimulator } from '@switchyard/core';
import { pluginContract } from '../../../test/contract/plugin.contract.js';
import { MemoryInvocationStore } from '../../../test/support/memory-store.js';
import { paymentsPlugin, operations, OperationIndex } from '../src/index.js';

const KEY = 'PAYMENTS_PROCESSOR_API_SEARCH';

async function simulator() {
  const sim: RunningSimulator = await paymentsPlugin.startSimulator!({ host: '127.0.0.1', port: 0 });
  const tools = new McpUpstreamClient({ connectTimeoutMs: 2000 });
  return {
    sim,
    tools,
    host: { options: { upstream: { url: sim.url } }, tools, upstream: { url: sim.url, transport: 'streamable-http' as const } },
    upstreamUrl: sim.url,
    teardown: async () => {
      await tools.close();
      await sim.close();
    },
  };
}

pluginContract(paymentsPlugin, {
  setup: simulator,
  valid: {},
  invalid: { [KEY]: [{}, { query: '' }, { query: 3 }, { query: 'refund', limit: 0 }, { query: 'refund', limit: 21 }, { query: 'refund', limit: 2.5 }, { query: 'refund', limit: '5' }] },
  notRunnable: [KEY],
});

describe('plugin payments: catalogue and search', function () {
  const index = new OperationIndex(operations);

  it('has at least 60 operations, each with method, path, summary and typed parameters, no descriptions', function () {
    expect(operations.length).to.be.at.least(60);
    const seen = new Set<string>();
    for (const op of operations) {
      expect(op.method).to.match(/^(GET|POST|DELETE)$/);
      expect(op.path).to.match(/^\/v1\//);
      expect(op.summary.length).to.be.greaterThan(5);
      for (const p of op.parameters) expect(Object.keys(p)).to.deep.equal(['name', 'type']);
      seen.add(`${op.method} ${op.path}`);
    }
    expect(seen.size, 'no duplicate operations').to.equal(operations.length);
  });

  it('ranks the operation that matches every word first', function () {
    expect(index.search('refund a payment', 5)[0]).to.include({ method: 'POST', path: '/v1/refunds' });
    expect(index.search('cancel subscription', 5)[0]!.path).to.equal('/v1/subscriptions/{subscription}');
    expect(index.search('payouts to bank account', 5)[0]!.path).to.equal('/v1/payouts');
    expect(index.search('zzzz qqqq', 5)).to.deep.equal([]);
    expect(index.search('the of a', 5)).to.deep.equal([]);
  });

  it('honours the limit', function () {
    expect(index.search('customer', 3)).to.have.length(3);
    expect(index.search('customer', 20).length).to.be.greaterThan(5);
  });

  it('answers over streamable HTTP with the default limit of 5 and no parameter descriptions', async function () {
    const h = await simulator();
    try {
      const up = { url: h.sim.url, transport: 'streamable-http' as const };
      const res = await h.tools.callTool(up, 'processor_api_search', { query: 'customer' }, { timeoutMs: 2000 });
      const value = res.value as { count: number; operations: Array<Record<string, unknown>> };
      expect(value.count).to.equal(5);
      expect(Object.keys(value.operations[0]!)).to.deep.equal(['method', 'path', 'summary', 'parameters']);
      for (const op of value.operations) for (const param of op['parameters'] as object[]) expect(Object.keys(param)).to.deep.equal(['name', 'type']);
      const ten = await h.tools.callTool(up, 'processor_api_search', { query: 'list', limit: 10 }, { timeoutMs: 2000 });
      expect((ten.value as { count: number }).count).to.equal(10);
    } finally {
      await h.teardown();
    }
  });

  it('waits for approval through dispatch, never reaching the upstream until approved', async function () {
    const h = await simulator();
    try {
      const registry = new CapabilityRegistry();
      const runners = new RunnerDirectory();
      registry.register(paymentsPlugin.capabilities[0]!, h.upstreamUrl);
      runners.assign(KEY, paymentsPlugin.createRunner(h.host));
      const dispatch = new DispatchService(registry, runners, new MemoryInvocationStore(), systemClock, { timeoutMs: 2000 });
      const { invocation } = await dispatch.dispatch({ key: KEY, body: { query: 'refund' } }, OWNER);
      expect(invocation).to.include({ ok: false, ran: false, status: 'awaiting_approval' });
      expect(invocation.error?.code).to.equal('approval_required');
      const approved = await dispatch.runApproved(invocation, { id: 'apr_t', args_hash: invocation.error!['args_hash'] as string });
      expect(approved.invocation).to.include({ ok: true, ran: true });
      expect((approved.invocation.result as { operations: unknown[] }).operations.length).to.be.greaterThan(0);
    } finally {
      await h.teardown();
    }
  });
});
