// The caller exchange: session ids that carry declared capabilities, and POSTs that only answer our
// questions or withdraw calls in flight, matched to the session that asked.
import { expect } from 'chai';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallerExchange, SessionIds, capabilitiesOf } from '../../src/index.js';

const ids = new SessionIds([new Uint8Array(32).fill(7)]);
const sessionIdFor = (params: unknown) => ids.issue(params, 'owner');

const capturing = () => {
  const sent: { id: string; method: string }[] = [];
  const transport = { send: async (m: { id: string; method: string }) => void sent.push(m) } as unknown as Transport;
  return { sent, transport };
};

describe('adapter mcp: caller exchange', () => {
  it('a session id says what the caller declared, and nothing for ids that are not ours', () => {
    expect(capabilitiesOf(sessionIdFor({ capabilities: { elicitation: {}, sampling: {} } }))).to.deep.equal({ elicitation: true, sampling: true });
    expect(capabilitiesOf(sessionIdFor({ capabilities: { sampling: {} } }))).to.deep.equal({ elicitation: false, sampling: true });
    expect(capabilitiesOf(sessionIdFor({}))).to.deep.equal({ elicitation: false, sampling: false });
    expect(capabilitiesOf('sy1.es')).to.deep.equal({ elicitation: false, sampling: false });
    expect(capabilitiesOf(undefined)).to.deep.equal({ elicitation: false, sampling: false });
    expect(sessionIdFor({})).to.not.equal(sessionIdFor({}));
  });

  it('a session id tells the service issued it, and to whom: forged, altered or re-keyed ids are unknown', () => {
    const id = ids.issue({ capabilities: {} }, 'fp_a');
    expect(ids.check(id, 'fp_a')).to.equal('ours');
    expect(ids.check(id, 'fp_b')).to.equal('another');
    expect(ids.check(id.replace('.-.', '.es.'), 'fp_a')).to.equal('unknown');
    expect(ids.check('sy2.-.forged.tag.mac', 'fp_a')).to.equal('unknown');
    expect(ids.check('not-an-id', 'fp_a')).to.equal('unknown');
    expect(new SessionIds([new Uint8Array(32).fill(8)]).check(id, 'fp_a')).to.equal('unknown');
    // A rotated key list still verifies what the old first key minted.
    expect(new SessionIds([new Uint8Array(32).fill(8), new Uint8Array(32).fill(7)]).check(id, 'fp_a')).to.equal('ours');
  });

  it('routes an answer to the question it answers, from the session asked only', async () => {
    const exchange = new CallerExchange();
    const { sent, transport } = capturing();
    const asked = exchange.ask(transport, 'sy1.e.a', 7, 'elicitation/create', { message: 'name?' }, new AbortController().signal);
    await new Promise((r) => setImmediate(r));
    const id = sent[0]!.id;
    expect(sent[0]).to.deep.include({ method: 'elicitation/create' });
    expect(exchange.intercept({ jsonrpc: '2.0', id, result: { action: 'accept' } }, 'sy1.e.other')).to.equal(false);
    expect(exchange.intercept({ jsonrpc: '2.0', id: 'sy-unknown', result: {} }, 'sy1.e.a')).to.equal(false);
    expect(exchange.intercept({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, 'sy1.e.a')).to.equal(false);
    expect(exchange.intercept({ jsonrpc: '2.0', id, result: { action: 'accept' } }, 'sy1.e.a')).to.equal(true);
    expect(await asked).to.deep.equal({ action: 'accept' });
    expect(exchange.intercept({ jsonrpc: '2.0', id, result: {} }, 'sy1.e.a')).to.equal(false);
  });

  it('withdraws a call in flight of the same session on notifications/cancelled', () => {
    const exchange = new CallerExchange();
    const controller = new AbortController();
    const untrack = exchange.track('sy1.-.a', 3, controller);
    const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } };
    expect(exchange.intercept(cancel, 'sy1.-.b')).to.equal(false);
    expect(controller.signal.aborted).to.equal(false);
    expect(exchange.intercept(cancel, 'sy1.-.a')).to.equal(true);
    expect(controller.signal.aborted).to.equal(true);
    untrack();
    expect(exchange.intercept(cancel, 'sy1.-.a')).to.equal(false);
  });
});
