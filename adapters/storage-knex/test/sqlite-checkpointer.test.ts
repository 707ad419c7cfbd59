// The writer never checkpoints on its own; the checkpointer's connection copies the WAL into the
// database file while the service runs, has the writer start it over once it passes a bound, and
// truncates it on close.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { newDeliveryEntryId } from '@switchyard/core';
import knexFactory from 'knex';
import { KnexDeliveryStore, knexConfig, migrationSource, openDatabase, readerConfig } from '../src/index.js';
import { startCheckpointer } from '../src/sqlite-checkpointer.js';

describe('SQLite checkpoints off the write path', function () {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'switchyard-ckpt-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const body = new TextEncoder().encode('x'.repeat(4000));
  const append = (store: KnexDeliveryStore, n: number, from = 0) =>
    Promise.all(
      Array.from({ length: n }, (_, i) =>
        store.append({ id: newDeliveryEntryId(), hook_id: 'hk_ckpt00000000', received_at: new Date().toISOString(), method: 'POST', path: '/hook/hk_ckpt00000000', query: '', headers: [], body, body_size: body.length, client_address: null, delivery_id: `evt_${from + i}`, delivery_id_rule: 'body:id', event_type: null, event_type_rule: null, signature: null, outcome: 'accepted', refusal: null, action: null, request_id: null }),
      ),
    );

  it('copies committed pages into the database file while running, and leaves no WAL after close', async function () {
    const file = join(dir, 'ckpt.db');
    const db = await openDatabase(`sqlite:${file}`);
    const store = new KnexDeliveryStore(db.knex);
    const before = statSync(file).size;
    await append(store, 500); // about 2 MB: 500 pages, under the 1000 pages where a writer would checkpoint itself
    expect(statSync(`${file}-wal`).size, 'the commits are in the WAL').to.be.greaterThan(1_000_000);
    let grown = statSync(file).size;
    for (let i = 0; i < 40 && grown <= before + 1_000_000; i++) {
      await sleep(100);
      grown = statSync(file).size;
    }
    expect(grown, 'the checkpointer copied the WAL into the file').to.be.greaterThan(before + 1_000_000);
    await db.close();
    expect(!existsSync(`${file}-wal`) || statSync(`${file}-wal`).size === 0, 'WAL truncated or removed on close').to.equal(true);

    const reopened = await openDatabase(`sqlite:${file}`);
    try {
      const [row] = (await reopened.knex('deliveries').count({ n: '*' })) as Array<{ n: number }>;
      expect(Number(row?.n)).to.equal(500);
    } finally {
      await reopened.close();
    }
  });

  /**
   * `commits` commits of four 4 KiB deliveries back to back, with a reader reading throughout, as
   * under steady traffic. Every 25 commits a checkpoint pass starts, as the timer would start one,
   * and runs while the next commits go in. Answers the largest the WAL file grew to.
   */
  async function steadyWrites(file: string, restartFrames: number, commits: number): Promise<{ largestWal: number; written: number; restarts: number }> {
    const url = `sqlite:${file}`;
    const writer = knexFactory(knexConfig(url));
    await writer.migrate.latest({ migrationSource });
    const reader = knexFactory(readerConfig(url));
    const checkpointer = await startCheckpointer(file, { intervalMs: 3_600_000, restartFrames, checkpointOnWriter: () => writer.raw('PRAGMA wal_checkpoint(PASSIVE)') });
    const store = new KnexDeliveryStore(writer);
    let largestWal = 0;
    let written = 0;
    let writing = true;
    try {
      const reading = (async () => {
        while (writing) await reader('deliveries').count({ n: '*' });
      })();
      for (let commit = 0; commit < commits; commit++) {
        if (commit % 25 === 0) void checkpointer.checkpoint();
        await append(store, 4, written);
        written += 4;
        largestWal = Math.max(largestWal, statSync(`${file}-wal`).size);
      }
      writing = false;
      await reading;
      const [row] = (await reader('deliveries').count({ n: '*' })) as Array<{ n: number }>;
      expect(Number(row?.n), 'every committed delivery is there').to.equal(written);
      return { largestWal, written, restarts: checkpointer.restarts };
    } finally {
      writing = false;
      await checkpointer.close();
      await reader.destroy();
      await writer.destroy();
    }
  }

  it('starts the WAL over once it holds restartFrames pages, under steady writes and reads', async function () {
    this.timeout(60_000);
    const pages = 256; // 1 MiB of 4 KiB pages
    const bounded = await steadyWrites(join(dir, 'bounded.db'), pages, 2000);
    const unbounded = await steadyWrites(join(dir, 'unbounded.db'), Number.POSITIVE_INFINITY, 2000);
    // Each delivery is a 4 KiB body, so `written` deliveries are at least that many pages committed.
    expect(unbounded.largestWal, 'passive checkpoints alone let the WAL grow with every commit').to.be.greaterThan(unbounded.written * 4096);
    expect(bounded.restarts, 'the writer was asked to let the WAL start over, again and again').to.be.greaterThan(10);
    // The bound plus what commits between two passes (100 deliveries) and during one: a few MB, where
    // the same writes without the bound grow the WAL past 60 MB. How much commits during one pass
    // depends on how busy the machine is, so the bound is held against that same-run baseline.
    expect(bounded.largestWal, 'the WAL is started over instead of growing').to.be.lessThan(unbounded.largestWal / 4);
  });
});
