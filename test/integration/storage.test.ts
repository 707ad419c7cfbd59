// The store contract on every engine under test: a SQLite file, and PostgreSQL when CI gives a URL.
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import knexFactory from 'knex';
import { newDeliveryEntryId, newWebhookId } from '@switchyard/core';
import { KnexApiKeyStore, KnexDeliveryStore, KnexInvocationStore, KnexWebhookStore, knexConfig, migrationNames, migrationSource, openDatabase } from '@switchyard/storage-knex';
import { delivery, storeContract } from '../contract/store.contract.js';
import { engines, freshDatabase } from '../support/app.js';

for (const engine of engines()) {
  storeContract(engine, {
    async open() {
      const db = await freshDatabase(engine, { empty: true });
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
      const db = await freshDatabase(engine, { empty: true });
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

    it('010 gives the deliveries already stored their body hash, keeps them first, append-only and logged, and goes back to 009', async function () {
      const db = await freshDatabase(engine, { empty: true });
      const hook = newWebhookId();
      const big = Buffer.alloc(300_000, 'q');
      const row = (id: string, body: Buffer | null, deliveryId: string | null) => ({
        id, hook_id: hook, received_at: new Date().toISOString(), method: 'POST', path: `/hook/${hook}`, query: '', headers: '[["content-type","text/plain"]]',
        body, body_size: body ? body.byteLength : 123_456_789, client_address: null, delivery_id: deliveryId, delivery_id_rule: deliveryId ? 'body:id' : null,
        outcome: body ? 'accepted' : 'refused', refusal: body ? null : '{"code":"payload_too_large","message":"too large"}', action: null, duplicate_of: null, signature: null,
        request_id: body ? 'req-before-010' : null,
      });
      const [first, refused] = [newDeliveryEntryId(), newDeliveryEntryId()];
      try {
        // A database as the service left it at migration 009, with deliveries in it.
        const old = knexFactory(knexConfig(db.url));
        try {
          for (let i = 0; i < 9; i++) await old.migrate.up({ migrationSource });
          await old('deliveries').insert([row(first, big, 'evt_009'), row(refused, null, null)]);
        } finally {
          await old.destroy();
        }
        const database = await openDatabase(db.url);
        try {
          const store = new KnexDeliveryStore(database.knex);
          const listed = (await store.list({ hookId: hook, order: 'append', cursor: null, limit: 10, inlineBodyBytes: 1024 })).items;
          expect(listed.map((d) => d.id)).to.deep.equal([first, refused]);
          expect(listed[0]).to.include({ body: null, body_omitted: true, body_size: 300_000, body_sha256: createHash('sha256').update(big).digest('hex'), request_id: 'req-before-010' });
          expect(listed[1]).to.include({ body: null, body_sha256: null, outcome: 'refused' });
          expect(Buffer.from((await store.get(first))!.body!).equals(big)).to.equal(true);
          // Still the first of its delivery id, still append-only, and new deliveries still queued for the log.
          const again = await store.append(delivery(hook, { delivery_id: 'evt_009' }));
          expect(again).to.include({ duplicate: true, duplicate_of: first });
          let refusedUpdate: unknown;
          await database.knex('deliveries').where({ id: first }).update({ outcome: 'refused' }).catch((e: unknown) => (refusedUpdate = e));
          expect(String(refusedUpdate)).to.match(/append-only/);
          const queued = (await database.knex('ledger_queue').where({ kind: 'delivery' }).select('entry_id', 'entry_seq').orderBy('seq')) as Array<{ entry_id: string; entry_seq: number | string }>;
          expect(queued.map((q) => q.entry_id)).to.deep.equal([first, refused, again.id]);
          expect(Number(queued[2]!.entry_seq)).to.equal(again.seq);
          if (engine === 'sqlite') {
            // The body is the last column, so a listing reads the others without walking it.
            const columns = (await database.knex.raw('PRAGMA table_info(deliveries)')) as Array<{ name: string }>;
            expect(columns[columns.length - 1]!.name).to.equal('body');
          }
        } finally {
          await database.close();
        }
        // Down to 009: the hash column goes, the deliveries and their request ids stay; and up again.
        const back = knexFactory(knexConfig(db.url));
        try {
          await back.migrate.down({ migrationSource, name: '010_delivery_body_hash' });
          expect(await back.schema.hasColumn('deliveries', 'body_sha256')).to.equal(false);
          expect(await back.schema.hasColumn('deliveries', 'request_id')).to.equal(true);
          const kept = (await back('deliveries').select('id', 'request_id').orderBy('seq')) as Array<{ id: string; request_id: string | null }>;
          expect(kept.slice(0, 2)).to.deep.equal([{ id: first, request_id: 'req-before-010' }, { id: refused, request_id: null }]);
          await back.migrate.latest({ migrationSource });
          expect(await back.schema.hasColumn('deliveries', 'body_sha256')).to.equal(true);
        } finally {
          await back.destroy();
        }
      } finally {
        await db.drop();
      }
    });

    it('018 adds event types before the body, keeps every stored delivery, index, trigger and seq, and goes back to the columns before', async function () {
      const db = await freshDatabase(engine, { empty: true });
      const hook = newWebhookId();
      const before018 = migrationNames().indexOf('018_event_types');
      const big = Buffer.alloc(200_000, 'e');
      const first = newDeliveryEntryId();
      try {
        // A database as it stood before 018, with a delivery that claimed an id.
        const old = knexFactory(knexConfig(db.url));
        try {
          for (let i = 0; i < before018; i++) await old.migrate.up({ migrationSource });
          // Inserted as the service before 018 wrote it (the store of today writes the new columns).
          await old('deliveries').insert({
            id: first, hook_id: hook, received_at: new Date().toISOString(), method: 'POST', path: `/hook/${hook}`, query: '', headers: '[]', body: big, body_size: big.byteLength,
            body_sha256: createHash('sha256').update(big).digest('hex'), client_address: null, delivery_id: 'evt_018', delivery_id_rule: 'body:id', outcome: 'accepted', refusal: null,
            action: null, duplicate_of: null, signature: null, request_id: 'req-before-018',
          });
        } finally {
          await old.destroy();
        }
        const database = await openDatabase(db.url);
        try {
          const store = new KnexDeliveryStore(database.knex);
          const kept = (await store.get(first))!;
          expect(kept).to.include({ event_type: null, event_type_rule: null, request_id: 'req-before-018', delivery_id: 'evt_018' });
          expect(Buffer.from(kept.body!).equals(big)).to.equal(true);
          // Still the first of its id (the partial unique index came back), still logged and append-only, seq going on.
          const again = await store.append(delivery(hook, { delivery_id: 'evt_018', event_type: 'push', event_type_rule: 'header:x-github-event' }));
          expect(again).to.include({ duplicate: true, duplicate_of: first });
          expect(again.seq).to.be.greaterThan(kept.seq);
          expect((await store.list({ hookId: hook, eventType: 'push', order: 'newest', cursor: null, limit: 10, inlineBodyBytes: 0 })).items.map((d) => d.id)).to.deep.equal([again.id]);
          const queued = (await database.knex('ledger_queue').where({ kind: 'delivery' }).select('entry_id').orderBy('seq')) as Array<{ entry_id: string }>;
          expect(queued.map((q) => q.entry_id)).to.deep.equal([first, again.id]);
          let refusedUpdate: unknown;
          await database.knex('deliveries').where({ id: first }).update({ event_type: 'forged' }).catch((e: unknown) => (refusedUpdate = e));
          expect(String(refusedUpdate)).to.match(/append-only/);
          if (engine === 'sqlite') {
            const columns = (await database.knex.raw('PRAGMA table_info(deliveries)')) as Array<{ name: string }>;
            expect(columns.map((c) => c.name).slice(-3)).to.deep.equal(['event_type', 'event_type_rule', 'body']);
            const indexes = ((await database.knex('sqlite_master').select('name').where({ type: 'index', tbl_name: 'deliveries' })) as Array<{ name: string }>).map((r) => r.name);
            expect(indexes).to.include.members(['deliveries_id_unique', 'deliveries_hook_id_seq_index', 'deliveries_first_by_id', 'deliveries_event_type_seq', 'deliveries_hook_event_type_seq']);
          }
        } finally {
          await database.close();
        }
        // Down: the new columns go, the deliveries stay; and up again.
        const back = knexFactory(knexConfig(db.url));
        try {
          await back.migrate.down({ migrationSource, name: '018_event_types' });
          expect(await back.schema.hasColumn('deliveries', 'event_type')).to.equal(false);
          expect(await back.schema.hasColumn('webhooks', 'event_type_path')).to.equal(false);
          expect(((await back('deliveries').select('id').orderBy('seq')) as Array<{ id: string }>).map((r) => r.id)[0]).to.equal(first);
          await back.migrate.latest({ migrationSource });
          expect(await back.schema.hasColumn('deliveries', 'event_type_rule')).to.equal(true);
        } finally {
          await back.destroy();
        }
      } finally {
        await db.drop();
      }
    });
  });
}
