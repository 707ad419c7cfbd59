// 021: client rate limits shared by every process on one database (PostgreSQL binds the store
// that uses it; SQLite, one process, keeps its windows in memory). One row per (bucket, client):
// the window's start (ms) and the requests counted in it.
import type { Migration } from './migration.js';

const migration: Migration = {
  name: '021_client_rate_windows',
  async up(knex) {
    await knex.schema.createTable('client_rate_windows', (t) => {
      t.string('bucket', 40).notNullable();
      t.string('client', 64).notNullable();
      t.bigInteger('window_start').notNullable();
      t.integer('count').notNullable();
      t.primary(['bucket', 'client']);
    });
    await knex.raw('CREATE INDEX client_rate_windows_start ON client_rate_windows (window_start)');
  },
  async down(knex) {
    await knex.schema.dropTable('client_rate_windows');
  },
};

export default migration;
