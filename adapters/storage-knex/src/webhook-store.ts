// Webhooks on knex: their settings are the one mutable thing next to the ledger.
import type { Knex } from 'knex';
import type { SignatureScheme, Webhook, WebhookStore } from '@switchyard/core';

interface WebhookRow {
  id: string;
  name: string;
  on: boolean | number;
  delivery_id_path: string | null;
  event_type_path: string | null;
  signature_scheme: string | null;
  signature_secret: string | null;
  signature_header: string | null;
  require_signature: boolean | number;
  signature_tolerance_s: number | null;
  retention_private_days: number | string | null;
  created_at: string;
  updated_at: string;
}

const toWebhook = (r: WebhookRow): Webhook => ({
  id: r.id,
  name: r.name,
  on: Boolean(r.on),
  delivery_id_path: r.delivery_id_path,
  event_type_path: r.event_type_path,
  signature:
    r.signature_scheme && r.signature_secret
      ? { scheme: r.signature_scheme as SignatureScheme, secret: r.signature_secret, header: r.signature_header, require: Boolean(r.require_signature), tolerance_s: r.signature_tolerance_s }
      : null,
  retention_private_days: r.retention_private_days === null ? null : Number(r.retention_private_days),
  created_at: r.created_at,
  updated_at: r.updated_at,
});

type Columns = Partial<Omit<WebhookRow, 'on'> & { on: boolean }>;

function toColumns(w: Partial<Webhook>): Columns {
  const { signature, ...rest } = w;
  const out: Columns = { ...rest };
  if (signature !== undefined) {
    out.signature_scheme = signature?.scheme ?? null;
    out.signature_secret = signature?.secret ?? null;
    out.signature_header = signature?.header ?? null;
    out.require_signature = signature?.require ?? false;
    out.signature_tolerance_s = signature?.tolerance_s ?? null;
  }
  return out;
}

/**
 * Every delivery reads its webhook, so reads are cached briefly. A change made through this store
 * is seen at once; one made by another process sharing the database within CACHE_MS.
 */
export const WEBHOOK_CACHE_MS = 1000;

export class KnexWebhookStore implements WebhookStore {
  private readonly cache = new Map<string, { webhook: Webhook | undefined; until: number }>();

  constructor(
    private readonly knex: Knex,
    private readonly now: () => number = Date.now,
  ) {}

  async create(webhook: Webhook): Promise<Webhook> {
    await this.knex('webhooks').insert(toColumns(webhook));
    this.cache.delete(webhook.id);
    return { ...webhook };
  }

  async get(id: string): Promise<Webhook | undefined> {
    const cached = this.cache.get(id);
    if (cached && cached.until > this.now()) return cached.webhook && { ...cached.webhook };
    const row = await this.knex<WebhookRow>('webhooks').where({ id }).first();
    const webhook = row ? toWebhook(row) : undefined;
    if (this.cache.size >= 10_000) this.cache.clear();
    this.cache.set(id, { webhook, until: this.now() + WEBHOOK_CACHE_MS });
    return webhook && { ...webhook };
  }

  async list(): Promise<Webhook[]> {
    return (await this.knex<WebhookRow>('webhooks').orderBy('created_at', 'asc').orderBy('id', 'asc')).map(toWebhook);
  }

  async update(id: string, changes: Partial<Pick<Webhook, 'name' | 'on' | 'delivery_id_path' | 'event_type_path' | 'signature' | 'retention_private_days'>>, at: string): Promise<Webhook | undefined> {
    const count = await this.knex('webhooks').where({ id }).update({ ...toColumns(changes), updated_at: at });
    this.cache.delete(id);
    return count > 0 ? this.get(id) : undefined;
  }
}
