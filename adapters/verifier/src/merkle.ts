// RFC 6962 Merkle trees: the hashing, the root, inclusion and consistency proofs, and their
// verification. Pure: a tree is read through `NodeLookup`, which answers the hash of a complete
// (perfect, aligned) subtree; storage keeps those so a proof reads O(log n) of them.
//
// Verification follows transparency-dev/merkle (proof/verify.go) and is checked against its test
// vectors. One decision of ours: a consistency proof from size 0 is always refused. An empty tree
// commits to nothing, so such a "proof" proves nothing; an auditor starts from a non-empty checkpoint.
import { hash } from 'node:crypto';

export const HASH_SIZE = 32;

// One-shot hashing (crypto.hash): these run for every leaf and every subtree the integrator adds,
// and the one-shot call costs about a third less than a Hash object.
const sha256 = (data: Uint8Array | string): Uint8Array => new Uint8Array(hash('sha256', data, 'buffer'));

const LEAF_PREFIX = Uint8Array.of(0);
const NODE_PREFIX = Uint8Array.of(1);

/** The hash of the empty tree: SHA-256 of nothing. */
export const emptyRoot = (): Uint8Array => sha256(new Uint8Array(0));
/**
 * RFC 6962 §2.1: leaf = SHA-256(0x00 ‖ data); a string is its UTF-8 bytes ("\0" is the one byte
 * 0x00 in UTF-8, so a string leaf is prefixed without copying it into a buffer first).
 */
export const hashLeaf = (data: Uint8Array | string): Uint8Array => sha256(typeof data === 'string' ? `\0${data}` : Buffer.concat([LEAF_PREFIX, data]));
/** RFC 6962 §2.1: node = SHA-256(0x01 ‖ left ‖ right). */
export const hashChildren = (left: Uint8Array, right: Uint8Array): Uint8Array => sha256(Buffer.concat([NODE_PREFIX, left, right]));

/** A complete subtree: the 2^level leaves starting at index · 2^level. Level 0 is a leaf hash. */
export interface NodeRef {
  level: number;
  index: number;
}

/** Answers the hash of a complete subtree the tree already holds. */
export type NodeLookup = (node: NodeRef) => Uint8Array;

/** The largest power of two strictly below n (n ≥ 2). */
function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/**
 * The complete subtrees that make up leaves [start, end), largest first. In an RFC 6962 tree every
 * range that a root or a proof needs decomposes into aligned complete subtrees this way.
 */
export function rangeNodes(start: number, end: number): NodeRef[] {
  const nodes: NodeRef[] = [];
  let position = start;
  while (position < end) {
    let size = 1;
    while (size * 2 <= end - position && position % (size * 2) === 0) size *= 2;
    const level = Math.log2(size);
    nodes.push({ level, index: position / size });
    position += size;
  }
  return nodes;
}

/** MTH(D[start:end]): the complete subtrees of the range, folded from the right. */
export function rangeHash(start: number, end: number, lookup: NodeLookup): Uint8Array {
  if (end <= start) return emptyRoot();
  const nodes = rangeNodes(start, end);
  let hash = lookup(nodes[nodes.length - 1]!);
  for (let i = nodes.length - 2; i >= 0; i--) hash = hashChildren(lookup(nodes[i]!), hash);
  return hash;
}

/** The root of a tree of `size` leaves. */
export const rootHash = (size: number, lookup: NodeLookup): Uint8Array => rangeHash(0, size, lookup);

/** RFC 6962 §2.1.1 PATH(index, D[0:size]), leaf to root. */
export function inclusionProof(index: number, size: number, lookup: NodeLookup): Uint8Array[] {
  if (!(index >= 0 && index < size)) throw new RangeError(`index ${index} is outside a tree of size ${size}`);
  const path = (m: number, start: number, end: number): Uint8Array[] => {
    if (end - start === 1) return [];
    const k = splitPoint(end - start);
    return m < start + k ? [...path(m, start, start + k), rangeHash(start + k, end, lookup)] : [...path(m, start + k, end), rangeHash(start, start + k, lookup)];
  };
  return path(index, 0, size);
}

/** RFC 6962 §2.1.2 PROOF(size1, D[0:size2]). */
export function consistencyProof(size1: number, size2: number, lookup: NodeLookup): Uint8Array[] {
  if (!(size1 > 0 && size1 <= size2)) throw new RangeError(`no consistency proof from size ${size1} to ${size2}`);
  const subproof = (m: number, start: number, end: number, whole: boolean): Uint8Array[] => {
    if (m === end - start) return whole ? [] : [rangeHash(start, end, lookup)];
    const k = splitPoint(end - start);
    return m <= k
      ? [...subproof(m, start, start + k, whole), rangeHash(start + k, end, lookup)]
      : [...subproof(m - k, start + k, end, false), rangeHash(start, start + k, lookup)];
  };
  return subproof(size1, 0, size2, true);
}

/**
 * The complete subtrees a computation reads: run it once against a recording lookup, fetch those
 * nodes from storage, then run it again for real. Keeps this module synchronous and pure.
 */
