// Large binary parts of tool results (images, audio, embedded blobs), stored once by the
// SHA-256 of their bytes; invocation records name them instead of inlining them. Not a ledger
// table: the leaf commits to each blob through its hash in the record.
import type { Migration } from './migration.js';

const migration: Migration = {
  name: '011_content_blobs',
  async up(knex) {
    await knex.schema.createTable('content_blobs', (t) => {
      t.string('sha256', 64).primary();
      t.bigInteger('size').notNullable();
      t.string('mime_type', 255).nullable();
      t.string('created_at', 32).notNullable();
      // Last, so on SQLite a row's other columns read without paging through the bytes.
      t.binary('bytes').notNullable();
    });
  },
  async down(knex) {
    await knex.schema.dropTable('content_blobs');
  },
};

export default migration;
