// The append algorithm of the Merkle log, as Tessera's Integrate: the new leaves of a tree of `size`
// leaves, hashed into the subtrees they complete, and the new root. Pure: the subtrees it needs (those
// on the tree's right edge) come from `readNodes`, and what is stored of what it answers is the
// storage adapter's choice (storage-knex keeps the even levels).
import { hashChildren, rangeNodes, rootHash, type NodeRef } from '@switchyard/verifier';

export type HashedNode = NodeRef & { hash: Uint8Array };

export interface Integration {
  /** The tree's size after the append. */
  size: number;
  root: Uint8Array;
  /** Every subtree above the leaves (level ≥ 1) that the new leaves complete, bottom-up per leaf. */
  nodes: HashedNode[];
}

/**
 * Appends `leafHashes` (RFC 6962 leaf hashes) to a tree of `size` leaves. `readNodes` answers the
 * complete subtrees of [0, size) it is asked for, largest first (the tree's right edge).
 */
export async function integrate(readNodes: (refs: NodeRef[]) => Promise<HashedNode[]>, size: number, leafHashes: readonly Uint8Array[]): Promise<Integration> {
  const known = new Map<string, Uint8Array>();
  const key = (level: number, index: number) => `${level}:${index}`;
  for (const n of await readNodes(rangeNodes(0, size))) known.set(key(n.level, n.index), n.hash);
  const nodes: HashedNode[] = [];
  leafHashes.forEach((hash, i) => {
    const idx = size + i;
    known.set(key(0, idx), hash);
    // A leaf at an odd index completes its parent, and so on up while the subtree is a right child.
    for (let level = 0, index = idx; index % 2 === 1; level++, index = (index - 1) / 2) {
      const parent = hashChildren(known.get(key(level, index - 1))!, known.get(key(level, index))!);
      known.set(key(level + 1, (index - 1) / 2), parent);
      nodes.push({ level: level + 1, index: (index - 1) / 2, hash: parent });
    }
  });
  const newSize = size + leafHashes.length;
  return { size: newSize, root: rootHash(newSize, (n) => known.get(key(n.level, n.index))!), nodes };
}
