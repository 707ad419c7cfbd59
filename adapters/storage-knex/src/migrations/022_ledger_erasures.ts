// 022: erasure that keeps every proof (docs/proofs.md#erasure). An erasure is a ledger entry of its
// own (kind `erasure`, append-only, queued for the log like the others; one per entry, by the
// unique index); the invocations' and deliveries' UPDATE refusal becomes one that lets through
// exactly the emptying of an erased entry's payload, and nothing else.
import { dialectFor } from '../dialect.js';
import { ERASABLE_TABLES, allowErasureOnly, refuseEveryUpdate } from '../erasure-triggers.js';
import type { Migration } from './migration.js';

const migration: Migration = {
  name: '022_ledger_erasures',
  async up(knex) {
    const dialect = dialectFor(knex);
    await knex.schema.createTable('ledger_erasures', (t) => {
      t.bigIncrements('seq').primary();
      t.string('id', 40).notNullable().unique();
      t.string('entry_kind', 16).notNullable();
      t.string('entry', 40).notNullable().unique();
      // The erased fields as the leaf names them, a JSON array.
      t.text('fields').notNullable();
      t.text('reason').notNullable();
      t.string('reason_sha256', 71).notNullable();
      t.string('erased_at', 40).notNullable();
    });
    for (const sql of dialect.appendOnly('ledger_erasures')) await knex.raw(sql);
    for (const sql of dialect.enqueueWithSeqForLog('ledger_erasures', 'erasure', 'id')) await knex.raw(sql);
    for (const table of ERASABLE_TABLES) await allowErasureOnly(knex, table);
  },
  async down(knex) {
    const dialect = dialectFor(knex);
    for (const table of ERASABLE_TABLES) await refuseEveryUpdate(knex, table);
    await knex.raw(dialect.dropEnqueueForLog('ledger_erasures'));
    for (const sql of dialect.dropAppendOnly('ledger_erasures')) await knex.raw(sql);
    await knex.schema.dropTable('ledger_erasures');
  },
};

export default migration;
