// 025b: traces across processes. An invocation keeps its trace id (null with traces off), and a
// forwarding job the traceparent of the request that made it, so a worker's attempt joins the
// trace of the api process's intake.
import type { Migration } from './migration.js';

const migration: Migration = {
  name: '025b_trace_ids',
  async up(knex) {
    await knex.schema.alterTable('invocations', (t) => {
      t.string('trace_id', 32).nullable();
    });
    await knex.schema.alterTable('forward_jobs', (t) => {
      t.string('traceparent', 64).nullable();
    });
  },
  async down(knex) {
    await knex.schema.alterTable('forward_jobs', (t) => {
      t.dropColumn('traceparent');
    });
    await knex.schema.alterTable('invocations', (t) => {
      t.dropColumn('trace_id');
    });
  },
};

export default migration;
