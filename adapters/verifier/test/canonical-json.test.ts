import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { canonicalJson } from '../src/index.js';
import { VECTORS_DIR, vectorFiles } from './vectors.js';

describe('verifier: RFC 8785 canonical JSON', () => {
  const inputs = vectorFiles('jcs/input');
  it('has the vector files', () => expect(inputs.length).to.be.greaterThan(4));
  for (const { name, text } of inputs) {
    it(`canonicalizes ${name} to exactly the bytes of its output file`, () => {
      const expected = readFileSync(join(VECTORS_DIR, name.replace('jcs/input', 'jcs/output')));
      expect(Buffer.from(canonicalJson(JSON.parse(text)), 'utf8').equals(expected)).to.equal(true);
    });
  }
  it('refuses what JSON cannot say', () => {
    expect(() => canonicalJson(Number.NaN)).to.throw(TypeError);
    expect(() => canonicalJson({ f: () => 1 })).to.throw(TypeError);
  });
});

describe('verifier: canonical JSON, written natively when the keys are already in order', () => {
  // A reference written the slow, obvious way: every object's keys sorted as they are written (an
  // object cannot hold integer-like keys in sorted order: the engine puts them first, ascending).
  const reference = (v: unknown): string => {
    if (Array.isArray(v)) return `[${v.map((x) => (x === undefined ? 'null' : reference(x))).join(',')}]`;
    if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      return `{${Object.keys(o).sort().filter((k) => o[k] !== undefined).map((k) => `${JSON.stringify(k)}:${reference(o[k])}`).join(',')}}`;
    }
    return JSON.stringify(v);
  };
  /** The same value with every object's keys inserted in sorted order. */
  const sortedCopy = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sortedCopy);
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) out[k] = sortedCopy((v as Record<string, unknown>)[k]);
      return out;
    }
    return v;
  };

  // A seeded generator of JSON values: keys in random order (sorted or not), integer-like keys,
  // non-ASCII and escaped characters, lone surrogates, nesting, undefined members.
  let seed = 42;
  const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const KEYS = ['a', 'b', 'B', 'id', 'ä', '€', '10', '9', '2', '\u00e9', 'kind', 'z', '', '\ud83d\ude00', 'a\nb'];
  const STRINGS = ['', 'x', 'quote"back\\slash', 'tab\tnl\n', '\u2028', '\ud800', 'é€😀', '\u0001'];
  const value = (depth: number): unknown => {
    const r = rand();
    if (depth > 3 || r < 0.35) return pick<unknown>([null, true, false, 0, -0, 1.5, -1e21, 1e-7, 123456789012, pick(STRINGS)]);
    if (r < 0.55) return Array.from({ length: Math.floor(rand() * 4) }, () => (rand() < 0.1 ? undefined : value(depth + 1)));
    const keys = [...new Set(Array.from({ length: Math.floor(rand() * 5) }, () => pick(KEYS)))];
    if (rand() < 0.5) keys.sort();
    const out: Record<string, unknown> = {};
    for (const k of keys) out[k] = rand() < 0.1 ? undefined : value(depth + 1);
    return out;
  };

  it('gives exactly the reference bytes for 3,000 generated values, in order or not', () => {
    for (let i = 0; i < 3000; i++) {
      const v = value(0);
      expect(canonicalJson(v), JSON.stringify(v)).to.equal(reference(v));
      expect(canonicalJson(sortedCopy(v))).to.equal(reference(v));
    }
  });

  it('leaves what JSON.stringify would change to the written path', () => {
    // A Date would be written by its toJSON; as an object with no own keys it is {}.
    expect(canonicalJson({ at: new Date(0) })).to.equal('{"at":{}}');
    expect(() => canonicalJson({ a: 1, b: Number.POSITIVE_INFINITY })).to.throw(TypeError);
    expect(() => canonicalJson({ a: [1, () => 2] })).to.throw(TypeError);
    expect(() => canonicalJson({ a: 1n })).to.throw(TypeError, 'cannot canonicalize a bigint');
    expect(() => canonicalJson(undefined)).to.throw(TypeError, 'cannot canonicalize an undefined');
  });
});
