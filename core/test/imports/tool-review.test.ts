import { expect } from 'chai';
import { FLAPPING_AFTER, MAX_HELD_PER_SERVER, isFlapping, reviewListing, type HeldTool, type ListedDefinition, type ToolPin } from '../../src/index.js';

const listed = (key: string, hash: string): ListedDefinition => ({ key, tool: key.toLowerCase(), definition_hash: `sha256:${hash}`, definition: `{"name":"${key}","v":"${hash}"}`, override_hash: null });
const pinOf = (l: ListedDefinition): ToolPin => ({ id: `tdp_${l.key}`, key: l.key, server: 'fix', tool: l.tool, definition_hash: l.definition_hash, definition: l.definition, override_hash: l.override_hash, reason: 'first_use', pinned_by: 'first_use', pinned_at: '2026-01-01T00:00:00.000Z' });
const review = (over: { listed: ListedDefinition[]; pins?: ToolPin[]; previous?: HeldTool[]; onChange?: 'hold' | 'accept'; now?: string }) =>
  reviewListing({ server: 'fix', onChange: over.onChange ?? 'hold', listed: over.listed, pins: over.pins ?? [], previous: over.previous ?? [], now: over.now ?? '2026-02-01T00:00:00.000Z' });

describe('core: reviewing a server\'s listing against its pins', () => {
  const a = listed('FIX_A', 'aa');
  const b = listed('FIX_B', 'bb');

  it('pins every tool of a server imported for the first time (trust on first use) and serves them', () => {
    const r = review({ listed: [a, b] });
    expect(r.served).to.deep.equal(['FIX_A', 'FIX_B']);
    expect(r.pins.map((p) => [p.key, p.definition_hash, p.reason])).to.deep.equal([['FIX_A', 'sha256:aa', 'first_use'], ['FIX_B', 'sha256:bb', 'first_use']]);
    expect(r.held).to.deep.equal([]);
  });

  it('serves what matches its pin, holds a changed definition and a new tool, pins nothing', () => {
    const changed = listed('FIX_A', 'a2');
    const fresh = listed('FIX_C', 'cc');
    const r = review({ listed: [changed, b, fresh], pins: [pinOf(a), pinOf(b)] });
    expect(r.served).to.deep.equal(['FIX_B']);
    expect(r.pins).to.deep.equal([]);
    expect(r.held.map((h) => [h.key, h.reason, h.pinned?.definition_hash ?? null, h.listed?.definition_hash])).to.deep.equal([
      ['FIX_A', 'changed', 'sha256:aa', 'sha256:a2'],
      ['FIX_C', 'new', null, 'sha256:cc'],
    ]);
  });

  it('holds a removed tool, never forgets it, and keeps when it was first held', () => {
    const first = review({ listed: [b], pins: [pinOf(a), pinOf(b)], now: '2026-02-01T00:00:00.000Z' });
    expect(first.held).to.have.length(1);
    expect(first.held[0]).to.deep.include({ key: 'FIX_A', reason: 'removed', listed: null, held_since: '2026-02-01T00:00:00.000Z' });
    const again = review({ listed: [b], pins: [pinOf(a), pinOf(b)], previous: first.held, now: '2026-03-01T00:00:00.000Z' });
    expect(again.held[0]!.held_since).to.equal('2026-02-01T00:00:00.000Z');
  });

  it('with onChange accept pins a change or a new tool and serves it, without a hold', () => {
    const r = review({ listed: [listed('FIX_A', 'a2'), listed('FIX_C', 'cc')], pins: [pinOf(a), pinOf(b)], onChange: 'accept' });
    expect(r.served).to.deep.equal(['FIX_A', 'FIX_C']);
    expect(r.pins.map((p) => [p.key, p.reason])).to.deep.equal([['FIX_A', 'accepted'], ['FIX_C', 'accepted']]);
    expect(r.held).to.deep.equal([]);
  });

  it('counts changes in a row: a definition that changes on every refresh is flapping, one that holds still is not', () => {
    let previous: HeldTool[] = [];
    for (let i = 0; i <= FLAPPING_AFTER; i++) {
      previous = review({ listed: [listed('FIX_A', `v${i}`)], pins: [pinOf(a)], previous }).held;
      expect(previous[0]!.changes_in_a_row).to.equal(i);
    }
    expect(isFlapping(previous[0]!)).to.equal(true);
    const still = review({ listed: [listed('FIX_A', `v${FLAPPING_AFTER}`)], pins: [pinOf(a)], previous }).held;
    expect(still[0]!.changes_in_a_row).to.equal(0);
    expect(isFlapping(still[0]!)).to.equal(false);
  });

  it('bounds the hold list of a server that lists thousands of new tools', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => listed(`FIX_T${String(i).padStart(5, '0')}`, `h${i}`));
    const r = review({ listed: [a, ...many], pins: [pinOf(a)] });
    expect(r.held).to.have.length(MAX_HELD_PER_SERVER);
    expect(r.omitted).to.equal(10_000 - MAX_HELD_PER_SERVER);
    expect(r.served).to.deep.equal(['FIX_A']);
  });
});
