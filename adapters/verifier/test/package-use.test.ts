// The verifier as another program uses it: imported by its package name, checking a log it did not
// build itself, with nothing but what the log publishes.
import { expect } from 'chai';
import {
  NoteError,
  ProofError,
  bundleFor,
  checkpointText,
  commitment,
  entryBundle,
  formatTlogProof,
  generateSignerSeed,
  hashChildren,
  hashLeaf,
  inclusionProof,
  noteSigner,
  opensCommitment,
  parseEntryBundle,
  rootHash,
  signNote,
  tileHashes,
  tileBytes,
  verifyTlogProof,
  type NodeLookup,
} from '@switchyard/verifier';

const ORIGIN = 'log.example/ledger';

/** A log of `n` leaves held in memory, as a publisher would keep it. */
function publish(n: number) {
  const leaves = Array.from({ length: n }, (_, i) => JSON.stringify({ id: `inv_${String(i).padStart(8, '0')}`, commitment: commitment(`salt${i}`, { args: { i } }) }));
  const memo = new Map<string, Uint8Array>();
  const lookup: NodeLookup = ({ level, index }) => {
    const key = `${level}:${index}`;
    if (!memo.has(key)) memo.set(key, level === 0 ? hashLeaf(leaves[index]!) : hashChildren(lookup({ level: level - 1, index: 2 * index }), lookup({ level: level - 1, index: 2 * index + 1 })));
    return memo.get(key)!;
  };
  const signer = noteSigner(ORIGIN, generateSignerSeed());
  const checkpoint = signNote(checkpointText({ origin: ORIGIN, size: n, root: rootHash(n, lookup) }), signer);
  return { leaves, lookup, signer, checkpoint };
}

describe('verifier: used as a package by another program', () => {
  const log = publish(300);

  it('verifies a tlog-proof file of an entry with the pinned key and origin, and refuses a forged one', () => {
    const index = 257;
    const proof = formatTlogProof({ extra: new TextEncoder().encode(log.leaves[index]!), index, proof: inclusionProof(index, 300, log.lookup), checkpoint: log.checkpoint });
    const verified = verifyTlogProof(proof, log.signer.verifierKey, ORIGIN);
    expect(verified).to.deep.include({ index, leafText: log.leaves[index] });
    expect(verified.checkpoint.size).to.equal(300);
    expect(() => verifyTlogProof(proof, log.signer.verifierKey, 'other.example/log')).to.throw(NoteError, /origin/);
    expect(() => verifyTlogProof(proof, noteSigner(ORIGIN, generateSignerSeed()).verifierKey)).to.throw(NoteError);
    const forged = proof.replace(/^extra .*$/m, `extra ${Buffer.from(log.leaves[index]!.replace('inv_', 'inv_X')).toString('base64')}`);
    expect(() => verifyTlogProof(forged, log.signer.verifierKey)).to.throw(ProofError);
  });

  it('opens a leaf commitment with the salt and the private fields of a receipt, and nothing else', () => {
    expect(opensCommitment(log.leaves[5]!, 'salt5', { args: { i: 5 } })).to.equal(true);
    expect(opensCommitment(log.leaves[5]!, 'salt5', { args: { i: 6 } })).to.equal(false);
    expect(opensCommitment(log.leaves[5]!, 'salt6', { args: { i: 5 } })).to.equal(false);
  });

  it('reads entry bundles and tiles: each entry hashes to its level-0 tile hash', () => {
    const ref = bundleFor(299, 300);
    expect(ref).to.deep.equal({ level: 'entries', index: 1, width: 44 });
    const bundle = entryBundle(log.leaves.slice(256).map((l) => new TextEncoder().encode(l)));
    const tile = tileBytes(log.leaves.slice(256).map((l) => hashLeaf(l)));
    const hashes = tileHashes(tile, ref.width);
    parseEntryBundle(bundle).forEach((entry, i) => expect(Buffer.from(hashLeaf(entry)).equals(Buffer.from(hashes[i]!))).to.equal(true));
    expect(() => tileHashes(tile, 45)).to.throw(/width 45/);
  });
});
