// What differs between the two engines: connection settings, the append-only triggers, and how a
// unique-key violation is reported. Everything else is one knex code path.
import type { Knex } from 'knex';

export type DialectName = 'sqlite' | 'postgresql';

export interface Dialect {
  name: DialectName;
  /** SQL that makes `table` append-only: UPDATE and DELETE (and TRUNCATE where it exists) fail. */
  appendOnly(table: string): string[];
  dropAppendOnly(table: string): string[];
  /**
   * SQL that queues every row inserted into `table` for the Merkle log, in the same transaction, by
   * kind and id (migrations 005–007; kept as they shipped).
   */
  enqueueForLog(table: string, kind: string, idColumn: string): string[];
  /** The same trigger, replaced by one that also queues the row's `seq` (migration 008 on). */
  enqueueWithSeqForLog(table: string, kind: string, idColumn: string): string[];
  /** SQL that removes `table`'s enqueue trigger, either version. */
  dropEnqueueForLog(table: string): string;
  /**
   * SQL for `length` bytes of a binary column from a 1-based offset (two placeholders: offset,
   * length), read without the rest of the value, and how the driver hands the slice back.
   */
  byteSlice(column: string): { sql: string; encoding: 'binary' | 'base64' };
}

const refusal = (table: string, op: string) => `ledger is append-only: ${op} on ${table} is not allowed`;

export const sqliteDialect: Dialect = {
  name: 'sqlite',
  appendOnly: (table) =>
    ['UPDATE', 'DELETE'].map(
      (op) => `CREATE TRIGGER ${table}_no_${op.toLowerCase()} BEFORE ${op} ON ${table} BEGIN SELECT RAISE(ABORT, '${refusal(table, op)}'); END`,
    ),
  dropAppendOnly: (table) => ['update', 'delete'].map((op) => `DROP TRIGGER IF EXISTS ${table}_no_${op}`),
  enqueueForLog: (table, kind, idColumn) => [
    `CREATE TRIGGER ${table}_log_enqueue AFTER INSERT ON ${table} BEGIN INSERT INTO ledger_queue (kind, entry_id) VALUES ('${kind}', NEW.${idColumn}); END`,
  ],
  enqueueWithSeqForLog: (table, kind, idColumn) => [
    sqliteDialect.dropEnqueueForLog(table),
    `CREATE TRIGGER ${table}_log_enqueue AFTER INSERT ON ${table} BEGIN INSERT INTO ledger_queue (kind, entry_id, entry_seq) VALUES ('${kind}', NEW.${idColumn}, NEW.seq); END`,
  ],
  dropEnqueueForLog: (table) => `DROP TRIGGER IF EXISTS ${table}_log_enqueue`,
  byteSlice: (column) => ({ sql: `substr(${column}, ?, ?)`, encoding: 'binary' }),
};

export const postgresDialect: Dialect = {
  name: 'postgresql',
  appendOnly: (table) => [
    // One function serves every append-only table; TG_OP and TG_TABLE_NAME name what was refused.
    `CREATE OR REPLACE FUNCTION switchyard_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       RAISE EXCEPTION 'ledger is append-only: % on % is not allowed', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
     END $$`,
    `CREATE TRIGGER ${table}_append_only BEFORE UPDATE OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION switchyard_append_only()`,
    `CREATE TRIGGER ${table}_no_truncate BEFORE TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION switchyard_append_only()`,
  ],
  dropAppendOnly: (table) => [`DROP TRIGGER IF EXISTS ${table}_append_only ON ${table}`, `DROP TRIGGER IF EXISTS ${table}_no_truncate ON ${table}`],
  enqueueForLog: (table, kind, idColumn) => [
    `CREATE OR REPLACE FUNCTION switchyard_log_enqueue() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       INSERT INTO ledger_queue (kind, entry_id) VALUES (TG_ARGV[0], to_jsonb(NEW) ->> TG_ARGV[1]);
       RETURN NULL;
     END $$`,
    `CREATE TRIGGER ${table}_log_enqueue AFTER INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION switchyard_log_enqueue('${kind}', '${idColumn}')`,
  ],
  enqueueWithSeqForLog: (table, kind, idColumn) => [
    postgresDialect.dropEnqueueForLog(table),
    `CREATE OR REPLACE FUNCTION switchyard_log_enqueue_seq() RETURNS trigger LANGUAGE plpgsql AS $$
     DECLARE row jsonb := to_jsonb(NEW);
     BEGIN
       INSERT INTO ledger_queue (kind, entry_id, entry_seq) VALUES (TG_ARGV[0], row ->> TG_ARGV[1], (row ->> 'seq')::bigint);
       RETURN NULL;
     END $$`,
    `CREATE TRIGGER ${table}_log_enqueue AFTER INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION switchyard_log_enqueue_seq('${kind}', '${idColumn}')`,
  ],
  dropEnqueueForLog: (table) => `DROP TRIGGER IF EXISTS ${table}_log_enqueue ON ${table}`,
  // node-postgres reads bytea as hex text, twice the bytes and slow to parse; base64 is cheaper.
  byteSlice: (column) => ({ sql: `encode(substr(${column}, ?, ?), 'base64')`, encoding: 'base64' }),
};

export const dialectFor = (knex: Knex): Dialect => (knex.client.config.client === 'pg' ? postgresDialect : sqliteDialect);

/** True when an insert failed on a unique index (the database decided: the row already exists). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; errno?: number; message?: string };
  if (e?.code === '23505') return true; // PostgreSQL unique_violation
  return e?.code === 'SQLITE_CONSTRAINT' && /UNIQUE constraint failed/.test(e.message ?? '');
}

/** True when the database refused a change to an append-only table. */
export const isAppendOnlyRefusal = (error: unknown): boolean => /ledger is append-only/.test((error as Error)?.message ?? '');
