import { expect } from 'chai';
import { MAX_META_BYTES, metaOverLimit } from '../../src/index.js';

describe('metaOverLimit', () => {
  it("lets an absent _meta and a v2 client's envelope through", () => {
    expect(metaOverLimit(undefined)).to.equal(undefined);
    const envelope = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} }, progressToken: 7 };
    expect(metaOverLimit(envelope)).to.equal(undefined);
  });

  it('counts UTF-8 bytes of the JSON text, the limit itself included', () => {
    // {"a":"…"} is 8 bytes around the string.
    expect(metaOverLimit({ a: 'x'.repeat(MAX_META_BYTES - 8) })).to.equal(undefined);
    expect(metaOverLimit({ a: 'x'.repeat(MAX_META_BYTES - 7) })).to.equal(MAX_META_BYTES + 1);
    expect(metaOverLimit({ a: 'é'.repeat(10) }, 20)).to.equal(28);
  });

  it('measures a value nested far too deep for JSON.stringify without throwing', () => {
    let deep: unknown = {};
    for (let i = 0; i < 100_000; i++) deep = { d: deep };
    expect(metaOverLimit(deep)).to.be.greaterThan(MAX_META_BYTES);
  });
});
