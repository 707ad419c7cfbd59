// Webhooks on knex: their settings are the one mutable thing next to the ledger.
import type { Knex } from 'knex';
import type { Webhook, WebhookStore } from '@switchyard/core';

interface WebhookRow {
  id: string;
  name: string;
  on: boolean | number;
  delivery_id_path: string | null;
  created_at: string;
  updated_at: string;
}

const toWebhook = (r: WebhookRow): Webhook => ({ id: r.id, name: r.name, on: Boolean(r.on), delivery_id_path: r.delivery_id_path, created_at: r.created_at, updated_at: r.updated_at });

export class KnexWebhookStore implements WebhookStore {
  constructor(private readonly knex: Knex) {}

  async create(webhook: Webhook): Promise<Webhook> {
    await this.knex('webhooks').insert(webhook);
    return { ...webhook };
  }

  async get(id: string): Promise<Webhook | undefined> {
    const row = await this.knex<WebhookRow>('webhooks').where({ id }).first();
    return row ? toWebhook(row) : undefined;
  }

  async list(): Promise<Webhook[]> {
    return (await this.knex<WebhookRow>('webhooks').orderBy('created_at', 'asc').orderBy('id', 'asc')).map(toWebhook);
  }

  async update(id: string, changes: Partial<Pick<Webhook, 'name' | 'on' | 'delivery_id_path'>>, at: string): Promise<Webhook | undefined> {
    const count = await this.knex('webhooks').where({ id }).update({ ...changes, updated_at: at });
    return count > 0 ? this.get(id) : undefined;
  }
}
