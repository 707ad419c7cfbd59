import { expect } from 'chai';
import {
  ProofError,
  consistencyProof,
  emptyRoot,
  hashChildren,
  hashLeaf,
  inclusionProof,
  nodesRead,
  rangeNodes,
  rootHash,
  verifyConsistency,
  verifyInclusion,
  type NodeLookup,
} from '../src/index.js';
import { vectorFiles } from './vectors.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const fromHex = (h: string) => new Uint8Array(Buffer.from(h, 'hex'));
const b64 = (s: string) => new Uint8Array(Buffer.from(s, 'base64'));

/** An in-memory tree: every complete subtree's hash, the way storage keeps them. */
function memoryTree(leaves: Uint8Array[]): NodeLookup {
  const levels: Uint8Array[][] = [leaves.map(hashLeaf)];
  while (levels[levels.length - 1]!.length > 1) {
    const below = levels[levels.length - 1]!;
    const next: Uint8Array[] = [];
    for (let i = 0; i + 1 < below.length; i += 2) next.push(hashChildren(below[i]!, below[i + 1]!));
    levels.push(next);
  }
  return ({ level, index }) => {
    const h = levels[level]?.[index];
    if (!h) throw new Error(`no complete subtree ${level}:${index}`);
    return h;
  };
}

/** RFC 6962 MTH straight from the definition, to check the subtree-based root against. */
function mth(leaves: Uint8Array[]): Uint8Array {
  if (leaves.length === 0) return emptyRoot();
  if (leaves.length === 1) return hashLeaf(leaves[0]!);
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return hashChildren(mth(leaves.slice(0, k)), mth(leaves.slice(k)));
}

const EIGHT = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map(fromHex);

