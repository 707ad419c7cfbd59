// The store contract on every engine under test: a SQLite file, and PostgreSQL when CI gives a URL.
import { expect } from 'chai';
import { KnexApiKeyStore, KnexDeliveryStore, KnexInvocationStore, KnexWebhookStore, migrationNames, openDatabase } from '@switchyard/storage-knex';
import { storeContract } from '../contract/store.contract.js';
import { engines, freshDatabase } from '../support/app.js';

for (const engine of engines()) {
  storeContract(engine, {
    async open() {
      const db = await freshDatabase(engine);
      const database = await openDatabase(db.url);
      let offset = 0;
      return {
        invocations: new KnexInvocationStore(database.knex),
        webhooks: new KnexWebhookStore(database.knex),
        deliveries: new KnexDeliveryStore(database.knex),
        apiKeys: new KnexApiKeyStore(database.knex, () => Date.now() + offset),
        advanceClock: (ms: number) => {
          offset += ms;
        },
        raw: database.knex,
        truncateSupported: database.dialect.name === 'postgresql',
        async close() {
          await database.close();
          await db.drop();
        },
      };
    },
  });

  describe(`storage migrations: ${engine}`, function () {
    it('are applied once and reopening the same database is a no-op that keeps the data', async function () {
      const db = await freshDatabase(engine);
      try {
        const first = await openDatabase(db.url);
        await new KnexApiKeyStore(first.knex).add('sy_reopen', 'test');
        await first.close();
        const second = await openDatabase(db.url);
        const applied = await second.knex('knex_migrations').select('name').orderBy('id');
        expect(applied.map((r: { name: string }) => r.name)).to.deep.equal(migrationNames());
        expect(await new KnexApiKeyStore(second.knex).verify('sy_reopen')).to.equal(true);
        await second.close();
      } finally {
        await db.drop();
      }
    });
  });
}
