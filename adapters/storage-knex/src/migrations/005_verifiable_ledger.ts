// The verifiable ledger: every entry becomes a leaf of an RFC 6962 tree. Entries are queued by
// triggers in the transaction that inserts them (so none is missed, whatever order concurrent
// transactions commit in); an integrator moves them from the queue into the tree. Complete
// subtree hashes are stored, so a proof reads O(log n) rows and a restart rebuilds nothing.
import { dialectFor } from '../dialect.js';
import { LOGGED_TABLES } from './shared.js';
import type { Migration } from './migration.js';

const migration: Migration = {
  name: '005_verifiable_ledger',
  async up(knex) {
    const dialect = dialectFor(knex);
    await knex.schema.createTable('ledger_queue', (t) => {
      t.bigIncrements('seq').primary();
      t.string('kind', 16).notNullable();
      t.string('entry_id', 40).notNullable();
    });
    await knex.schema.createTable('ledger_leaves', (t) => {
      // The leaf's index in the tree (0-based).
      t.bigInteger('idx').primary();
      t.string('kind', 16).notNullable();
      t.string('entry_id', 40).notNullable();
      // The canonical JSON that was hashed, and its RFC 6962 leaf hash (hex).
      t.text('leaf').notNullable();
      t.string('leaf_hash', 64).notNullable();
      t.string('integrated_at', 40).notNullable();
      t.unique(['kind', 'entry_id']);
    });
    await knex.schema.createTable('ledger_nodes', (t) => {
      // The complete subtree of 2^level leaves starting at leaf idx · 2^level, for level ≥ 1
      // (level 0 is each leaf's hash, kept in ledger_leaves).
      t.integer('level').notNullable();
      t.bigInteger('idx').notNullable();
      t.string('hash', 64).notNullable();
      t.primary(['level', 'idx']);
    });
    await knex.schema.createTable('ledger_checkpoints', (t) => {
      t.bigInteger('size').primary();
      t.string('root', 64).notNullable();
      // The signed note (c2sp.org/tlog-checkpoint), whole.
      t.text('note').notNullable();
      t.string('created_at', 40).notNullable();
    });
    // Keys made at first start and shared by every process on the database (insert-once).
    await knex.schema.createTable('ledger_settings', (t) => {
      t.string('name', 64).primary();
      t.text('value').notNullable();
      t.string('created_at', 40).notNullable();
    });
    for (const table of ['ledger_leaves', 'ledger_nodes', 'ledger_checkpoints', 'ledger_settings']) for (const sql of dialect.appendOnly(table)) await knex.raw(sql);
    for (const [table, kind, column] of LOGGED_TABLES) {
      for (const sql of dialect.enqueueForLog(table, kind, column)) await knex.raw(sql);
      // What is already in the ledger joins the log in its own order.
      await knex.raw(`INSERT INTO ledger_queue (kind, entry_id) SELECT '${kind}', ${column} FROM ${table} ORDER BY seq`);
    }
  },
  async down(knex) {
    const dialect = dialectFor(knex);
    for (const [table] of LOGGED_TABLES) await knex.raw(dialect.dropEnqueueForLog(table));
    for (const table of ['ledger_leaves', 'ledger_nodes', 'ledger_checkpoints', 'ledger_settings']) for (const sql of dialect.dropAppendOnly(table)) await knex.raw(sql);
    for (const table of ['ledger_settings', 'ledger_checkpoints', 'ledger_nodes', 'ledger_leaves', 'ledger_queue']) await knex.schema.dropTable(table);
  },
};

export default migration;
