// Migration 001_invocations_and_api_keys (shipped: never edit it; add a new one).
import { dialectFor } from '../dialect.js';
import type { Migration } from './migration.js';

const migration: Migration = {
  name: '001_invocations_and_api_keys',
  async up(knex) {
    await knex.schema.createTable('invocations', (t) => {
      // seq is the ledger position: append order, and the paging cursor.
      t.bigIncrements('seq').primary();
      t.string('id', 40).notNullable().unique();
      t.string('key', 128).notNullable();
      t.string('actor', 200).notNullable();
      t.string('fingerprint', 100).nullable();
      t.string('status', 24).notNullable();
      t.boolean('ok').notNullable();
      t.boolean('ran').notNullable();
      t.string('repairs', 40).nullable().index();
      t.string('replays', 40).nullable().index();
      t.string('source', 200).notNullable();
      t.string('created_at', 40).notNullable();
      t.integer('duration_ms').notNullable();
      // The whole record as written; the columns above are for queries.
      t.text('record').notNullable();
      t.index(['key', 'seq']);
    });
    for (const sql of dialectFor(knex).appendOnly('invocations')) await knex.raw(sql);

    await knex.schema.createTable('api_keys', (t) => {
      t.increments('id').primary();
      // SHA-256 hex of the key; the key itself is never stored.
      t.string('key_hash', 64).notNullable().unique();
      t.string('label', 200).notNullable();
      t.string('created_at', 40).notNullable();
    });
  },
  async down(knex) {
    await knex.schema.dropTable('api_keys');
    for (const sql of dialectFor(knex).dropAppendOnly('invocations')) await knex.raw(sql);
    await knex.schema.dropTable('invocations');
  },
};

export default migration;
