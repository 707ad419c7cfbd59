// 020: pinned tool definitions. One row per pin (the first import of a server, the owner's
// approval of a change, or a server set to accept changes); the newest pin of a key is in force.
// Append-only and a leaf of the Merkle log (kind tool_definition), so which definition a tool
// was served under can be proven. The canonical definition is kept so a change shows as a diff.
import { dialectFor } from '../dialect.js';
import type { Migration } from './migration.js';

const migration: Migration = {
  name: '020_tool_pins',
  async up(knex) {
    const dialect = dialectFor(knex);
    await knex.schema.createTable('tool_pins', (t) => {
      t.bigIncrements('seq').primary();
      t.string('id', 40).notNullable().unique();
      t.string('key', 128).notNullable();
      t.string('server', 64).notNullable();
      t.string('tool', 512).notNullable();
      t.string('definition_hash', 80).notNullable();
      t.text('definition').notNullable();
      t.string('override_hash', 80).nullable();
      t.string('reason', 16).notNullable();
      t.string('pinned_by', 200).notNullable();
      t.string('pinned_at', 40).notNullable();
      t.index(['server', 'tool', 'seq']);
    });
    for (const sql of dialect.appendOnly('tool_pins')) await knex.raw(sql);
    for (const sql of dialect.enqueueWithSeqForLog('tool_pins', 'tool_definition', 'id')) await knex.raw(sql);
  },
  async down(knex) {
    const dialect = dialectFor(knex);
    await knex.raw(dialect.dropEnqueueForLog('tool_pins'));
    for (const sql of dialect.dropAppendOnly('tool_pins')) await knex.raw(sql);
    await knex.schema.dropTable('tool_pins');
  },
};

export default migration;
