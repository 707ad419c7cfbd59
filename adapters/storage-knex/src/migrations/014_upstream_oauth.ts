// 014: upstreams that sign in with OAuth. The record is sealed
// (AES-256-GCM) by the service before it is written; the lease lets one process refresh at a time.
import type { Migration } from './migration.js';

const migration: Migration = {
  name: '014_upstream_oauth',
  async up(knex) {
    await knex.schema.createTable('upstream_credentials', (t) => {
      t.string('upstream', 64).primary();
      t.text('sealed').notNullable();
      t.integer('version').notNullable();
      t.string('state', 16).notNullable();
      t.string('lease_holder', 64).nullable();
      t.bigInteger('lease_until').nullable();
      t.string('updated_at', 40).notNullable();
    });
  },
  async down(knex) {
    await knex.schema.dropTable('upstream_credentials');
  },
};

export default migration;
