// confirm= of an entry the integrator takes from its queue into the tree between confirm's two
// reads (not yet a leaf, then no longer queued) is that leaf, never a 404: seen once in the full
// suite for a pinned tool definition, whose only trace outside the tree is its place in the queue.
import { expect } from 'chai';
import { confirmation } from '../../adapters/http-api/src/proofs.js';

describe('confirmation: an entry integrated between its two reads', () => {
  it('answers the leaf it became, not not_found', async () => {
    const id = 'tdp_0123456789abcdefghij';
    const leafText = JSON.stringify({ v: 1, kind: 'tool_definition', id });
    let leafReads = 0;
    const ledger = {
      // The first read finds no leaf yet; by the second, the integrator has made it one.
      leafFor: async () => (++leafReads === 1 ? undefined : { index: 0, leaf: leafText, leaf_hash: 'ab' }),
      isPending: async () => false,
      latestCheckpoint: async () => ({ size: 1, root: 'r', note: 'example.com/log\n1\nAAAA\n\n— example.com/log AAAA\n' }),
      inclusionProof: async () => [],
      verifierKey: 'example.com/log+00000000+AAAA',
    };
    const answer = await confirmation({ ledger, invocations: {}, deliveries: {} } as never, id, 'http://127.0.0.1');
    expect(answer).to.include({ status: 'integrated', index: 0 });
    expect(leafReads).to.equal(2);
  });

  it('still answers not_found for an id that is neither a leaf nor queued', async () => {
    const ledger = { leafFor: async () => undefined, isPending: async () => false };
    try {
      await confirmation({ ledger, invocations: {}, deliveries: {} } as never, 'tdp_0123456789abcdefghij', 'http://127.0.0.1');
      expect.fail('answered');
    } catch (err) {
      expect((err as { code?: string }).code).to.equal('not_found');
    }
  });
});
