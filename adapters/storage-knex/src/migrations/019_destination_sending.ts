// 019: what a destination takes and gets. Its own cap on sends in flight (below the service's
// per-destination share; null: that share), which of a delivery's headers it receives
// (JSON: "all", "none" or a list of names; null: "all"), and the secret before a rotation,
// signed with too until its grace ends. And the allowlist entries the owner adds at run time
// (beside webhooks.forwarding.allow), read by every process.
import type { Migration } from './migration.js';

const migration: Migration = {
  name: '019_destination_sending',
  async up(knex) {
    await knex.schema.alterTable('destinations', (t) => {
      t.integer('concurrency').nullable();
      t.text('forward_headers').nullable();
      t.string('previous_secret', 100).nullable();
      t.string('previous_secret_until', 40).nullable();
    });
    await knex.schema.createTable('forwarding_allow', (t) => {
      t.string('entry', 300).primary();
      t.string('created_at', 40).notNullable();
    });
  },
  async down(knex) {
    await knex.schema.dropTable('forwarding_allow');
    await knex.schema.alterTable('destinations', (t) => {
      t.dropColumn('previous_secret_until');
      t.dropColumn('previous_secret');
      t.dropColumn('forward_headers');
      t.dropColumn('concurrency');
    });
  },
};

export default migration;
