import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { hashLeaf, integrate, type HashedNode, type NodeRef } from '../../src/index.js';

const sha256 = (...parts: Uint8Array[]): Uint8Array => new Uint8Array(createHash('sha256').update(Buffer.concat(parts)).digest());
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** MTH(D) of RFC 6962 §2.1, written from the definition: the reference the append is held to. */
function mth(leaves: Uint8Array[]): Uint8Array {
  if (leaves.length === 0) return sha256(new Uint8Array(0));
  if (leaves.length === 1) return leaves[0]!;
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return sha256(Uint8Array.of(1), mth(leaves.slice(0, k)), mth(leaves.slice(k)));
}

describe('core: integrate, the Merkle log’s append', () => {
  it('appended batch by batch, of every size, gives the RFC 6962 root and every completed subtree, reading only the right edge', async () => {
    const leaves = Array.from({ length: 70 }, (_, i) => hashLeaf(`leaf ${i}`));
    const stored = new Map<string, Uint8Array>();
    for (const batch of [1, 2, 3, 5, 8, 13, 1, 1, 36]) {
      const size = stored.size === 0 ? 0 : Math.max(...[...stored.keys()].filter((k) => k.startsWith('0:')).map((k) => Number(k.slice(2)))) + 1;
      const asked: NodeRef[] = [];
      const tree = await integrate(async (refs) => {
        asked.push(...refs);
        return refs.map((r): HashedNode => ({ ...r, hash: stored.get(`${r.level}:${r.index}`)! }));
      }, size, leaves.slice(size, size + batch));
      // It asked for no more than the complete subtrees of the old tree (at most one per level).
      expect(asked.length).to.be.at.most(Math.max(1, Math.ceil(Math.log2(size + 1))));
      for (const r of asked) expect(stored.has(`${r.level}:${r.index}`), `${r.level}:${r.index} stored`).to.equal(true);
      expect(tree.size).to.equal(size + batch);
      expect(hex(tree.root)).to.equal(hex(mth(leaves.slice(0, size + batch))));
      for (let i = 0; i < batch; i++) stored.set(`0:${size + i}`, leaves[size + i]!);
      for (const n of tree.nodes) {
        // Each node is the root of its own 2^level leaves.
        expect(hex(n.hash)).to.equal(hex(mth(leaves.slice(n.index * 2 ** n.level, (n.index + 1) * 2 ** n.level))));
        stored.set(`${n.level}:${n.index}`, n.hash);
      }
    }
    // Every complete subtree above the leaves was answered once: ⌊70 / 2^level⌋ of each level.
    expect([...stored.keys()].filter((k) => !k.startsWith('0:'))).to.have.length(35 + 17 + 8 + 4 + 2 + 1);
  });

  it('an empty append answers the tree as it is', async () => {
    const tree = await integrate(async () => [], 0, []);
    expect({ size: tree.size, nodes: tree.nodes.length, root: hex(tree.root) }).to.deep.equal({ size: 0, nodes: 0, root: hex(sha256(new Uint8Array(0))) });
  });
});
