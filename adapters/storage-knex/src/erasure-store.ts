// Erasure on knex: one transaction writes the erasure entry (queued for the log by its trigger) and
// empties the entry's payload, which the append-only triggers allow only because that erasure
// entry exists (erasure-triggers.ts). The entry's leaf, already in the tree, is not touched.
import type { Knex } from 'knex';
import type { ErasureRecord, RetentionScope } from '@switchyard/core';
import { erasedInvocationRecord } from '@switchyard/core/erasure';
import { SwitchyardError } from '@switchyard/core/errors';
import { isUniqueViolation } from './dialect.js';
import type { LedgerSource } from './ledger-source.js';

export interface ErasureRow {
  id: string;
  entry_kind: string;
  entry: string;
  fields: string;
  reason: string;
  reason_sha256: string;
  erased_at: string;
}

export const toErasure = (r: ErasureRow): ErasureRecord => ({
  id: r.id,
  entry_kind: r.entry_kind as ErasureRecord['entry_kind'],
  entry: r.entry,
  fields: JSON.parse(r.fields) as string[],
  reason: r.reason,
  reason_sha256: r.reason_sha256,
  erased_at: r.erased_at,
});

/** The erasures' place in the ledger (ledger-sources.ts). */
export const ERASURE_SOURCE: LedgerSource<'erasure'> = {
  kind: 'erasure',
  table: 'ledger_erasures',
  idColumn: 'id',
  timeColumn: 'erased_at',
  leafColumns: null,
  toEntry: (r) => ({ kind: 'erasure', entry: toErasure(r as unknown as ErasureRow) }),
};

/** The erasure of `entry`, if it was erased. */
export async function erasureFor(knex: Knex, entry: string): Promise<ErasureRecord | undefined> {
  const row = (await knex('ledger_erasures').select('id', 'entry_kind', 'entry', 'fields', 'reason', 'reason_sha256', 'erased_at').where({ entry }).first()) as ErasureRow | undefined;
  return row ? toErasure(row) : undefined;
}

/** Invocations, then deliveries, made before `before`, in the tree and not erased: what retention erases next. */
export async function pastRetention(knex: Knex, before: string, limit: number, hooks?: RetentionScope): Promise<Array<{ kind: 'invocation' | 'delivery'; id: string }>> {
  const out: Array<{ kind: 'invocation' | 'delivery'; id: string }> = [];
  for (const [kind, table, time] of [['invocation', 'invocations', 'created_at'], ['delivery', 'deliveries', 'received_at']] as const) {
    if (out.length >= limit) break;
    if (kind === 'invocation' && hooks && 'only' in hooks) continue;
    let query = knex(`${table} as t`).select('t.id');
    if (kind === 'delivery' && hooks && 'only' in hooks) query = query.whereIn('t.hook_id', [...hooks.only]);
    if (kind === 'delivery' && hooks && 'except' in hooks && hooks.except.length > 0) query = query.whereNotIn('t.hook_id', [...hooks.except]);
    const rows = (await query
      .where(`t.${time}`, '<', before)
      .whereExists(knex('ledger_leaves as l').select(knex.raw('1')).where('l.kind', kind).whereRaw('l.entry_seq = t.seq'))
      .whereNotExists(knex('ledger_erasures as e').select(knex.raw('1')).whereRaw('e.entry = t.id'))
      .orderBy('t.seq')
      .limit(limit - out.length)) as Array<{ id: string }>;
    for (const r of rows) out.push({ kind, id: r.id });
  }
  return out;
}

/**
 * Erases an integrated entry's payload and records why. Refuses (coded) an entry that is not there,
 * one still queued for the tree (its leaf must be built from what it was), and one already erased.
 */
export async function eraseEntry(knex: Knex, erasure: ErasureRecord): Promise<ErasureRecord> {
  const table = erasure.entry_kind === 'invocation' ? 'invocations' : 'deliveries';
  return knex.transaction(async (trx) => {
    const row = (await trx(table).select('seq', ...(erasure.entry_kind === 'invocation' ? ['record'] : [])).where({ id: erasure.entry }).first()) as { seq: number | string; record?: string } | undefined;
    if (!row) throw new SwitchyardError('not_found', `no ledger entry ${erasure.entry}`);
    const inTree = await trx('ledger_leaves').where({ kind: erasure.entry_kind, entry_seq: Number(row.seq) }).first();
    if (!inTree) throw new SwitchyardError('entry_pending', `${erasure.entry} is not in the Merkle tree yet: its leaf is built from what it holds, so it can be erased only once it is in (ask again shortly)`);
    if (await trx('ledger_erasures').where({ entry: erasure.entry }).first()) throw new SwitchyardError('already_erased', `${erasure.entry} is already erased`);
    try {
      await trx('ledger_erasures').insert({ ...erasure, fields: JSON.stringify(erasure.fields) });
    } catch (error) {
      // Another request erased it between the check and the insert: the unique index decided.
      if (isUniqueViolation(error)) throw new SwitchyardError('already_erased', `${erasure.entry} is already erased`);
      throw error;
    }
    if (erasure.entry_kind === 'invocation') {
      await trx('invocations').where({ id: erasure.entry }).update({ record: JSON.stringify(erasedInvocationRecord(JSON.parse(row.record!) as object)) });
    } else {
      await trx('deliveries').where({ id: erasure.entry }).update({ body: null, body_sha256: null, headers: '[]', query: '' });
    }
    return erasure;
  });
}
