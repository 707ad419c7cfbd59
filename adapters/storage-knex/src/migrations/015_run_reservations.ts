// 015: write-ahead. A run is reserved here before its runner is called and the reservation is
// deleted once its outcome is in the ledger; a reservation whose lease lapsed is swept as an
// interrupted invocation. Not a ledger table: it holds runs in flight, the ledger what happened.
// The storage probes: one row per process, written by /healthz to learn whether writes go in.
import type { Migration } from './migration.js';

const migration: Migration = {
  name: '015_run_reservations',
  async up(knex) {
    await knex.schema.createTable('run_reservations', (t) => {
      t.string('id', 40).primary();
      t.string('holder', 40).notNullable();
      t.bigInteger('lease_until').notNullable().index();
      // The invocation record the run ends with if its outcome never arrives (status interrupted).
      t.text('record').notNullable();
    });
    await knex.schema.createTable('storage_probes', (t) => {
      t.string('holder', 40).primary();
      t.string('at', 40).notNullable();
    });
  },
  async down(knex) {
    await knex.schema.dropTable('storage_probes');
    await knex.schema.dropTable('run_reservations');
  },
};

export default migration;