export function nodesRead(compute: (lookup: NodeLookup) => unknown): NodeRef[] {
  const seen = new Map<string, NodeRef>();
  compute((node) => {
    seen.set(`${node.level}:${node.index}`, node);
    return new Uint8Array(HASH_SIZE);
  });
  return [...seen.values()];
}

// ---- verification (sizes as bigint: the vectors reach 2^64 − 1) ----

export class ProofError extends Error {
  override name = 'ProofError';
}

type Size = number | bigint;

const bitLength = (x: bigint): number => x.toString(2).replace(/^0+/, '').length;
const onesCount = (x: bigint): number => x.toString(2).split('1').length - 1;
const trailingZeros = (x: bigint): number => {
  let n = 0;
  while (x > 0n && (x & 1n) === 0n) {
    x >>= 1n;
    n++;
  }
  return n;
};

const equalBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((v, i) => v === b[i]);

/** The inner part (below the path's turn to the right border) and the border part of a proof. */
function decomposeInclusion(index: bigint, size: bigint): { inner: number; border: number } {
  const inner = bitLength(index ^ (size - 1n));
  return { inner, border: onesCount(index >> BigInt(inner)) };
}

function chainInner(seed: Uint8Array, proof: Uint8Array[], index: bigint): Uint8Array {
  proof.forEach((h, i) => (seed = ((index >> BigInt(i)) & 1n) === 0n ? hashChildren(seed, h) : hashChildren(h, seed)));
  return seed;
}

function chainInnerRight(seed: Uint8Array, proof: Uint8Array[], index: bigint): Uint8Array {
  proof.forEach((h, i) => {
    if (((index >> BigInt(i)) & 1n) === 1n) seed = hashChildren(h, seed);
  });
  return seed;
}

const chainBorderRight = (seed: Uint8Array, proof: Uint8Array[]): Uint8Array => proof.reduce((acc, h) => hashChildren(h, acc), seed);

/** The root implied by a leaf hash and its inclusion proof; throws ProofError on a malformed proof. */
export function rootFromInclusionProof(index: Size, size: Size, leafHash: Uint8Array, proof: Uint8Array[]): Uint8Array {
  const i = BigInt(index);
  const n = BigInt(size);
  if (i < 0n || i >= n) throw new ProofError(`index ${i} is beyond size ${n}`);
  if (leafHash.length !== HASH_SIZE) throw new ProofError(`leaf hash has ${leafHash.length} bytes, want ${HASH_SIZE}`);
  const { inner, border } = decomposeInclusion(i, n);
  if (proof.length !== inner + border) throw new ProofError(`wrong proof size ${proof.length}, want ${inner + border}`);
  return chainBorderRight(chainInner(leafHash, proof.slice(0, inner), i), proof.slice(inner));
}

/** Throws ProofError unless `proof` shows the leaf at `index` in the tree of `size` with `root`. */
export function verifyInclusion(index: Size, size: Size, leafHash: Uint8Array, proof: Uint8Array[], root: Uint8Array): void {
  const computed = rootFromInclusionProof(index, size, leafHash, proof);
  if (!equalBytes(computed, root)) throw new ProofError('inclusion proof does not lead to the root');
}

/** Throws ProofError unless `proof` shows the tree of size1/root1 is a prefix of size2/root2. */
export function verifyConsistency(size1: Size, size2: Size, proof: Uint8Array[], root1: Uint8Array, root2: Uint8Array): void {
  const m = BigInt(size1);
  const n = BigInt(size2);
  if (m < 0n || n < m) throw new ProofError(`size2 (${n}) < size1 (${m})`);
  if (m === 0n) throw new ProofError('a consistency proof from size 0 proves nothing and is refused');
  if (m === n) {
    if (proof.length > 0) throw new ProofError('size1 = size2, but the proof is not empty');
    if (!equalBytes(root1, root2)) throw new ProofError('size1 = size2, but the roots differ');
    return;
  }
  if (proof.length === 0) throw new ProofError('empty proof');

  const decomposed = decomposeInclusion(m - 1n, n);
  const shift = trailingZeros(m);
  const inner = decomposed.inner - shift;
  // The proof starts with the root of the subtree of size 2^shift, unless size1 is that subtree.
  const seedIsRoot1 = m === 1n << BigInt(shift);
  const seed = seedIsRoot1 ? root1 : proof[0]!;
  const rest = seedIsRoot1 ? proof : proof.slice(1);
  if (rest.length !== inner + decomposed.border) throw new ProofError(`wrong proof size ${proof.length}, want ${(seedIsRoot1 ? 0 : 1) + inner + decomposed.border}`);

  const mask = (m - 1n) >> BigInt(shift);
  const hash1 = chainBorderRight(chainInnerRight(seed, rest.slice(0, inner), mask), rest.slice(inner));
  if (!equalBytes(hash1, root1)) throw new ProofError('consistency proof does not lead to the first root');
  const hash2 = chainBorderRight(chainInner(seed, rest.slice(0, inner), mask), rest.slice(inner));
  if (!equalBytes(hash2, root2)) throw new ProofError('consistency proof does not lead to the second root');
}
