// Forwarding: each webhook's destinations (settings that change, like webhooks) and the shared
// schedule of attempts, one row per delivery and destination, claimed with leases. Neither is
// a ledger table: the attempts themselves are invocations.
import type { Migration } from './migration.js';

const migration: Migration = {
  name: '012_forwarding',
  async up(knex) {
    await knex.schema.createTable('destinations', (t) => {
      t.string('id', 24).primary();
      t.string('hook_id', 16).notNullable().index();
      t.string('name', 200).notNullable();
      t.text('url').notNullable();
      t.text('headers').notNullable();
      // The signing secret is needed in clear to sign; it is shown once, at creation.
      t.string('secret', 100).notNullable();
      t.integer('timeout_ms').notNullable();
      t.text('retry').notNullable();
      t.double('rate_per_s').nullable();
      t.integer('ordered').notNullable();
      t.text('filter').nullable();
      t.integer('is_on').notNullable();
      t.string('deleted_at', 40).nullable();
      t.string('created_at', 40).notNullable();
      t.string('updated_at', 40).notNullable();
    });
    await knex.schema.createTable('forward_jobs', (t) => {
      t.bigIncrements('seq').primary();
      t.string('id', 40).notNullable().unique();
      t.string('delivery', 40).notNullable().index();
      t.string('hook_id', 16).notNullable();
      t.string('destination', 24).notNullable();
      t.string('state', 16).notNullable();
      t.integer('attempts').notNullable();
      t.integer('last_status').nullable();
      t.bigInteger('due_at').nullable();
      t.text('invocations').notNullable();
      t.integer('ordered').notNullable();
      t.string('lease_owner', 40).nullable();
      t.bigInteger('lease_until').nullable();
      t.string('created_at', 40).notNullable();
      t.index(['state', 'due_at']);
      t.index(['destination', 'state', 'seq']);
    });
  },
  async down(knex) {
    await knex.schema.dropTable('forward_jobs');
    await knex.schema.dropTable('destinations');
  },
};

export default migration;