describe('verifier: RFC 6962 Merkle tree', () => {
  it('hashes as the RFC says (known answers)', () => {
    expect(hex(emptyRoot())).to.equal('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(hex(hashLeaf(new Uint8Array()))).to.equal('6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d');
    expect(hex(hashLeaf(new TextEncoder().encode('L123456')))).to.equal('395aa064aa4c29f7010acfe3f25db9485bbd4b91897b6ad7ad547639252b4d56');
    // A string is hashed as its UTF-8 bytes, non-ASCII included.
    expect(hex(hashLeaf('L123456'))).to.equal('395aa064aa4c29f7010acfe3f25db9485bbd4b91897b6ad7ad547639252b4d56');
    expect(hex(hashLeaf('Zürich ✓'))).to.equal(hex(hashLeaf(new TextEncoder().encode('Zürich ✓'))));
    expect(hex(hashChildren(new TextEncoder().encode('N123'), new TextEncoder().encode('N456')))).to.equal('aa217fe888e47007fa15edab33c2b492a722cb106c64667fc2b044444de66bbb');
  });

  it('computes the roots of the eight-leaf reference tree from complete subtrees', () => {
    const roots = [
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
      'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
      'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
      '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
      '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
      'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
      '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
    ];
    const lookup = memoryTree(EIGHT);
    roots.forEach((root, i) => expect(hex(rootHash(i + 1, lookup)), `size ${i + 1}`).to.equal(root));
    expect(hex(rootHash(0, lookup))).to.equal(hex(emptyRoot()));
  });

  it('decomposes a range into aligned complete subtrees, largest first', () => {
    expect(rangeNodes(0, 7)).to.deep.equal([{ level: 2, index: 0 }, { level: 1, index: 2 }, { level: 0, index: 6 }]);
    expect(rangeNodes(4, 7)).to.deep.equal([{ level: 1, index: 2 }, { level: 0, index: 6 }]);
    expect(rangeNodes(0, 8)).to.deep.equal([{ level: 3, index: 0 }]);
    expect(rangeNodes(5, 5)).to.deep.equal([]);
  });

  it('generates inclusion and consistency proofs that verify, for every index and size up to 33', () => {
    const leaves = Array.from({ length: 33 }, (_, i) => new TextEncoder().encode(`leaf ${i}`));
    const lookup = memoryTree(leaves);
    for (let size = 1; size <= leaves.length; size++) {
      const root = rootHash(size, lookup);
      expect(hex(root)).to.equal(hex(mth(leaves.slice(0, size))));
      for (let index = 0; index < size; index++) {
        const proof = inclusionProof(index, size, lookup);
        verifyInclusion(index, size, hashLeaf(leaves[index]!), proof, root);
        expect(() => verifyInclusion(index, size, hashLeaf(new TextEncoder().encode('other')), proof, root)).to.throw(ProofError);
      }
      for (let size1 = 1; size1 <= size; size1++) {
        const proof = consistencyProof(size1, size, lookup);
        verifyConsistency(size1, size, proof, rootHash(size1, lookup), root);
        if (size1 < size) expect(() => verifyConsistency(size1, size, proof, root, root)).to.throw(ProofError);
      }
    }
  });

  it('reads O(log n) complete subtrees for a proof', () => {
    const size = 1_000_000;
    const read = nodesRead((lookup) => inclusionProof(123_457, size, lookup));
    expect(read.length).to.be.at.most(2 * Math.ceil(Math.log2(size)));
    expect(nodesRead((lookup) => consistencyProof(999_999, size, lookup)).length).to.be.at.most(2 * Math.ceil(Math.log2(size)));
  });

  it('refuses proofs it cannot make', () => {
    const lookup = memoryTree(EIGHT);
    expect(() => inclusionProof(8, 8, lookup)).to.throw(RangeError);
    expect(() => consistencyProof(0, 8, lookup)).to.throw(RangeError);
    expect(() => consistencyProof(5, 4, lookup)).to.throw(RangeError);
  });

  // Indexes in the vectors reach 2^64 − 1, beyond a JavaScript number: read them as bigint.
  const parse = (text: string) => JSON.parse(text.replace(/"(leafIdx|treeSize|size1|size2)":\s*(\d+)/g, '"$1":"$2"')) as Record<string, unknown>;
  const hashes = (v: unknown) => ((v as string[] | null) ?? []).map(b64);
  /** Runs a verification and checks it fails exactly when the vector wants an error. */
  const expectVerdict = (v: Record<string, unknown>, verify: () => void) => {
    let error: unknown;
    try {
      verify();
    } catch (e) {
      error = e;
    }
    if (error && !(error instanceof ProofError)) throw error;
    expect(Boolean(error), `${v['desc']}: ${(error as Error | undefined)?.message}`).to.equal(v['wantErr']);
  };

  describe('transparency-dev inclusion vectors (wantErr honoured)', () => {
    const files = vectorFiles('rfc6962/inclusion');
    it('has the vector files', () => expect(files.length).to.be.greaterThan(50));
    for (const { name, text } of files) {
      it(name, () => {
        const v = parse(text);
        expectVerdict(v, () => verifyInclusion(BigInt(v['leafIdx'] as string), BigInt(v['treeSize'] as string), b64(v['leafHash'] as string), hashes(v['proof']), b64(v['root'] as string)));
      });
    }
  });

  describe('transparency-dev consistency vectors (wantErr honoured; from size 0 is refused)', () => {
    const files = vectorFiles('rfc6962/consistency');
    it('has the vector files', () => expect(files.length).to.be.greaterThan(50));
    for (const { name, text } of files) {
      it(name, () => {
        const v = parse(text);
        expectVerdict(v, () => verifyConsistency(BigInt(v['size1'] as string), BigInt(v['size2'] as string), hashes(v['proof']), b64(v['root1'] as string), b64(v['root2'] as string)));
      });
    }
    it('refuses a consistency proof from size 0 even between empty-tree roots', () => {
      expect(() => verifyConsistency(0, 0, [], emptyRoot(), emptyRoot())).to.throw(ProofError, /size 0/);
      expect(() => verifyConsistency(0, 3, [], emptyRoot(), emptyRoot())).to.throw(ProofError, /size 0/);
    });
  });
});
