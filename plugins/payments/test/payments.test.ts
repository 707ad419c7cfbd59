// The PAYMENTS plugin: its schema rows, its ranked search, and the simulator over streamable HTTP.
// The capability needs approval, so through dispatch every run is refused (approval_required) until
// approvals exist; the search itself is tested against the upstream directly.
import { expect } from 'chai';
import { OWNER, pluginContract, startPluginHarness } from '@switchyard/plugin-kit/testing';
import { paymentsPlugin } from '../src/index.js';
import { operations, OperationIndex } from '../src/simulator/index.js';

const KEY = 'PAYMENTS_PROCESSOR_API_SEARCH';

const simulator = () => startPluginHarness(paymentsPlugin, { upstream: { url: 'simulator' } });

pluginContract(paymentsPlugin, {
  start: simulator,
  valid: {},
  invalid: { [KEY]: [{}, { query: '' }, { query: 3 }, { query: 'refund', limit: 0 }, { query: 'refund', limit: 21 }, { query: 'refund', limit: 2.5 }, { query: 'refund', limit: '5' }] },
  notRunnable: [KEY],
  // Every run waits for approval, so the suite cannot run one with the owner's credential alone.
  supports: { runs: false },
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
    const { tools } = h;
    try {
      const up = h.loaded.upstream!;
      expect(up.transport).to.equal('streamable-http');
      const res = await tools.callTool(up, 'processor_api_search', { query: 'customer' }, { timeoutMs: 2000 });
      const value = res.value as { count: number; operations: Array<Record<string, unknown>> };
      expect(value.count).to.equal(5);
      expect(Object.keys(value.operations[0]!)).to.deep.equal(['method', 'path', 'summary', 'parameters']);
      for (const op of value.operations) for (const param of op['parameters'] as object[]) expect(Object.keys(param)).to.deep.equal(['name', 'type']);
      const ten = await tools.callTool(up, 'processor_api_search', { query: 'list', limit: 10 }, { timeoutMs: 2000 });
      expect((ten.value as { count: number }).count).to.equal(10);
    } finally {
      await h.close();
    }
  });

  it('waits for approval through dispatch, never reaching the upstream until approved', async function () {
    const h = await simulator();
    try {
      const { dispatch } = h;
      const { invocation } = await dispatch.dispatch({ key: KEY, body: { query: 'refund' } }, OWNER);
      expect(invocation).to.include({ ok: false, ran: false, status: 'awaiting_approval' });
      expect(invocation.error?.code).to.equal('approval_required');
      const approved = await dispatch.runApproved(invocation, { id: 'apr_t', args_hash: invocation.error!['args_hash'] as string });
      expect(approved.invocation).to.include({ ok: true, ran: true });
      expect((approved.invocation.result as { operations: unknown[] }).operations.length).to.be.greaterThan(0);
    } finally {
      await h.close();
    }
  });
});
