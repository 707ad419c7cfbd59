// Everything that differs between the two engines lives here: the knex client and connection
// settings, how many write transactions overlap, how hand-written SQL runs (prepared and kept on
// SQLite), bulk writes, the integrator's lock, the append-only and log triggers, and how a
// unique-key violation is reported. The stores ask their dialect and never name an engine.
import { resolve } from 'node:path';
import type { Knex } from 'knex';
import { SqliteStatements } from './sqlite-statements.js';
import { chunks, insertValues } from './sql-batches.js';
import type { Statements } from './statements.js';

/** The engine's name as the service reports it (e.g. /healthz). */
export type DialectName = 'sqlite' | 'postgresql';
/** knex's name for the engine's driver: spoken only in this file. */
type KnexClient = 'sqlite3' | 'pg';

/** A row of a bulk write: strings, numbers and nulls only. */
export type PlainRow = Record<string, string | number | null>;

/**
 * The rows that can be first for their (webhook, delivery id): accepted, not duplicates, with an
 * id. The predicate of the partial unique index (migration 004), which the delivery INSERT's
 * conflict target must repeat word for word on both engines for the index to be chosen.
 */
export const FIRST_DELIVERY = "delivery_id IS NOT NULL AND duplicate_of IS NULL AND outcome = 'accepted'";

export interface Dialect {
  name: DialectName;
  /** The database URL's connection part: a SQLite file path (or ":memory:"), or the PostgreSQL URL. */
  connectionOf(url: string, cwd?: string): string;
  /** The knex settings of the service's connections. */
  knexConfig(connection: string): Knex.Config;
  /** The knex settings of background reads: a read-only SQLite connection, or a small pool. */
  readerConfig(connection: string): Knex.Config;
  /** The database file, when there is one to create, checkpoint and read from a second connection. */
  fileOf(connection: string): string | null;
  /** Write transactions in flight at once: SQLite has one writer; PostgreSQL overlaps a few from its pool. */
  writersInFlight: number;
  /**
   * Whether several service processes may share the database (PostgreSQL), so that state they must
   * agree on (client rate limits) lives in it and the roles api and worker may split the work; a
   * SQLite file is one process's.
   */
  sharedByProcesses: boolean;
  /** The runner of hand-written SQL for one database (on SQLite it keeps statements prepared). */
  statements(knex: Knex): Statements;
  /** Inserts any number of rows in as few statements as the engine allows. */
  insertRows(db: Knex, table: string, rows: PlainRow[], statements: Statements): Promise<void>;
  /** Deletes the rows whose seq is listed. */
  deleteSeqs(db: Knex, table: string, seqs: string[], statements: Statements): Promise<void>;
  /** Deletes the rows whose text `column` (a key such as an id) is listed. */
  deleteKeys(db: Knex, table: string, column: string, keys: string[], statements: Statements): Promise<void>;
  /** Takes a transaction-scoped lock that serialises integrators across processes. */
  lockForIntegration(trx: Knex.Transaction, lockId: number): Promise<void>;
  /** SQL that makes `table` append-only: UPDATE and DELETE (and TRUNCATE where it exists) fail. */
  appendOnly(table: string): string[];
  dropAppendOnly(table: string): string[];
  /**
   * SQL that replaces an append-only table's UPDATE refusal with one that lets through exactly an
   * erasure (migration 022, erasure-triggers.ts): the row's id has a `ledger_erasures` row of
   * `kind`, every `kept` column is unchanged, and what `emptied` names is empty in NEW.
   */
  erasureOnlyUpdate(table: string, kind: string, kept: readonly string[], emptied: ErasureEmptied): string[];
  /** SQL that puts the plain UPDATE refusal back (migration 022 down). */
  refuseEveryUpdate(table: string): string[];
  /**
   * SQL that queues every row inserted into `table` for the Merkle log, in the same transaction, by
   * kind and id (migrations 005–007; kept as they shipped).
   */
  enqueueForLog(table: string, kind: string, idColumn: string): string[];
  /** The same trigger, replaced by one that also queues the row's `seq` (migration 008 on). */
  enqueueWithSeqForLog(table: string, kind: string, idColumn: string): string[];
  /** SQL that removes `table`'s enqueue trigger, either version. */
  dropEnqueueForLog(table: string): string;
  /** SQL that removes what only the seq-queuing triggers use (migration 008 down). */
  dropEnqueueWithSeq(): string[];
  /**
   * SQL for `length` bytes of a binary column from a 1-based offset (two placeholders: offset,
   * length), read without the rest of the value, and how the driver hands the slice back.
   */
  byteSlice(column: string): { sql: string; encoding: 'binary' | 'base64' };
  /**
   * True when a row keeps its large values inline in column order, so that reading a column after
   * a large one walks the large one's overflow pages (SQLite); false when they are kept out of line
   * and the other columns read without them (PostgreSQL's TOAST). Migration 010 rebuilds the
   * deliveries table with the body last where this is true.
   */
  largeValuesInRow: boolean;
  /**
   * Adds nullable columns to a table whose last column holds large values (the deliveries' body),
   * keeping that column last: where large values sit in the row (SQLite) the table is rebuilt with
   * the new columns before it, its rows, indexes and triggers kept; elsewhere they are added.
   */
  addColumnsBeforeLast(knex: Knex, table: string, columns: ReadonlyArray<readonly [name: string, type: string]>): Promise<void>;
  /** SQL for the SHA-256 (hex) of a binary column where the engine has it; null where the adapter must hash. */
  sha256Hex(column: string): string | null;
  /**
   * What a claiming SELECT ends with so that concurrent claimers pass over each other's rows
   * (PostgreSQL's FOR UPDATE SKIP LOCKED); empty where one writer serialises claims (SQLite).
   */
  skipLockedRows: string;
}

