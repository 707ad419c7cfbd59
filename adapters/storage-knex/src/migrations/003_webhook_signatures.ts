// Migration 003_webhook_signatures (shipped: never edit it; add a new one).
import type { Migration } from './migration.js';

const migration: Migration = {
  name: '003_webhook_signatures',
  async up(knex) {
    await knex.schema.alterTable('webhooks', (t) => {
      t.string('signature_scheme', 32).nullable();
      // The shared secret is needed in clear to compute HMACs; it is never returned by the API.
      t.text('signature_secret').nullable();
      t.string('signature_header', 100).nullable();
      t.boolean('require_signature').notNullable().defaultTo(false);
    });
    // Adding a nullable column is not an UPDATE of existing rows, so the ledger triggers allow it.
    await knex.schema.alterTable('deliveries', (t) => {
      t.string('signature', 16).nullable();
    });
  },
  async down(knex) {
    await knex.schema.alterTable('deliveries', (t) => t.dropColumn('signature'));
    await knex.schema.alterTable('webhooks', (t) => {
      t.dropColumn('signature_scheme');
      t.dropColumn('signature_secret');
      t.dropColumn('signature_header');
      t.dropColumn('require_signature');
    });
  },
};

export default migration;
