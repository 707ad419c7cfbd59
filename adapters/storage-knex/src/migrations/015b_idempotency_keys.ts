// 015b: Idempotency-Key (POST /api/dispatch): which request a credential's key belongs to and
// which run it started, one row per credential and key. Not a ledger table. (015 had shipped;
// the numbers between it and 018 are others'.)
import type { Migration } from './migration.js';

const migration: Migration = {
  name: '015b_idempotency_keys',
  async up(knex) {
    await knex.schema.createTable('idempotency_keys', (t) => {
      t.string('scope', 120).notNullable();
      t.string('key', 255).notNullable();
      t.string('request_hash', 80).notNullable();
      t.string('invocation', 40).notNullable();
      t.bigInteger('lease_until').notNullable();
      t.bigInteger('created_at').notNullable();
      t.primary(['scope', 'key']);
    });
  },
  async down(knex) {
    await knex.schema.dropTable('idempotency_keys');
  },
};

export default migration;
