// 023: a destination's transform, a JSONata expression that rewrites a JSON body before it is
// signed and sent (null: sent as received).
import type { Migration } from './migration.js';

const migration: Migration = {
  name: '023_destination_transform',
  async up(knex) {
    await knex.schema.alterTable('destinations', (t) => {
      t.text('transform').nullable();
    });
  },
  async down(knex) {
    await knex.schema.alterTable('destinations', (t) => {
      t.dropColumn('transform');
    });
  },
};

export default migration;
