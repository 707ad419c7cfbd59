// Prepared statements kept across calls on SQLite's one connection. knex prepares (parses and
// plans) every statement anew and finalizes it after; for the multi-row INSERT of a delivery batch
// that is most of the write's cost on the database thread. A small LRU keeps the recent shapes.
import type { Knex } from 'knex';
import type sqlite3 from 'sqlite3';
import type { Statements } from './statements.js';

export class SqliteStatements implements Statements {
  private readonly byConnection = new WeakMap<sqlite3.Database, Map<string, sqlite3.Statement>>();

  constructor(
    private readonly knex: Knex,
    private readonly capacity = 32,
  ) {}

  /**
   * Runs `sql` with `bindings` and answers its rows (RETURNING included). Given a transaction as
   * `db`, it runs on the transaction's connection (the same one, on SQLite's single writer).
   */
  async all<T>(sql: string, bindings: unknown[], db: Knex = this.knex): Promise<T[]> {
    const client = db.client as { acquireConnection(): Promise<sqlite3.Database>; releaseConnection(c: sqlite3.Database): Promise<void> };
    const connection = await client.acquireConnection();
    try {
      const statement = await this.statement(connection, sql);
      return await new Promise<T[]>((resolve, reject) =>
        statement.all(bindings, (err: Error | null, rows: T[]) => {
          if (!err) return resolve(rows);
          this.forget(connection, sql); // a statement that failed (to prepare, or mid-run) is not reused
          reject(err);
        }),
      );
    } finally {
      await client.releaseConnection(connection);
    }
  }

  private forget(connection: sqlite3.Database, sql: string): void {
    const cache = this.byConnection.get(connection);
    const statement = cache?.get(sql);
    if (!statement) return;
    cache!.delete(sql);
    statement.finalize();
  }

  private async statement(connection: sqlite3.Database, sql: string): Promise<sqlite3.Statement> {
    let cache = this.byConnection.get(connection);
    if (!cache) this.byConnection.set(connection, (cache = new Map()));
    let statement = cache.get(sql);
    if (statement) {
      cache.delete(sql); // re-inserted below: Map order is the LRU order
    } else {
      statement = await prepared(connection, sql);
      if (cache.size >= this.capacity) {
        const [oldest, evicted] = cache.entries().next().value as [string, sqlite3.Statement];
        cache.delete(oldest);
        evicted.finalize();
      }
    }
    cache.set(sql, statement);
    return statement;
  }
}

/**
 * Prepares `sql`, failing as a rejected promise. Without a callback the driver throws a failed
 * prepare (a missing table, a busy or broken database) as an uncaught exception, and a statement
 * that failed to prepare never calls back the runs queued on it.
 */
function prepared(connection: sqlite3.Database, sql: string): Promise<sqlite3.Statement> {
  return new Promise((resolve, reject) => {
    const statement = connection.prepare(sql, (err: Error | null) => (err ? reject(err) : resolve(statement)));
  });
}
