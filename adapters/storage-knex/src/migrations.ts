// The one migration set for both engines, kept in code so a build carries its schema with it.
// Add a migration at the end; never edit one that has shipped.
import type { Knex } from 'knex';
import { dialectFor } from './dialect.js';

interface Migration {
  name: string;
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

const migrations: Migration[] = [
  {
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
  },
];

export const migrationSource: Knex.MigrationSource<Migration> = {
  getMigrations: async () => migrations,
  getMigrationName: (m) => m.name,
  getMigration: async (m) => ({ up: m.up, down: m.down }),
};

export const migrationNames = (): string[] => migrations.map((m) => m.name);
