// 026: a webhook's own retention (issue 31 item 3): its deliveries' private fields are erased
// after this many days, overriding retention.privateDays; null keeps the global setting.
import type { Migration } from './migration.js';

const migration: Migration = {
  name: '026_webhook_retention',
  async up(knex) {
    await knex.schema.alterTable('webhooks', (t) => {
      t.double('retention_private_days').nullable();
    });
  },
  async down(knex) {
    await knex.schema.alterTable('webhooks', (t) => {
      t.dropColumn('retention_private_days');
    });
  },
};

export default migration;
