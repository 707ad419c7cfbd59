// The runner of hand-written SQL: the one port the dialect's two implementations share
// (SqliteStatements keeps statements prepared; on PostgreSQL knex runs them).
import type { Knex } from 'knex';

/** Runs hand-written SQL and answers its rows (RETURNING included); given a transaction as `db`, on it. */
export interface Statements {
  all<T>(sql: string, bindings: unknown[], db?: Knex): Promise<T[]>;
}
