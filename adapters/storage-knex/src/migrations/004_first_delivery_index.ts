// Which delivery came first is now decided by a partial unique index on deliveries itself, so
// an accepted delivery is one INSERT (one round trip, no transaction) instead of a claim in a
// second table plus a read. delivery_ids held nothing the deliveries do not; it is dropped.
import { FIRST_DELIVERY, dialectFor } from '../dialect.js';
import type { Migration } from './migration.js';

const migration: Migration = {
  name: '004_first_delivery_index',
  async up(knex) {
    await knex.raw(`CREATE UNIQUE INDEX deliveries_first_by_id ON deliveries (hook_id, delivery_id) WHERE ${FIRST_DELIVERY}`);
    for (const sql of dialectFor(knex).dropAppendOnly('delivery_ids')) await knex.raw(sql);
    await knex.schema.dropTable('delivery_ids');
  },
  async down(knex) {
    await knex.schema.createTable('delivery_ids', (t) => {
      t.string('hook_id', 16).notNullable();
      t.string('delivery_id', 200).notNullable();
      t.string('first_entry', 40).notNullable();
      t.primary(['hook_id', 'delivery_id']);
    });
    await knex.raw(`INSERT INTO delivery_ids (hook_id, delivery_id, first_entry) SELECT hook_id, delivery_id, id FROM deliveries WHERE ${FIRST_DELIVERY}`);
    for (const sql of dialectFor(knex).appendOnly('delivery_ids')) await knex.raw(sql);
    await knex.raw('DROP INDEX deliveries_first_by_id');
  },
};

export default migration;