/**
 * What an erasure empties: columns set to a given empty value (null or a text), and keys of a JSON
 * text column that must be null while the rest of that JSON stays as it was.
 */
export interface ErasureEmptied {
  columns: ReadonlyArray<readonly [column: string, empty: string | null]>;
  json?: { column: string; keys: readonly string[] };
}

const hasErasure = (kind: string) => `EXISTS (SELECT 1 FROM ledger_erasures e WHERE e.entry = OLD.id AND e.entry_kind = '${kind}')`;
const erasureRefusal = (table: string) => `ledger is append-only: UPDATE on ${table} is allowed only to erase an entry with an erasure entry`;
const emptyIs = (column: string, empty: string | null) => (empty === null ? `NEW."${column}" IS NULL` : `NEW."${column}" = '${empty}'`);

/** Through knex: the driver prepares each statement anew. */
const knexStatements = (knex: Knex): Statements => ({
  async all<T>(sql: string, bindings: unknown[], db: Knex = knex): Promise<T[]> {
    return ((await db.raw(sql, bindings as Knex.RawBinding[])) as { rows: T[] }).rows;
  },
});

const SQLITE: KnexClient = 'sqlite3';
const PG: KnexClient = 'pg';

const refusal = (table: string, op: string) => `ledger is append-only: ${op} on ${table} is not allowed`;

interface SqliteColumn {
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
}

/**
 * SQLite: `table` again with `columns` before its last column, read from the schema as it stands
 * (so columns other migrations added are kept), every row copied in order (AUTOINCREMENT's counter
 * follows the copied seq), and its indexes and triggers recreated from their own SQL. Dropping the
 * old table fires no DELETE trigger.
 */
async function rebuildWithColumnsBeforeLast(knex: Knex, table: string, columns: ReadonlyArray<readonly [string, string]>): Promise<void> {
  const info = (await knex.raw(`PRAGMA table_info(${table})`)) as SqliteColumn[];
  const created = (await knex('sqlite_master').where({ type: 'table', name: table }).first('sql')) as { sql: string } | undefined;
  if (!created || info.length === 0) throw new Error(`no table ${table} to rebuild`);
  const extras = (await knex('sqlite_master').select('type', 'name', 'sql').where({ tbl_name: table }).whereIn('type', ['index', 'trigger']).orderBy('type')) as Array<{ type: string; name: string; sql: string | null }>;
  const keys = info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
  // SQLite indexes a primary key other than one INTEGER column itself, and an inline UNIQUE
  // constraint too; only the first comes back with the definitions below, so refuse the second.
  const keyIndexes = keys.length > 0 && !(keys.length === 1 && keys[0]!.type.toUpperCase() === 'INTEGER') ? 1 : 0;
  const implicit = extras.filter((e) => e.sql === null);
  if (implicit.length > keyIndexes) throw new Error(`cannot rebuild ${table}: ${implicit.map((e) => e.name).join(', ')} come from inline constraints`);
  const autoincrement = /\bautoincrement\b/i.test(created.sql);
  const definition = (c: SqliteColumn): string =>
    `"${c.name}" ${c.type}${keys.length === 1 && c.pk ? ` PRIMARY KEY${autoincrement ? ' AUTOINCREMENT' : ''}` : ''}${c.notnull ? ' NOT NULL' : ''}${c.dflt_value !== null ? ` DEFAULT ${c.dflt_value}` : ''}`;
  const last = info[info.length - 1]!;
  const definitions = [...info.slice(0, -1).map(definition), ...columns.map(([name, type]) => `"${name}" ${type} NULL`), definition(last)];
  if (keys.length > 1) definitions.push(`PRIMARY KEY (${keys.map((c) => `"${c.name}"`).join(', ')})`);
  const rebuilt = `${table}_rebuilt`;
  const copied = info.map((c) => `"${c.name}"`).join(', ');
  await knex.raw(`CREATE TABLE "${rebuilt}" (${definitions.join(', ')})`);
  await knex.raw(`INSERT INTO "${rebuilt}" (${copied}) SELECT ${copied} FROM "${table}" ORDER BY rowid`);
  await knex.schema.dropTable(table);
  await knex.raw(`ALTER TABLE "${rebuilt}" RENAME TO "${table}"`);
  for (const e of extras) if (e.sql !== null) await knex.raw(e.sql);
}

