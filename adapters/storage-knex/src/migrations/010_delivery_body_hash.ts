// Listings give a large body's size and SHA-256 instead of its bytes, so the hash is stored
// when the delivery is written (and filled in here for the deliveries already stored): a
// listing then reads neither the body nor anything derived from it. On SQLite the table is
// rebuilt with the body last (see rebuildDeliveriesBodyLast).
import { dialectFor } from '../dialect.js';
import { changingColumnsOf } from '../erasure-triggers.js';
import { rebuildDeliveriesBodyLast, fillBodyHashes } from './shared.js';
import type { Migration } from './migration.js';

const migration: Migration = {
  name: '010_delivery_body_hash',
  async up(knex) {
    const dialect = dialectFor(knex);
    if (dialect.largeValuesInRow) return rebuildDeliveriesBodyLast(knex, dialect);
    // PostgreSQL keeps a large body out of line (TOAST): the row's other columns read without it.
    await knex.schema.alterTable('deliveries', (t) => t.string('body_sha256', 64).nullable());
    // Filling in the new column is the one change ever made to stored deliveries; the
    // append-only triggers step aside for it inside this migration's transaction.
    for (const sql of dialect.dropAppendOnly('deliveries')) await knex.raw(sql);
    await fillBodyHashes(knex, dialect);
    for (const sql of dialect.appendOnly('deliveries')) await knex.raw(sql);
  },
  async down(knex) {
    // Back to 009's columns (on SQLite the body stays last, which the code at 009 does not mind).
    await changingColumnsOf(knex, 'deliveries', () => knex.raw('ALTER TABLE deliveries DROP COLUMN body_sha256'));
  },
};

export default migration;
