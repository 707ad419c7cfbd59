// A database URL (sqlite:<file> or postgres://…): its dialect, how it may be shown, and the knex
// settings for it. Apart from database.ts so that the leaf-building worker thread, which only
// connects, does not load the migrations and what they import.
import type { Knex } from 'knex';
import { dialectOfUrl, type Dialect } from './dialect.js';

/** A database URL as it may be shown: without its password. */
export const redactedDatabaseUrl = (url: string): string => url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');

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

/**
 * A failed statement's error names its SQL with placeholders, never the bound values: those are
 * webhook addresses, bodies, arguments and token ids, and errors end up in logs.
 */
export const SQL_ERRORS_WITHOUT_VALUES = { compileSqlOnError: false } as const;

export function knexConfig(url: string): Knex.Config {
  const { dialect, connection } = parseDatabaseUrl(url);
  return { ...dialect.knexConfig(connection), ...SQL_ERRORS_WITHOUT_VALUES };
}

/** A connection for background reads: a second, read-only SQLite connection, or a small PostgreSQL pool. */
export function readerConfig(url: string): Knex.Config {
  const { dialect, connection } = parseDatabaseUrl(url);
  return { ...dialect.readerConfig(connection), ...SQL_ERRORS_WITHOUT_VALUES };
}
