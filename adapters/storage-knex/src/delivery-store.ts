// Webhook deliveries on knex. Each is stored whole (headers as received, body as bytes). Whether a
// delivery duplicates an earlier one is decided by the (hook_id, delivery_id) primary key of
// delivery_ids: INSERT … ON CONFLICT DO NOTHING claims the id atomically, on both engines and
// across any number of service processes. Appends are group-committed.
import type { Knex } from 'knex';
import { GroupCommit } from './group-commit.js';
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
  signature: string | null;
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
  private readonly commits: GroupCommit<DeliveryRecord, StoredDelivery>;

  constructor(private readonly knex: Knex) {
    this.commits = new GroupCommit<DeliveryRecord, StoredDelivery>(
      (records) => this.knex.transaction((trx) => this.insertBatch(trx, records)),
      (record) => this.knex.transaction(async (trx) => (await this.insertBatch(trx, [record]))[0]!),
    );
  }

  /** Committed before it resolves; concurrent appends share one transaction (group commit). */
  append(record: DeliveryRecord): Promise<StoredDelivery> {
    return this.commits.submit(record);
  }

  private async insertBatch(trx: Knex.Transaction, records: DeliveryRecord[]): Promise<StoredDelivery[]> {
    // Only accepted deliveries claim their id; a refusal never makes a later retry a duplicate.
    const claims = records.filter((r) => r.delivery_id !== null && r.outcome === 'accepted');
    const firstOf = new Map<string, string>();
    if (claims.length > 0) {
      // One statement claims every id; rows come in key order so concurrent batches in other
      // processes lock in the same order (no deadlock). Within a batch the earliest record wins.
      const rows = claims
        .map((r, i) => ({ hook_id: r.hook_id, delivery_id: r.delivery_id!, first_entry: r.id, i }))
        .sort((a, b) => (a.hook_id + '\0' + a.delivery_id).localeCompare(b.hook_id + '\0' + b.delivery_id) || a.i - b.i)
        .map(({ i: _i, ...row }) => row);
      await trx('delivery_ids').insert(rows).onConflict(['hook_id', 'delivery_id']).ignore();
      const keys = [...new Set(claims.map((r) => `${r.hook_id}\0${r.delivery_id}`))].map((k) => k.split('\0') as [string, string]);
      const firsts = await trx('delivery_ids').select('hook_id', 'delivery_id', 'first_entry').whereIn(['hook_id', 'delivery_id'], keys);
      for (const f of firsts as Array<{ hook_id: string; delivery_id: string; first_entry: string }>) firstOf.set(`${f.hook_id}\0${f.delivery_id}`, f.first_entry);
    }
    const duplicateOf = (r: DeliveryRecord): string | null => {
      if (r.delivery_id === null || r.outcome !== 'accepted') return null;
      const first = firstOf.get(`${r.hook_id}\0${r.delivery_id}`);
      return first !== undefined && first !== r.id ? first : null;
    };
    const inserted = (await trx('deliveries')
      .insert(records.map((r) => this.row(r, duplicateOf(r))))
      .returning(['seq', 'id'])) as Array<{ seq: number | string; id: string }>;
    const seqOf = new Map(inserted.map((row) => [row.id, Number(row.seq)]));
    return records.map((r) => {
      const dup = duplicateOf(r);
      return { ...r, seq: seqOf.get(r.id)!, duplicate: dup !== null, duplicate_of: dup, action_run: null };
    });
  }

  private row(record: DeliveryRecord, duplicateOf: string | null) {
    return {
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
      signature: record.signature,
      outcome: record.outcome,
      refusal: record.refusal ? JSON.stringify(record.refusal) : null,
      action: record.action,
      duplicate_of: duplicateOf,
    };
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
      signature: r.signature as StoredDelivery['signature'],
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
