// Migration 002_webhooks_and_deliveries (shipped: never edit it; add a new one).
import { dialectFor } from '../dialect.js';
import type { Migration } from './migration.js';

const migration: Migration = {
  name: '002_webhooks_and_deliveries',
  async up(knex) {
    const dialect = dialectFor(knex);
    // Webhook settings change (name, on/off, id path); their deliveries never do.
    await knex.schema.createTable('webhooks', (t) => {
      t.string('id', 16).primary();
      t.string('name', 200).notNullable();
      t.boolean('on').notNullable();
      t.string('delivery_id_path', 220).nullable();
      t.string('created_at', 40).notNullable();
      t.string('updated_at', 40).notNullable();
    });
    await knex.schema.createTable('deliveries', (t) => {
      t.bigIncrements('seq').primary();
      t.string('id', 40).notNullable().unique();
      t.string('hook_id', 16).notNullable();
      t.string('received_at', 40).notNullable();
      t.string('method', 16).notNullable();
      t.text('path').notNullable();
      t.text('query').notNullable();
      // [name, value] pairs exactly as received.
      t.text('headers').notNullable();
      t.binary('body').nullable();
      t.integer('body_size').notNullable();
      t.string('client_address', 64).nullable();
      t.string('delivery_id', 200).nullable();
      t.string('delivery_id_rule', 240).nullable();
      t.string('outcome', 16).notNullable();
      t.text('refusal').nullable();
      t.string('action', 128).nullable();
      // The first delivery with the same id on this webhook, when this one is a duplicate.
      t.string('duplicate_of', 40).nullable();
      t.index(['hook_id', 'seq']);
    });
    // One row per (webhook, delivery id): the unique index decides which delivery was first.
    await knex.schema.createTable('delivery_ids', (t) => {
      t.string('hook_id', 16).notNullable();
      t.string('delivery_id', 200).notNullable();
      t.string('first_entry', 40).notNullable();
      t.primary(['hook_id', 'delivery_id']);
    });
    // The record an action address adds after the delivery: which invocation ran, and the answer.
    await knex.schema.createTable('webhook_actions', (t) => {
      t.bigIncrements('seq').primary();
      t.string('delivery', 40).notNullable().unique();
      t.string('action', 128).notNullable();
      t.string('invocation', 40).notNullable();
      t.boolean('ok').notNullable();
      t.string('status', 24).notNullable();
      t.text('answer').notNullable();
      t.string('created_at', 40).notNullable();
    });
    for (const table of ['deliveries', 'delivery_ids', 'webhook_actions']) for (const sql of dialect.appendOnly(table)) await knex.raw(sql);
  },
  async down(knex) {
    const dialect = dialectFor(knex);
    for (const table of ['deliveries', 'delivery_ids', 'webhook_actions']) for (const sql of dialect.dropAppendOnly(table)) await knex.raw(sql);
    for (const table of ['webhook_actions', 'delivery_ids', 'deliveries', 'webhooks']) await knex.schema.dropTable(table);
  },
};

export default migration;
