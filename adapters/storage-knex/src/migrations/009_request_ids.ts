// The id of the HTTP request behind each run and delivery (x-request-id, echoed to the client
// and in the logs), so a log line leads to its ledger records. A nullable column added, no row
// updated: the append-only triggers allow it. Not part of any leaf.
import type { Migration } from './migration.js';

const migration: Migration = {
  name: '009_request_ids',
  async up(knex) {
    for (const table of ['invocations', 'deliveries']) await knex.schema.alterTable(table, (t) => t.string('request_id', 128).nullable());
  },
  async down(knex) {
    for (const table of ['invocations', 'deliveries']) await knex.schema.alterTable(table, (t) => t.dropColumn('request_id'));
  },
};

export default migration;
