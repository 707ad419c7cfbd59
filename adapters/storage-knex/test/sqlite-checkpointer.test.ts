// The writer never checkpoints; the checkpointer's own connection copies the WAL into the database
// file while the service runs, and truncates it on close.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { newDeliveryEntryId } from '@switchyard/core';
import { KnexDeliveryStore, openDatabase } from '../src/index.js';

describe('SQLite checkpoints off the write path', function () {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'switchyard-ckpt-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const body = new TextEncoder().encode('x'.repeat(4000));
  const append = (store: KnexDeliveryStore, n: number) =>
    Promise.all(
      Array.from({ length: n }, (_, i) =>
        store.append({ id: newDeliveryEntryId(), hook_id: 'hk_ckpt00000000', received_at: new Date().toISOString(), method: 'POST', path: '/hook/hk_ckpt00000000', query: '', headers: [], body, body_size: body.length, client_address: null, delivery_id: `evt_${i}`, delivery_id_rule: 'body:id', signature: null, outcome: 'accepted', refusal: null, action: null }),
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
});
