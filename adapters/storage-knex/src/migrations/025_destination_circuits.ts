// 025: destinations' circuits and `rate_per_s` slots, shared by every process on PostgreSQL
// (a SQLite process keeps them in memory; the table stays empty there). Times are epoch ms.
import type { Migration } from './migration.js';

const migration: Migration = {
  name: '025_destination_circuits',
  async up(knex) {
    await knex.schema.createTable('destination_circuits', (t) => {
      t.string('destination', 64).primary();
      t.integer('failures').notNullable();
      t.bigInteger('open_until').notNullable();
      t.bigInteger('probe_until').notNullable();
      t.bigInteger('next_slot').notNullable();
    });
  },
  async down(knex) {
    await knex.schema.dropTable('destination_circuits');
  },
};

export default migration;