export const sqliteDialect: Dialect = {
  name: 'sqlite',
  sharedByProcesses: false,
  connectionOf: (url, cwd = process.cwd()) => {
    const file = /^sqlite:(?:\/\/)?(.+)$/.exec(url)![1]!;
    return file === ':memory:' ? file : resolve(cwd, file);
  },
  knexConfig: (connection) => ({
    client: SQLITE,
    connection: { filename: connection },
    useNullAsDefault: true,
    // One connection: SQLite serialises writers anyway, and one connection keeps the WAL settings.
    pool: {
      min: 1,
      max: 1,
      afterCreate: (conn: { run(sql: string, cb: (err: Error | null) => void): void }, done: (err: Error | null, conn: unknown) => void) => {
        conn.run('PRAGMA journal_mode = WAL', (err) => {
          if (err) return done(err, conn);
          // NORMAL is durable in WAL mode up to the last checkpointed commit and much faster than FULL.
          conn.run('PRAGMA synchronous = NORMAL', (err2) => {
            if (err2) return done(err2, conn);
            conn.run('PRAGMA busy_timeout = 5000', (err3) => {
              if (err3) return done(err3, conn);
              // Checkpoints run on their own connection (see sqlite-checkpointer.ts).
              conn.run('PRAGMA wal_autocheckpoint = 0', (err4) => done(err4, conn));
            });
          });
        });
      },
    },
  }),
  readerConfig: (connection) => ({
    client: SQLITE,
    connection: { filename: connection },
    useNullAsDefault: true,
    pool: { min: 1, max: 1, afterCreate: (conn: { run(sql: string, cb: (err: Error | null) => void): void }, done: (err: Error | null, conn: unknown) => void) => conn.run('PRAGMA query_only = 1', (err) => done(err, conn)) },
  }),
  fileOf: (connection) => (connection === ':memory:' ? null : connection),
  writersInFlight: 1,
  statements: (knex) => new SqliteStatements(knex),
  /**
   * One statement with the rows as one JSON parameter: the SQL never changes, so it is prepared
   * once, and one string is bound. (The sqlite3 driver converts bound values on the JavaScript
   * thread, and all but strings cost it an instanceof check each.)
   */
  async insertRows(db, table, rows, statements) {
    if (rows.length === 0) return;
    const columns = Object.keys(rows[0]!);
    const sql = `INSERT INTO ${table} (${columns.map((c) => `"${c}"`).join(', ')}) SELECT ${columns.map((_, i) => `value ->> ${i}`).join(', ')} FROM json_each(?)`;
    await statements.all(sql, [JSON.stringify(rows.map((row) => columns.map((c) => row[c])))], db);
  },
  async deleteSeqs(db, table, seqs, statements) {
    await statements.all(`DELETE FROM ${table} WHERE seq IN (SELECT value FROM json_each(?))`, [JSON.stringify(seqs.map(Number))], db);
  },
  // One prepared statement for any number of keys, as deleteSeqs: knex would build and plan each anew.
  async deleteKeys(db, table, column, keys, statements) {
    await statements.all(`DELETE FROM ${table} WHERE "${column}" IN (SELECT value FROM json_each(?))`, [JSON.stringify(keys)], db);
  },
  // The one writer connection already serialises every write transaction.
  lockForIntegration: async () => {},
  appendOnly: (table) =>
    ['UPDATE', 'DELETE'].map(
      (op) => `CREATE TRIGGER ${table}_no_${op.toLowerCase()} BEFORE ${op} ON ${table} BEGIN SELECT RAISE(ABORT, '${refusal(table, op)}'); END`,
    ),
  dropAppendOnly: (table) => ['update', 'delete'].map((op) => `DROP TRIGGER IF EXISTS ${table}_no_${op}`),
  erasureOnlyUpdate: (table, kind, kept, emptied) => {
    const paths = emptied.json?.keys.map((k) => `'$.${k}'`).join(', ');
    const conditions = [
      hasErasure(kind),
      ...kept.map((c) => `NEW."${c}" IS OLD."${c}"`),
      ...emptied.columns.map(([c, empty]) => emptyIs(c, empty)),
      ...(emptied.json ? [`json_remove(NEW."${emptied.json.column}", ${paths}) = json_remove(OLD."${emptied.json.column}", ${paths})`, ...emptied.json.keys.map((k) => `json_extract(NEW."${emptied.json!.column}", '$.${k}') IS NULL`)] : []),
    ];
    return [
      `DROP TRIGGER IF EXISTS ${table}_no_update`,
      `CREATE TRIGGER ${table}_no_update BEFORE UPDATE ON ${table} WHEN NOT (${conditions.join(' AND ')}) BEGIN SELECT RAISE(ABORT, '${erasureRefusal(table)}'); END`,
    ];
  },
  refuseEveryUpdate: (table) => [`DROP TRIGGER IF EXISTS ${table}_no_update`, `CREATE TRIGGER ${table}_no_update BEFORE UPDATE ON ${table} BEGIN SELECT RAISE(ABORT, '${refusal(table, 'UPDATE')}'); END`],
  enqueueForLog: (table, kind, idColumn) => [
    `CREATE TRIGGER ${table}_log_enqueue AFTER INSERT ON ${table} BEGIN INSERT INTO ledger_queue (kind, entry_id) VALUES ('${kind}', NEW.${idColumn}); END`,
  ],
  enqueueWithSeqForLog: (table, kind, idColumn) => [
    sqliteDialect.dropEnqueueForLog(table),
    `CREATE TRIGGER ${table}_log_enqueue AFTER INSERT ON ${table} BEGIN INSERT INTO ledger_queue (kind, entry_id, entry_seq) VALUES ('${kind}', NEW.${idColumn}, NEW.seq); END`,
  ],
  dropEnqueueForLog: (table) => `DROP TRIGGER IF EXISTS ${table}_log_enqueue`,
  dropEnqueueWithSeq: () => [],
  byteSlice: (column) => ({ sql: `substr(${column}, ?, ?)`, encoding: 'binary' }),
  largeValuesInRow: true,
  addColumnsBeforeLast: rebuildWithColumnsBeforeLast,
  sha256Hex: () => null,
  skipLockedRows: '',
};

