// Webhook deliveries on knex. Each is stored whole (headers as received, body as bytes). Whether a
// delivery duplicates an earlier one is decided by the (hook_id, delivery_id) primary key of
// delivery_ids: INSERT … ON CONFLICT DO NOTHING claims the id atomically, on both engines and
// across any number of service processes.
import type { Knex } from 'knex';
import { SwitchyardError, type ActionRecord, type DeliveryRecord, type DeliveryStore, type Page, type StoredDelivery } from '@switchyard/core';

interface DeliveryRow {
  seq: number | string;
  id: string;
  hook_id: string;
  received_at: string;
  method: string;
  path: string;
  query: string;
  headers: string;
  body: Buffer | null;
  body_size: number;
  client_address: string | null;
  delivery_id: string | null;
  delivery_id_rule: string | null;
  outcome: string;
  refusal: string | null;
  action: string | null;
  duplicate_of: string | null;
}

interface ActionRow {
  delivery: string;
  action: string;
  invocation: string;
  ok: boolean | number;
  status: string;
  answer: string;
  created_at: string;
}

const toAction = (r: ActionRow): ActionRecord => ({
  delivery: r.delivery,
  action: r.action,
  invocation: r.invocation,
  ok: Boolean(r.ok),
  status: r.status,
  answer: JSON.parse(r.answer) as ActionRecord['answer'],
  created_at: r.created_at,
});

export class KnexDeliveryStore implements DeliveryStore {
  constructor(private readonly knex: Knex) {}

  async append(record: DeliveryRecord): Promise<StoredDelivery> {
    return this.knex.transaction(async (trx) => {
      let duplicateOf: string | null = null;
      // Only accepted deliveries claim their id; a refusal never makes a later retry a duplicate.
      if (record.delivery_id !== null && record.outcome === 'accepted') {
        const claimed = await trx('delivery_ids')
          .insert({ hook_id: record.hook_id, delivery_id: record.delivery_id, first_entry: record.id })
          .onConflict(['hook_id', 'delivery_id'])
          .ignore()
          .returning('first_entry');
        if (claimed.length === 0) {
          const first = await trx('delivery_ids').select('first_entry').where({ hook_id: record.hook_id, delivery_id: record.delivery_id }).first();
          duplicateOf = (first as { first_entry: string } | undefined)?.first_entry ?? null;
        }
      }
      const [row] = await trx('deliveries')
        .insert({
          id: record.id,
          hook_id: record.hook_id,
          received_at: record.received_at,
          method: record.method,
          path: record.path,
          query: record.query,
          headers: JSON.stringify(record.headers),
          body: record.body ? Buffer.from(record.body.buffer, record.body.byteOffset, record.body.byteLength) : null,
          body_size: record.body_size,
          client_address: record.client_address,
          delivery_id: record.delivery_id,
          delivery_id_rule: record.delivery_id_rule,
          outcome: record.outcome,
          refusal: record.refusal ? JSON.stringify(record.refusal) : null,
          action: record.action,
          duplicate_of: duplicateOf,
        })
        .returning('seq');
      const seq = Number(typeof row === 'object' ? (row as { seq: number | string }).seq : row);
      return { ...record, seq, duplicate: duplicateOf !== null, duplicate_of: duplicateOf, action_run: null };
    });
  }

  async appendAction(record: ActionRecord): Promise<void> {
    await this.knex('webhook_actions').insert({ ...record, answer: JSON.stringify(record.answer) });
  }

  async get(id: string): Promise<StoredDelivery | undefined> {
    const row = await this.knex<DeliveryRow>('deliveries').where({ id }).first();
    if (!row) return undefined;
    return (await this.withActions([row]))[0];
  }

  async list(options: { hookId?: string; before?: string | null; limit: number }): Promise<Page<StoredDelivery>> {
    const before = options.before == null ? null : Number(options.before);
    if (before !== null && (!Number.isSafeInteger(before) || before < 1)) throw new SwitchyardError('invalid_request', 'before must be a cursor from next_cursor');
    const query = this.knex<DeliveryRow>('deliveries').orderBy('seq', 'desc').limit(options.limit + 1);
    if (options.hookId) query.where('hook_id', options.hookId);
    if (before !== null) query.where('seq', '<', before);
    const rows = await query;
    const items = await this.withActions(rows.slice(0, options.limit));
    return { items, next_cursor: rows.length > options.limit ? String(items[items.length - 1]!.seq) : null };
  }

  private async withActions(rows: DeliveryRow[]): Promise<StoredDelivery[]> {
    const withAction = rows.filter((r) => r.action !== null).map((r) => r.id);
    const actions = new Map<string, ActionRecord>();
    if (withAction.length > 0) {
      for (const a of await this.knex<ActionRow>('webhook_actions').whereIn('delivery', withAction)) actions.set(a.delivery, toAction(a));
    }
    return rows.map((r) => ({
      id: r.id,
      hook_id: r.hook_id,
      received_at: r.received_at,
      method: r.method,
      path: r.path,
      query: r.query,
      headers: JSON.parse(r.headers) as Array<[string, string]>,
      body: r.body === null ? null : new Uint8Array(r.body),
      body_size: r.body_size,
      client_address: r.client_address,
      delivery_id: r.delivery_id,
      delivery_id_rule: r.delivery_id_rule,
      outcome: r.outcome as StoredDelivery['outcome'],
      refusal: r.refusal ? (JSON.parse(r.refusal) as StoredDelivery['refusal']) : null,
      action: r.action,
      seq: Number(r.seq),
      duplicate: r.duplicate_of !== null,
      duplicate_of: r.duplicate_of,
      action_run: actions.get(r.id) ?? null,
    }));
  }
}
