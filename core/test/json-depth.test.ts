import { expect } from 'chai';
import { nestsDeeperThan, stringifyIteratively } from '../src/index.js';

/** `depth` nested arrays, built without recursion. */
const nested = (depth: number, leaf: unknown = 1): unknown => {
  let value: unknown = leaf;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};

describe('core: JSON depth', () => {
  it('counts containers: scalars are 0, {} and [] are 1', () => {
    expect(nestsDeeperThan('text', 0)).to.equal(false);
    expect(nestsDeeperThan(null, 0)).to.equal(false);
    expect(nestsDeeperThan({}, 0)).to.equal(true);
    expect(nestsDeeperThan({}, 1)).to.equal(false);
    expect(nestsDeeperThan({ a: [1, { b: 2 }] }, 2)).to.equal(true);
    expect(nestsDeeperThan({ a: [1, { b: 2 }] }, 3)).to.equal(false);
  });

  it('finds a deep branch beside shallow ones', () => {
    const value = { wide: Array.from({ length: 100 }, (_, i) => ({ i })), deep: nested(70) };
    expect(nestsDeeperThan(value, 64)).to.equal(true);
    expect(nestsDeeperThan(value, 71)).to.equal(false);
  });

  it('checks a value far deeper than the stack allows recursion for', () => {
    const deep = JSON.parse('['.repeat(200_000) + ']'.repeat(200_000));
    expect(nestsDeeperThan(deep, 64)).to.equal(true);
    expect(stringifyIteratively(deep)).to.have.length(400_000);
  });

  it('writes the same text as JSON.stringify', () => {
    const values: unknown[] = [
      null, true, 0, -1.5, 'a "quoted" \u2028 string', [], {},
      { b: [1, 'two', null, { c: false }], a: { '': [] }, 'k\n': 'v' },
      [undefined, 1],
      { skipped: undefined, kept: 1 },
      nested(50, { x: [nested(5)] }),
    ];
    for (const value of values) expect(stringifyIteratively(value)).to.equal(JSON.stringify(value));
  });
});
