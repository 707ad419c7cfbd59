// 024b: idempotency keys expire. The run sweeper deletes keys first used more than 24 h ago,
// oldest first and a bounded number at a time: this index finds them without a scan.
import type { Migration } from './migration.js';

const migration: Migration = {
  name: '024b_idempotency_keys_created_at',
  async up(knex) {
    await knex.raw('CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at)');
  },
  async down(knex) {
    await knex.raw('DROP INDEX idempotency_keys_created_at');
  },
};

export default migration;
