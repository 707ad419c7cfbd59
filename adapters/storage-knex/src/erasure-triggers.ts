// The one UPDATE the append-only ledger allows (migration 022): emptying the erasable fields of an
// invocation or a delivery that has an erasure entry. Every other column must stay as it is, the
// emptied ones must be empty, and DELETE and TRUNCATE stay refused, so the database itself keeps
// the ledger append-only except for erasure (docs/proofs.md#erasure). The SQL is the dialect's.
import type { Knex } from 'knex';
import { ERASABLE_FIELDS } from '@switchyard/core';
import { dialectFor, type ErasureEmptied } from './dialect.js';

interface ErasableTable {
  table: 'invocations' | 'deliveries';
  kind: 'invocation' | 'delivery';
  emptied: ErasureEmptied;
}

export const ERASABLE_TABLES: readonly ErasableTable[] = [
  // An invocation keeps its whole record as JSON in `record`: it may change only in the erasable keys, each null.
  { table: 'invocations', kind: 'invocation', emptied: { columns: [], json: { column: 'record', keys: ERASABLE_FIELDS.invocation } } },
  // A delivery's payload is in its own columns (its body committed to by body_sha256).
  { table: 'deliveries', kind: 'delivery', emptied: { columns: [['body', null], ['body_sha256', null], ['headers', '[]'], ['query', '']] } },
];

const rewritten = (t: ErasableTable): string[] => [...t.emptied.columns.map(([c]) => c), ...(t.emptied.json ? [t.emptied.json.column] : [])];

/** Replaces the table's UPDATE refusal with one that lets exactly an erasure through. */
export async function allowErasureOnly(knex: Knex, t: ErasableTable): Promise<void> {
  const columns = Object.keys(await knex(t.table).columnInfo());
  const kept = columns.filter((c) => !rewritten(t).includes(c));
  // Only the columns the table has now (an older migration rolled back may have taken one away).
  const emptied = { ...t.emptied, columns: t.emptied.columns.filter(([c]) => columns.includes(c)) };
  for (const sql of dialectFor(knex).erasureOnlyUpdate(t.table, t.kind, kept, emptied)) await knex.raw(sql);
}

/**
 * Runs a migration's column change of an erasable table (a later migration that adds or drops a
 * column of invocations or deliveries goes through this, so the new column is held unchanged too)
 * with its plain UPDATE refusal in place:
 * the erasure rule names every column (SQLite checks a trigger's columns when one is dropped), so
 * it is written again afterwards for the columns then present, when migration 022 is applied.
 */
export async function changingColumnsOf(knex: Knex, table: string, change: () => Promise<void>): Promise<void> {
  const erasable = ERASABLE_TABLES.find((t) => t.table === table);
  const ruled = erasable !== undefined && (await knex.schema.hasTable('ledger_erasures'));
  if (ruled) await refuseEveryUpdate(knex, erasable);
  await change();
  if (ruled) await allowErasureOnly(knex, erasable);
}

/** Puts the table's plain UPDATE refusal back (migration 022 down). */
export async function refuseEveryUpdate(knex: Knex, t: ErasableTable): Promise<void> {
  for (const sql of dialectFor(knex).refuseEveryUpdate(t.table)) await knex.raw(sql);
}
