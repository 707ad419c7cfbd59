// The owner's decisions on invocations awaiting approval: one per invocation (the unique key
// makes "runs once" atomic), append-only and a leaf of the Merkle log.
import { dialectFor } from '../dialect.js';
import type { Migration } from './migration.js';

const migration: Migration = {
  name: '007_approvals',
  async up(knex) {
    const dialect = dialectFor(knex);
    await knex.schema.createTable('approvals', (t) => {
      t.bigIncrements('seq').primary();
      t.string('id', 40).notNullable().unique();
      t.string('invocation', 40).notNullable().unique();
      t.string('decision', 16).notNullable();
      t.string('args_hash', 80).notNullable();
      t.string('decided_by', 200).notNullable();
      t.string('decided_at', 40).notNullable();
      t.string('run_invocation', 40).nullable();
    });
    await knex.schema.alterTable('invocations', (t) => t.index(['status', 'seq']));
    for (const sql of dialect.appendOnly('approvals')) await knex.raw(sql);
    for (const sql of dialect.enqueueForLog('approvals', 'approval', 'id')) await knex.raw(sql);
  },
  async down(knex) {
    const dialect = dialectFor(knex);
    await knex.raw(dialect.dropEnqueueForLog('approvals'));
    for (const sql of dialect.dropAppendOnly('approvals')) await knex.raw(sql);
    await knex.schema.alterTable('invocations', (t) => t.dropIndex(['status', 'seq']));
    await knex.schema.dropTable('approvals');
  },
};

export default migration;
