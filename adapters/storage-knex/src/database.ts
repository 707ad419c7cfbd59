// Opens the database named by a URL (sqlite:<file> or postgres://…) and brings its schema up to date.
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { dialectFor, type Dialect } from './dialect.js';
import { WorkerLeafReader } from './leaf-worker.js';
import { migrationSource } from './migrations.js';
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

/** A database URL as it may be shown: without its password. */
export const redactedDatabaseUrl = (url: string): string => url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');

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

export interface DatabaseUrl {
  client: 'sqlite3' | 'pg';
  /** File path for SQLite (or ":memory:"), the URL itself for PostgreSQL. */
  connection: string;
}

export function parseDatabaseUrl(url: string, cwd: string = process.cwd()): DatabaseUrl {
  if (/^postgres(ql)?:\/\//.test(url)) return { client: 'pg', connection: url };
  const sqlite = /^sqlite:(?:\/\/)?(.+)$/.exec(url);
  if (sqlite) {
    const file = sqlite[1]!;
    return { client: 'sqlite3', connection: file === ':memory:' ? file : resolve(cwd, file) };
  }
  throw new Error(`database.url must start with sqlite: or postgres:// (got ${JSON.stringify(url.replace(/\/\/[^@]*@/, '//…@'))})`);
}

// knex prints each failed connection attempt with its stack; the error itself reaches the caller
// (at start, as one line), so that print is dropped. Other warnings print as knex would.
const quietConnectErrors = {
  warn: (message: unknown) => {
    if (!String(message).startsWith('Acquire connection error')) console.warn(message);
  },
};

export function knexConfig(url: string): Knex.Config {
  const parsed = parseDatabaseUrl(url);
  if (parsed.client === 'pg') {
    return { client: 'pg', connection: parsed.connection, pool: { min: 0, max: 10 }, log: quietConnectErrors };
  }
  return {
    client: 'sqlite3',
    connection: { filename: parsed.connection },
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
  };
}

/** A connection for background reads: a second, read-only SQLite connection, or a small PostgreSQL pool. */
export function readerConfig(url: string): Knex.Config {
  const parsed = parseDatabaseUrl(url);
  if (parsed.client === 'pg') return { client: 'pg', connection: parsed.connection, pool: { min: 0, max: 2 } };
  return {
    client: 'sqlite3',
    connection: { filename: parsed.connection },
    useNullAsDefault: true,
    pool: { min: 1, max: 1, afterCreate: (conn: { run(sql: string, cb: (err: Error | null) => void): void }, done: (err: Error | null, conn: unknown) => void) => conn.run('PRAGMA query_only = 1', (err) => done(err, conn)) },
  };
}

export interface OpenOptions {
  /** Build ledger leaves in a worker thread (default true; never for an in-memory database). */
  leafWorker?: boolean;
}

export async function openDatabase(url: string, { leafWorker = true }: OpenOptions = {}): Promise<Database> {
  const parsed = parseDatabaseUrl(url);
  if (parsed.client === 'sqlite3' && parsed.connection !== ':memory:') mkdirSync(dirname(parsed.connection), { recursive: true });
  const knex = knexFactory(knexConfig(url));
  try {
    await knex.migrate.latest({ migrationSource });
  } catch (error) {
    await knex.destroy();
    throw unavailable(error, url) ?? error;
  }
  // A file database checkpoints its WAL from a second connection, and past a bound the writer lets
  // it start over (sqlite-checkpointer.ts); :memory: has no WAL.
  const file = parsed.client === 'sqlite3' && parsed.connection !== ':memory:';
  const checkpointer = file ? await startCheckpointer(parsed.connection, { checkpointOnWriter: () => knex.raw('PRAGMA wal_checkpoint(PASSIVE)') }) : null;
  const readKnex = file ? knexFactory(readerConfig(url)) : knex;
  const leafReader = leafWorker && parsed.connection !== ':memory:' ? new WorkerLeafReader(url) : inThreadLeafReader(readKnex);
  return {
    knex,
    readKnex,
    leafReader,
    dialect: dialectFor(knex),
    close: async () => {
      await leafReader.close();
      if (readKnex !== knex) await readKnex.destroy();
      await knex.destroy();
      await checkpointer?.close();
    },
  };
}