// knex prints each failed connection attempt with its stack; the error itself reaches the caller
// (at start, as one line), so that print is dropped. Other warnings print as knex would.
const quietConnectErrors = {
  warn: (message: unknown) => {
    if (!String(message).startsWith('Acquire connection error')) console.warn(message);
  },
};

export const postgresDialect: Dialect = {
  name: 'postgresql',
  sharedByProcesses: true,
  connectionOf: (url) => url,
  knexConfig: (connection) => ({ client: PG, connection, pool: { min: 0, max: 10 }, log: quietConnectErrors }),
  readerConfig: (connection) => ({ client: PG, connection, pool: { min: 0, max: 2 } }),
  fileOf: () => null,
  writersInFlight: 4,
  statements: knexStatements,
  /** VALUES lists of ROWS_PER_STATEMENT rows. */
  async insertRows(db, table, rows, statements) {
    for (const part of chunks(rows)) await insertValues(db, table, part, statements);
  },
  async deleteSeqs(db, table, seqs) {
    for (const part of chunks(seqs)) await db(table).whereIn('seq', part).delete();
  },
  async deleteKeys(db, table, column, keys) {
    for (const part of chunks(keys)) await db(table).whereIn(column, part).delete();
  },
  lockForIntegration: async (trx, lockId) => {
    await trx.raw('SELECT pg_advisory_xact_lock(?)', [lockId]);
  },
  appendOnly: (table) => [
    // One function serves every append-only table; TG_OP and TG_TABLE_NAME name what was refused.
    `CREATE OR REPLACE FUNCTION switchyard_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       RAISE EXCEPTION 'ledger is append-only: % on % is not allowed', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
     END $$`,
    `CREATE TRIGGER ${table}_append_only BEFORE UPDATE OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION switchyard_append_only()`,
    `CREATE TRIGGER ${table}_no_truncate BEFORE TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION switchyard_append_only()`,
  ],
  // With the erasure-only UPDATE trigger of migration 022 where the table has one (erasure-triggers.ts).
  dropAppendOnly: (table) => [`DROP TRIGGER IF EXISTS ${table}_append_only ON ${table}`, `DROP TRIGGER IF EXISTS ${table}_no_truncate ON ${table}`, `DROP TRIGGER IF EXISTS ${table}_erasure_only ON ${table}`],
  erasureOnlyUpdate: (table, kind, kept, emptied) => {
    const json = emptied.json;
    const keys = json ? `ARRAY[${json.keys.map((k) => `'${k}'`).join(', ')}]` : '';
    const conditions = [
      hasErasure(kind),
      ...kept.map((c) => `NEW."${c}" IS NOT DISTINCT FROM OLD."${c}"`),
      ...emptied.columns.map(([c, empty]) => emptyIs(c, empty)),
      ...(json
        ? [`(NEW."${json.column}"::jsonb - ${keys}) = (OLD."${json.column}"::jsonb - ${keys})`, ...json.keys.map((k) => `coalesce(NEW."${json.column}"::jsonb -> '${k}', 'null'::jsonb) = 'null'::jsonb`)]
        : []),
    ];
    return [
      `CREATE OR REPLACE FUNCTION ${table}_erasure_only() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         IF ${conditions.join(' AND ')} THEN RETURN NEW; END IF;
         RAISE EXCEPTION '${erasureRefusal(table)}' USING ERRCODE = 'restrict_violation';
       END $$`,
      // The shared trigger refused UPDATE and DELETE together: DELETE keeps it, UPDATE gets the narrow one.
      `DROP TRIGGER IF EXISTS ${table}_append_only ON ${table}`,
      `CREATE TRIGGER ${table}_append_only BEFORE DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION switchyard_append_only()`,
      `CREATE TRIGGER ${table}_erasure_only BEFORE UPDATE ON ${table} FOR EACH ROW EXECUTE FUNCTION ${table}_erasure_only()`,
    ];
  },
  refuseEveryUpdate: (table) => [
    `DROP TRIGGER IF EXISTS ${table}_erasure_only ON ${table}`,
    `DROP FUNCTION IF EXISTS ${table}_erasure_only()`,
    `DROP TRIGGER IF EXISTS ${table}_append_only ON ${table}`,
    `CREATE TRIGGER ${table}_append_only BEFORE UPDATE OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION switchyard_append_only()`,
  ],
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
  dropEnqueueWithSeq: () => ['DROP FUNCTION IF EXISTS switchyard_log_enqueue_seq()'],
  // node-postgres reads bytea as hex text, twice the bytes and slow to parse; base64 is cheaper.
  byteSlice: (column) => ({ sql: `encode(substr(${column}, ?, ?), 'base64')`, encoding: 'base64' }),
  largeValuesInRow: false,
  async addColumnsBeforeLast(knex, table, columns) {
    // TOAST keeps a large value out of the row: a column added at the end reads without it.
    for (const [name, type] of columns) await knex.raw(`ALTER TABLE ${table} ADD COLUMN "${name}" ${type} NULL`);
  },
  sha256Hex: (column) => `encode(sha256(${column}), 'hex')`,
  skipLockedRows: ' FOR UPDATE SKIP LOCKED',
};

/** The dialect of an open knex instance. */
export const dialectFor = (knex: Knex): Dialect => ((knex.client.config.client as KnexClient) === PG ? postgresDialect : sqliteDialect);

/** The dialect a database URL names: postgres:// or postgresql://, or sqlite:<file>. */
export function dialectOfUrl(url: string): Dialect | undefined {
  if (/^postgres(ql)?:\/\//.test(url)) return postgresDialect;
  if (/^sqlite:(?:\/\/)?(.+)$/.test(url)) return sqliteDialect;
  return undefined;
}

/** True when an insert failed on a unique index (the database decided: the row already exists). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; errno?: number; message?: string };
  if (e?.code === '23505') return true; // PostgreSQL unique_violation
  return e?.code === 'SQLITE_CONSTRAINT' && /UNIQUE constraint failed/.test(e.message ?? '');
}

/** True when the database refused a change to an append-only table. */
export const isAppendOnlyRefusal = (error: unknown): boolean => /ledger is append-only/.test((error as Error)?.message ?? '');

export type { Statements } from './statements.js';
