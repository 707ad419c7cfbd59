// 024: repair exclusivity decided by the database. A run reserved as a repair names the failure
// it repairs; the unique index admits one reservation per failure, so two processes repairing
// one failure at the same instant give one run (the other is refused, naming it). Runs that
// repair nothing leave the column null, which the index does not count.
import type { Migration } from './migration.js';

const migration: Migration = {
  name: '024_repair_reservations',
  async up(knex) {
    await knex.schema.alterTable('run_reservations', (t) => {
      t.string('repairs', 40).nullable();
    });
    await knex.raw('CREATE UNIQUE INDEX run_reservations_repairs ON run_reservations (repairs)');
  },
  async down(knex) {
    await knex.raw('DROP INDEX run_reservations_repairs');
    await knex.schema.alterTable('run_reservations', (t) => {
      t.dropColumn('repairs');
    });
  },
};

export default migration;
