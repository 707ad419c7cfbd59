// Writing many rows per statement, on both engines (the engine's own bulk strategies are in dialect.ts).
import type { Knex } from 'knex';
import type { Statements } from './statements.js';

/** Rows per INSERT and ids per IN list: well inside SQLite's limit on bound parameters. */
export const ROWS_PER_STATEMENT = 500;

export const chunks = <T>(items: T[], size = ROWS_PER_STATEMENT): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/**
 * A multi-row INSERT written as one VALUES list (knex writes SQLite's as a compound SELECT,
 * `select ? as a … union all select …`, which SQLite parses and plans much more slowly). Takes rows
 * of any value type (a Buffer, a boolean), up to ROWS_PER_STATEMENT. For any number of rows of
 * strings, numbers and nulls, the dialect's insertRows is cheaper on SQLite.
 */
export async function insertValues(db: Knex, table: string, rows: Array<Record<string, unknown>>, statements: Statements): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  const bindings = rows.flatMap((row) => columns.map((c) => row[c] as Knex.Value));
  const sql = `INSERT INTO ${table} (${columns.map((c) => `"${c}"`).join(', ')}) VALUES ${rows.map(() => tuple).join(', ')}`;
  // With SQLite's statement cache, a statement of a size seen before is not parsed again.
  await statements.all(sql, bindings, db);
}
