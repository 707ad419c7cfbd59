// Opens the database named by a URL (sqlite:<file> or postgres://…) and brings its schema up to date.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { SQL_ERRORS_WITHOUT_VALUES, parseDatabaseUrl, redactedDatabaseUrl } from './database-url.js';
import type { Dialect } from './dialect.js';
import { WorkerLeafReader } from './leaf-worker.js';
import { migrationSource } from './migrations/index.js';
import { inThreadLeafReader, type QueuedLeafReader } from './queued-leaves.js';
import { startCheckpointer } from './sqlite-checkpointer.js';

export interface Database {
  knex: Knex;
  /**
   * For bulk background reads (the ledger integrator). On a SQLite file, a second, read-only
   * connection: in WAL mode it reads without holding up the one writer. Elsewhere, `knex` itself.
   */
  readKnex: Knex;
  /**
   * Builds the ledger's leaves for the integrator: in a worker thread with its own read connection
   * unless turned off, and never for an in-memory SQLite database, which no other connection sees.
   */
  leafReader: QueuedLeafReader;
  dialect: Dialect;
  close(): Promise<void>;
}

/** The database cannot be reached or opened at all (no such database, refused, bad credentials). */
export class DatabaseUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseUnavailableError';
  }
}

// Failures of reaching the database rather than of a statement: PostgreSQL's connection (08),
// authorization (28) and no-such-database (3D000) classes, the socket errors, SQLite's cannot-open.
const UNREACHABLE_CODES = /^(08...|28...|3D000|57P03|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNRESET|EHOSTUNREACH|SQLITE_CANTOPEN)$/;

/** The one line a user needs when the database cannot be opened, or null for other errors. */
function unavailable(error: unknown, url: string): DatabaseUnavailableError | null {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code !== 'string' || !UNREACHABLE_CODES.test(code)) return null;
  const reason = String(message).split('\n')[0];
  let hint = '';
  if (code === '3D000') {
    const name = decodeURIComponent(new URL(url).pathname.slice(1));
    hint = `; create it first (createdb ${JSON.stringify(name)}, or CREATE DATABASE in psql)`;
  } else if (code.startsWith('E')) {
    hint = '; is PostgreSQL running there?';
  }
  return new DatabaseUnavailableError(`cannot open the database ${redactedDatabaseUrl(url)}: ${reason}${hint}`);
}

export interface OpenOptions {
  /** Build ledger leaves in a worker thread (default true; never for an in-memory database). */
  leafWorker?: boolean;
}

/** Any fixed 32-bit number naming "Switchyard's migrations" among advisory locks (the other key is the schema). */
const MIGRATIONS_LOCK = 0x53794d67;

/**
 * Brings the schema up to date. Processes sharing a database (PostgreSQL) may start at the same
 * instant on a fresh one, and knex creates its own bookkeeping tables without a lock of its own,
 * so the losers would fail "relation knex_migrations already exists": they wait instead, on an
 * advisory lock per schema held on a connection of its own, and then find nothing left to do.
 */
async function migrate(knex: Knex, lockConnection: (() => Knex) | null): Promise<void> {
  if (!lockConnection) return void (await knex.migrate.latest({ migrationSource }));
  const lock = lockConnection();
  try {
    await lock.raw('SELECT pg_advisory_lock(?, hashtext(current_schema()))', [MIGRATIONS_LOCK]);
    await knex.migrate.latest({ migrationSource });
  } finally {
    // Ending the session lets the lock go whatever happened; unlocking first keeps it short.
    await lock.raw('SELECT pg_advisory_unlock(?, hashtext(current_schema()))', [MIGRATIONS_LOCK]).catch(() => undefined);
    await lock.destroy();
  }
}

export async function openDatabase(url: string, { leafWorker = true }: OpenOptions = {}): Promise<Database> {
  const { dialect, connection } = parseDatabaseUrl(url);
  const file = dialect.fileOf(connection);
  if (file !== null) mkdirSync(dirname(file), { recursive: true });
  const knex = knexFactory({ ...dialect.knexConfig(connection), ...SQL_ERRORS_WITHOUT_VALUES });
  try {
    await migrate(knex, dialect.sharedByProcesses ? () => knexFactory({ ...dialect.knexConfig(connection), pool: { min: 1, max: 1 }, ...SQL_ERRORS_WITHOUT_VALUES }) : null);
  } catch (error) {
    await knex.destroy();
    throw unavailable(error, url) ?? error;
  }
  // A file database checkpoints its WAL from a second connection, and past a bound the writer lets
  // it start over (sqlite-checkpointer.ts); :memory: has no WAL.
  const checkpointer = file !== null ? await startCheckpointer(file, { checkpointOnWriter: () => knex.raw('PRAGMA wal_checkpoint(PASSIVE)') }) : null;
  const readKnex = file !== null ? knexFactory({ ...dialect.readerConfig(connection), ...SQL_ERRORS_WITHOUT_VALUES }) : knex;
  const leafReader = leafWorker && connection !== ':memory:' ? new WorkerLeafReader(url) : inThreadLeafReader(readKnex);
  return {
    knex,
    readKnex,
    leafReader,
    dialect,
    close: async () => {
      await leafReader.close();
      if (readKnex !== knex) await readKnex.destroy();
      await knex.destroy();
      await checkpointer?.close();
    },
  };
}
