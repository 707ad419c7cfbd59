// The ledger listings' paging rule: cursors, and pages filled within a byte budget.
import { expect } from 'chai';
import { PAGE_BATCH, cursorPosition, fillPage, type LedgerPageRequest, type Page } from '../src/index.js';

interface Entry {
  seq: number;
  text: string;
}

/** A ledger of `sizes.length` entries (seq 1…n) whose texts take the given bytes, read as a store reads it. */
function ledger(sizes: number[]) {
  const entries: Entry[] = sizes.map((n, i) => ({ seq: i + 1, text: 'x'.repeat(n) }));
  const reads: LedgerPageRequest[] = [];
  const read = async (r: LedgerPageRequest): Promise<Page<Entry>> => {
    reads.push(r);
    const at = cursorPosition(r.cursor);
    const ordered = r.order === 'newest' ? [...entries].reverse() : entries;
    const past = ordered.filter((e) => at === null || (r.order === 'newest' ? e.seq < at : e.seq > at));
    const items = past.slice(0, r.limit);
    return { items, next_cursor: past.length > r.limit ? String(items[items.length - 1]!.seq) : null };
  };
  return { read, reads };
}

const render = (e: Entry) => e.text;

describe('core: ledger paging', () => {
  it('takes entries while they fit the budget (texts and their commas) and ends early with a cursor', async () => {
    const { read } = ledger([40, 40, 40, 40]);
    const page = await fillPage(read, { order: 'append', cursor: null, limit: 10 }, render, 81);
    expect(page.items.map((e) => e.seq)).to.deep.equal([1, 2]);
    expect(page.texts.join(',').length).to.equal(81);
    expect(page.next_cursor).to.equal('2');
    const rest = await fillPage(read, { order: 'append', cursor: page.next_cursor, limit: 10 }, render, 81);
    expect(rest.items.map((e) => e.seq)).to.deep.equal([3, 4]);
    expect(rest.next_cursor).to.equal(null);
  });

  it('ends at the limit with a cursor when more follow, and without one at the end', async () => {
    const { read } = ledger([1, 1, 1, 1, 1]);
    expect(await fillPage(read, { order: 'newest', cursor: null, limit: 3 }, render, 1000)).to.deep.include({ next_cursor: '3' });
    expect((await fillPage(read, { order: 'newest', cursor: '3', limit: 3 }, render, 1000)).items.map((e) => e.seq)).to.deep.equal([2, 1]);
    expect(await fillPage(read, { order: 'newest', cursor: null, limit: 5 }, render, 1000)).to.deep.include({ next_cursor: null });
  });

  it('gives an entry too large for the budget alone on its page, in its small form when it has one', async () => {
    const { read } = ledger([10, 500, 10]);
    const first = await fillPage(read, { order: 'append', cursor: null, limit: 10 }, render, 100, () => 'small');
    expect(first).to.deep.include({ texts: ['x'.repeat(10)], next_cursor: '1' });
    const lone = await fillPage(read, { order: 'append', cursor: '1', limit: 10 }, render, 100, () => 'small');
    expect(lone.items.map((e) => e.seq)).to.deep.equal([2, 3]);
    expect(lone.texts[0]).to.equal('small');
    // Without a small form it still comes, alone, so a listing always moves on.
    const whole = await fillPage(read, { order: 'append', cursor: '1', limit: 10 }, render, 100);
    expect(whole).to.deep.include({ texts: ['x'.repeat(500)], next_cursor: '2' });
  });

  it('reads a long page from the store in batches, never more than it needs', async () => {
    const { read, reads } = ledger(Array.from({ length: 250 }, () => 1));
    const page = await fillPage(read, { order: 'append', cursor: null, limit: 230 }, render, 1_000_000);
    expect(page.items).to.have.length(230);
    expect(page.next_cursor).to.equal('230');
    expect(reads.map((r) => r.limit)).to.deep.equal([PAGE_BATCH, PAGE_BATCH, 30]);
    expect(reads.map((r) => r.cursor)).to.deep.equal([null, String(PAGE_BATCH), String(2 * PAGE_BATCH)]);
  });

  it('refuses a cursor it never gave out', () => {
    for (const bad of ['abc', '', '-1', '1e3', '9999999999999999']) expect(() => cursorPosition(bad), bad).to.throw().with.property('code', 'invalid_request');
    expect(cursorPosition('42')).to.equal(42);
    expect(cursorPosition('0'), 'after=0: from the start').to.equal(0);
    expect(cursorPosition(null)).to.equal(null);
  });
});
