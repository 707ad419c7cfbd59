// Share-token uses: every use of a token is a ledger entry under its fingerprint (and a leaf of
// the Merkle log); use slots make a uses= caveat exact under concurrency (one row per use, the
// primary key refuses a second claim of the same slot).
import { dialectFor } from '../dialect.js';
import type { Migration } from './migration.js';

const migration: Migration = {
  name: '006_token_uses',
  async up(knex) {
    const dialect = dialectFor(knex);
    await knex.schema.createTable('token_uses', (t) => {
      t.bigIncrements('seq').primary();
      t.string('id', 40).notNullable().unique();
      t.string('fingerprint', 40).notNullable();
      t.string('move', 200).notNullable();
      t.string('outcome', 16).notNullable();
      t.string('code', 40).nullable();
      t.text('route').notNullable();
      t.string('at', 40).notNullable();
      t.index(['fingerprint', 'seq']);
    });
    await knex.schema.createTable('token_use_slots', (t) => {
      t.string('fingerprint', 40).notNullable();
      t.integer('slot').notNullable();
      t.primary(['fingerprint', 'slot']);
    });
    for (const table of ['token_uses', 'token_use_slots']) for (const sql of dialect.appendOnly(table)) await knex.raw(sql);
    for (const sql of dialect.enqueueForLog('token_uses', 'token_use', 'id')) await knex.raw(sql);
  },
  async down(knex) {
    const dialect = dialectFor(knex);
    await knex.raw(dialect.dropEnqueueForLog('token_uses'));
    for (const table of ['token_uses', 'token_use_slots']) for (const sql of dialect.dropAppendOnly(table)) await knex.raw(sql);
    for (const table of ['token_use_slots', 'token_uses']) await knex.schema.dropTable(table);
  },
};

export default migration;
