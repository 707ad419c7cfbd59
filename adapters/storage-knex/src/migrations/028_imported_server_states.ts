// 028: what the last refresh of each imported MCP server found (issue 27 item 1), so that
// every process on a PostgreSQL database serves the tools and holds of whichever refreshed.
import type { Migration } from './migration.js';

const migration: Migration = {
  name: '028_imported_server_states',
  async up(knex) {
    await knex.schema.createTable('imported_server_states', (t) => {
      t.string('server', 200).primary();
      t.bigInteger('version').notNullable();
      t.text('address').notNullable();
      t.text('listing').notNullable();
      t.text('served').notNullable();
      t.text('held').notNullable();
      t.integer('omitted').notNullable();
      t.string('refreshed_at', 40).notNullable();
    });
  },
  async down(knex) {
    await knex.schema.dropTable('imported_server_states');
  },
};

export default migration;
