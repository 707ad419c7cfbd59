// Processes sharing one PostgreSQL database may start at the same instant on a fresh one (a deploy
// of several api processes and workers): every one of them opens it, none fails on the schema's
// creation, and the schema is migrated once.
import { expect } from 'chai';
import { openDatabase } from '@switchyard/storage-knex';
import { engines, freshDatabase } from '../support/app.js';

if (engines().includes('postgres')) {
  describe('migrations: several processes opening one fresh PostgreSQL database at once', function () {
    this.timeout(120_000);

    it('all open it; the schema is migrated once', async () => {
      const db = await freshDatabase('postgres', { empty: true });
      const opened = await Promise.allSettled(Array.from({ length: 4 }, () => openDatabase(db.url, { leafWorker: false })));
      try {
        expect(opened.map((o) => (o.status === 'rejected' ? String(o.reason) : 'opened'))).to.deep.equal(['opened', 'opened', 'opened', 'opened']);
        const first = (opened[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof openDatabase>>>).value;
        const rows = (await first.knex('knex_migrations').select('name')) as Array<{ name: string }>;
        expect(rows.length).to.be.greaterThan(0);
        expect(new Set(rows.map((r) => r.name)).size).to.equal(rows.length);
      } finally {
        for (const o of opened) if (o.status === 'fulfilled') await o.value.close();
        await db.drop();
      }
    });
  });
}
