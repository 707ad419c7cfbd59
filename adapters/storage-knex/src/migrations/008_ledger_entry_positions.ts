// Queued entries and leaves refer to their entry by (kind, seq) as well as by id. Entry ids are
// random by design, so a unique index on (kind, entry_id) took each new leaf to a random page:
// on SQLite that rewrote about one index page per leaf and made the leaf insert most of an
// integration's cost, growing with the log. seq only grows, so the (kind, seq) index is
// appended to at its end; the leaf builder reads entries by seq, the row's own key.
import { dialectFor } from '../dialect.js';
import { SOURCES_AT_008, fillEntrySeq, restoreOddLevels } from './shared.js';
import type { Migration } from './migration.js';

const migration: Migration = {
  name: '008_ledger_entry_positions',
  async up(knex) {
    const dialect = dialectFor(knex);
    await knex.schema.alterTable('ledger_queue', (t) => t.bigInteger('entry_seq').nullable());
    await knex.schema.alterTable('ledger_leaves', (t) => t.bigInteger('entry_seq').nullable());
    // The new triggers first: replacing one locks its table until this migration commits, so a
    // row another process inserts meanwhile waits and is queued with its seq; the backfill below
    // then covers every row queued before. (Stop the service processes before upgrading anyway:
    // an older integrator does not write entry_seq and reads subtrees 008 no longer stores.)
    for (const [table, kind, column] of SOURCES_AT_008) for (const sql of dialect.enqueueWithSeqForLog(table, kind, column)) await knex.raw(sql);
    await fillEntrySeq(knex, 'ledger_queue');
    // Filling in the new column is the one change ever made to existing leaves; the append-only
    // triggers step aside for it inside this migration's transaction.
    for (const sql of dialect.dropAppendOnly('ledger_leaves')) await knex.raw(sql);
    await fillEntrySeq(knex, 'ledger_leaves');
    for (const sql of dialect.appendOnly('ledger_leaves')) await knex.raw(sql);
    await knex.schema.alterTable('ledger_leaves', (t) => {
      t.unique(['kind', 'entry_seq'], { indexName: 'ledger_leaves_kind_entry_seq_unique' });
      t.dropUnique(['kind', 'entry_id']);
    });
  },
  async down(knex) {
    const dialect = dialectFor(knex);
    await knex.schema.alterTable('ledger_leaves', (t) => {
      t.unique(['kind', 'entry_id']);
      t.dropUnique(['kind', 'entry_seq'], 'ledger_leaves_kind_entry_seq_unique');
    });
    for (const [table, kind, column] of SOURCES_AT_008) {
      await knex.raw(dialect.dropEnqueueForLog(table));
      for (const sql of dialect.enqueueForLog(table, kind, column)) await knex.raw(sql);
    }
    for (const sql of dialect.dropEnqueueWithSeq()) await knex.raw(sql);
    await knex.raw('ALTER TABLE ledger_leaves DROP COLUMN entry_seq');
    await knex.raw('ALTER TABLE ledger_queue DROP COLUMN entry_seq');
    // The code before 008 reads a subtree at every level: write back the odd levels.
    await restoreOddLevels(knex);
  },
};

export default migration;
