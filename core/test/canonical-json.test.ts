import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { canonicalJson } from '../src/index.js';
import { vectorFiles, vectorsDir } from './vectors.js';

describe('core: RFC 8785 canonical JSON', () => {
  const inputs = vectorFiles('jcs/input');
  it('has the vector files', () => expect(inputs.length).to.be.greaterThan(4));
  for (const { name, text } of inputs) {
    it(`canonicalizes ${name} to exactly the bytes of its output file`, () => {
      const expected = readFileSync(join(vectorsDir(), name.replace('jcs/input', 'jcs/output')));
      expect(Buffer.from(canonicalJson(JSON.parse(text)), 'utf8').equals(expected)).to.equal(true);
    });
  }
  it('refuses what JSON cannot say', () => {
    expect(() => canonicalJson(Number.NaN)).to.throw(TypeError);
    expect(() => canonicalJson({ f: () => 1 })).to.throw(TypeError);
  });
});
