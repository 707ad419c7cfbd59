// The one UPDATE the append-only ledger allows (migration 022): emptying the erasable fields of an
// invocation or a delivery that has an erasure entry. Every other column must stay as it is, the
// emptied ones must be empty, and DELETE and TRUNCATE stay refused, so the database itself keeps
// the ledger append-only except for erasure (docs/proofs.md#erasure).
import type { Knex } from 'knex';
import { dialectFor } from './dialect.js';

interface ErasableTable {
  table: 'invocations' | 'deliveries';
  kind: 'invocation' | 'delivery';
  /** Columns an erasure rewrites (the rest must not change). */
  rewritten: string[];
  /** SQLite: what NEW must satisfy for those columns. */
  sqliteEmptied: string;
  /** PostgreSQL: the same, in plpgsql over NEW and OLD. */
  postgresEmptied: string;
}

// An invocation keeps its whole record as JSON in `record`: the record may change only in the
// erasable keys, and each of those must be null in NEW. A delivery's payload is in its own columns.
const INVOCATION_KEYS = ['args', 'body', 'content', 'logs', 'result', 'structured_content'];
const sqlitePaths = INVOCATION_KEYS.map((k) => `'$.${k}'`).join(', ');
const pgKeys = `ARRAY[${INVOCATION_KEYS.map((k) => `'${k}'`).join(', ')}]`;

export const ERASABLE_TABLES: readonly ErasableTable[] = [
  {
    table: 'invocations',
    kind: 'invocation',
    rewritten: ['record'],
    sqliteEmptied:
      `json_remove(NEW.record, ${sqlitePaths}) = json_remove(OLD.record, ${sqlitePaths})` +
      INVOCATION_KEYS.map((k) => ` AND json_extract(NEW.record, '$.${k}') IS NULL`).join(''),
    postgresEmptied:
      `(NEW.record::jsonb - ${pgKeys}) = (OLD.record::jsonb - ${pgKeys})` +
      INVOCATION_KEYS.map((k) => ` AND (NEW.record::jsonb -> '${k}' IS NULL OR NEW.record::jsonb -> '${k}' = 'null'::jsonb)`).join(''),
  },
  {
    table: 'deliveries',
    kind: 'delivery',
    rewritten: ['body', 'body_sha256', 'headers', 'query'],
    sqliteEmptied: `NEW.body IS NULL AND NEW.body_sha256 IS NULL AND NEW.headers = '[]' AND NEW.query = ''`,
    postgresEmptied: `NEW.body IS NULL AND NEW.body_sha256 IS NULL AND NEW.headers = '[]' AND NEW.query = ''`,
  },
];

const refusal = (table: string) => `ledger is append-only: UPDATE on ${table} is allowed only to erase an entry with an erasure entry`;

/** Replaces the table's UPDATE refusal with one that lets exactly an erasure through. */
export async function allowErasureOnly(knex: Knex, t: ErasableTable): Promise<void> {
  const columns = Object.keys(await knex(t.table).columnInfo()).filter((c) => !t.rewritten.includes(c));
  const hasErasure = `EXISTS (SELECT 1 FROM ledger_erasures e WHERE e.entry = OLD.id AND e.entry_kind = '${t.kind}')`;
  if (dialectFor(knex).name === 'sqlite') {
    const unchanged = columns.map((c) => `NEW."${c}" IS OLD."${c}"`).join(' AND ');
    await knex.raw(`DROP TRIGGER IF EXISTS ${t.table}_no_update`);
    await knex.raw(`CREATE TRIGGER ${t.table}_no_update BEFORE UPDATE ON ${t.table} WHEN NOT (${hasErasure} AND ${unchanged} AND ${t.sqliteEmptied}) BEGIN SELECT RAISE(ABORT, '${refusal(t.table)}'); END`);
    return;
  }
  const unchanged = columns.map((c) => `NEW."${c}" IS NOT DISTINCT FROM OLD."${c}"`).join(' AND ');
  await knex.raw(`CREATE OR REPLACE FUNCTION ${t.table}_erasure_only() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       IF ${hasErasure} AND ${unchanged} AND ${t.postgresEmptied} THEN RETURN NEW; END IF;
       RAISE EXCEPTION '${refusal(t.table)}' USING ERRCODE = 'restrict_violation';
     END $$`);
  // The shared trigger refused UPDATE and DELETE together: DELETE keeps it, UPDATE gets the narrow one.
  await knex.raw(`DROP TRIGGER IF EXISTS ${t.table}_append_only ON ${t.table}`);
  await knex.raw(`CREATE TRIGGER ${t.table}_append_only BEFORE DELETE ON ${t.table} FOR EACH ROW EXECUTE FUNCTION switchyard_append_only()`);
  await knex.raw(`CREATE TRIGGER ${t.table}_erasure_only BEFORE UPDATE ON ${t.table} FOR EACH ROW EXECUTE FUNCTION ${t.table}_erasure_only()`);
}

/** Puts the table's plain UPDATE refusal back (migration 022 down). */
export async function refuseEveryUpdate(knex: Knex, t: ErasableTable): Promise<void> {
  if (dialectFor(knex).name === 'sqlite') {
    await knex.raw(`DROP TRIGGER IF EXISTS ${t.table}_no_update`);
    await knex.raw(`CREATE TRIGGER ${t.table}_no_update BEFORE UPDATE ON ${t.table} BEGIN SELECT RAISE(ABORT, 'ledger is append-only: UPDATE on ${t.table} is not allowed'); END`);
    return;
  }
  await knex.raw(`DROP TRIGGER IF EXISTS ${t.table}_erasure_only ON ${t.table}`);
  await knex.raw(`DROP FUNCTION IF EXISTS ${t.table}_erasure_only()`);
  await knex.raw(`DROP TRIGGER IF EXISTS ${t.table}_append_only ON ${t.table}`);
  await knex.raw(`CREATE TRIGGER ${t.table}_append_only BEFORE UPDATE OR DELETE ON ${t.table} FOR EACH ROW EXECUTE FUNCTION switchyard_append_only()`);
}
