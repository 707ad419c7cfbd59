// GroupCommit: concurrent submits share a batch, every caller gets its own result, and a failing
// batch falls back to one commit per item so a bad item fails alone.
import { expect } from 'chai';
import { GroupCommit } from '../src/group-commit.js';

describe('adapter storage-knex: group commit', function () {
  it('puts writes that arrive together into one batch, answering each in order', async function () {
    const batches: number[][] = [];
    const gc = new GroupCommit<number, string>(
      async (items) => {
        batches.push(items);
        await new Promise((r) => setTimeout(r, 5));
        return items.map((i) => `ok:${i}`);
      },
      async (i) => `one:${i}`,
    );
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => gc.submit(i)));
    expect(results).to.deep.equal(Array.from({ length: 20 }, (_, i) => `ok:${i}`));
    expect(batches[0]).to.have.length(20);
    const later = await Promise.all([gc.submit(100), gc.submit(101)]);
    expect(later).to.deep.equal(['ok:100', 'ok:101']);
    expect(batches).to.have.length(2);
  });

  it('keeps batches coming while one is in flight, never more than one at a time', async function () {
    let inFlight = 0;
    let most = 0;
    const gc = new GroupCommit<number, number>(
      async (items) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((r) => setTimeout(r, 2));
        inFlight -= 1;
        return items;
      },
      async (i) => i,
    );
    const waves = [];
    for (let w = 0; w < 5; w++) {
      waves.push(...Array.from({ length: 10 }, (_, i) => gc.submit(w * 10 + i)));
      await new Promise((r) => setTimeout(r, 1));
    }
    expect(await Promise.all(waves)).to.deep.equal(Array.from({ length: 50 }, (_, i) => i));
    expect(most).to.equal(1);
  });

  it('falls back to one commit per item when a batch fails, so only the bad item fails', async function () {
    const gc = new GroupCommit<number, number>(
      async (items) => {
        if (items.includes(3)) throw new Error('batch refused');
        return items;
      },
      async (i) => {
        if (i === 3) throw new Error('item 3 is bad');
        return i * 10;
      },
    );
    const settled = await Promise.allSettled([1, 2, 3, 4].map((i) => gc.submit(i)));
    expect(settled.map((s) => s.status)).to.deep.equal(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(settled.filter((s) => s.status === 'fulfilled').map((s) => (s as PromiseFulfilledResult<number>).value)).to.deep.equal([10, 20, 40]);
  });

  it('reports each batch committed as one statement and each that fell back, with their sizes', async function () {
    const reported: string[] = [];
    const gc = new GroupCommit<number, number>(
      async (items) => {
        if (items.includes(3)) throw new Error('batch refused');
        return items;
      },
      async (i) => i,
      1,
      256,
      { committed: (size) => reported.push(`committed:${size}`), fellBack: (size) => reported.push(`fellBack:${size}`) },
    );
    await Promise.all([1, 2].map((i) => gc.submit(i)));
    await Promise.all([3, 4, 5].map((i) => gc.submit(i)));
    await gc.submit(6);
    expect(reported).to.deep.equal(['committed:2', 'fellBack:3', 'committed:1']);
  });
});
