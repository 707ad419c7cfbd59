// 017: witness cosignatures (c2sp.org/tlog-cosignature) of signed checkpoints, one row per
// checkpoint size and witness, kept as the signature line the witness answered. Served after the
// checkpoint's own signature. Append-only like the rest of the log.
import { dialectFor } from '../dialect.js';
import type { Migration } from './migration.js';

const migration: Migration = {
  name: '017_ledger_cosignatures',
  async up(knex) {
    await knex.schema.createTable('ledger_cosignatures', (t) => {
      t.bigInteger('size').notNullable();
      t.string('witness', 200).notNullable();
      t.bigInteger('timestamp').notNullable();
      t.text('line').notNullable();
      t.string('created_at', 32).notNullable();
      t.primary(['size', 'witness']);
    });
    await knex.raw('CREATE INDEX ledger_cosignatures_witness_size ON ledger_cosignatures (witness, size)');
    for (const sql of dialectFor(knex).appendOnly('ledger_cosignatures')) await knex.raw(sql);
  },
  async down(knex) {
    for (const sql of dialectFor(knex).dropAppendOnly('ledger_cosignatures')) await knex.raw(sql);
    await knex.schema.dropTable('ledger_cosignatures');
  },
};

export default migration;
