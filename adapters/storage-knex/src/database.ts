// Opens the database named by a URL (sqlite:<file> or postgres://…) and brings its schema up to date.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { dialectOfUrl, type Dialect } from './dialect.js';
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

export interface DatabaseUrl {
  dialect: Dialect;
  /** File path for SQLite (or ":memory:"), the URL itself for PostgreSQL. */
  connection: string;
}

export function parseDatabaseUrl(url: string, cwd: string = process.cwd()): DatabaseUrl {
  const dialect = dialectOfUrl(url);
  if (!dialect) throw new Error(`database.url must start with sqlite: or postgres:// (got ${JSON.stringify(url.replace(/\/\/[^@]*@/, '//…@'))})`);
  return { dialect, connection: dialect.connectionOf(url, cwd) };
}

export function knexConfig(url: string): Knex.Config {
  const { dialect, connection } = parseDatabaseUrl(url);
  return dialect.knexConfig(connection);
}

/** A connection for background reads: a second, read-only SQLite connection, or a small PostgreSQL pool. */
export function readerConfig(url: string): Knex.Config {
  const { dialect, connection } = parseDatabaseUrl(url);
  return dialect.readerConfig(connection);
}

export interface OpenOptions {
  /** Build ledger leaves in a worker thread (default true; never for an in-memory database). */
  leafWorker?: boolean;
}

export async function openDatabase(url: string, { leafWorker = true }: OpenOptions = {}): Promise<Database> {
  const { dialect, connection } = parseDatabaseUrl(url);
  const file = dialect.fileOf(connection);
  if (file !== null) mkdirSync(dirname(file), { recursive: true });
  const knex = knexFactory(dialect.knexConfig(connection));
  try {
    await knex.migrate.latest({ migrationSource });
  } catch (error) {
    await knex.destroy();
    throw error;
  }
  // A file database checkpoints its WAL from a second connection, and past a bound the writer lets
  // it start over (sqlite-checkpointer.ts); :memory: has no WAL.
  const checkpointer = file !== null ? await startCheckpointer(file, { checkpointOnWriter: () => knex.raw('PRAGMA wal_checkpoint(PASSIVE)') }) : null;
  const readKnex = file !== null ? knexFactory(dialect.readerConfig(connection)) : knex;
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
