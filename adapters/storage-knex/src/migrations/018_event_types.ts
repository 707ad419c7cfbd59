// 018: event types. Each delivery keeps the type its sender named (or the webhook's
// event_type_path found) and the rule that found it, indexed for the listings' filter and the
// counts, per webhook and across them. Deliveries stored before keep none: the ledger is not
// rewritten. Webhooks gain the path and a replay window of their own for timestamped schemes.
import { dialectFor } from '../dialect.js';
import { changingColumnsOf } from '../erasure-triggers.js';
import type { Migration } from './migration.js';

const migration: Migration = {
  name: '018_event_types',
  async up(knex) {
    await knex.schema.alterTable('webhooks', (t) => {
      t.string('event_type_path', 220).nullable();
      t.integer('signature_tolerance_s').nullable();
    });
    // On SQLite the body must stay the last column (see rebuildDeliveriesBodyLast).
    await dialectFor(knex).addColumnsBeforeLast(knex, 'deliveries', [['event_type', 'varchar(200)'], ['event_type_rule', 'varchar(240)']]);
    await knex.raw('CREATE INDEX deliveries_event_type_seq ON deliveries (event_type, seq)');
    await knex.raw('CREATE INDEX deliveries_hook_event_type_seq ON deliveries (hook_id, event_type, seq)');
  },
  async down(knex) {
    await knex.raw('DROP INDEX deliveries_hook_event_type_seq');
    await knex.raw('DROP INDEX deliveries_event_type_seq');
    await changingColumnsOf(knex, 'deliveries', async () => {
      for (const column of ['event_type_rule', 'event_type']) await knex.raw(`ALTER TABLE deliveries DROP COLUMN ${column}`);
    });
    await knex.schema.alterTable('webhooks', (t) => {
      t.dropColumn('signature_tolerance_s');
      t.dropColumn('event_type_path');
    });
  },
};

export default migration;
