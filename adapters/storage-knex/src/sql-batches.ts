// Writing and reading many rows per statement, on both engines.
import type { Knex } from 'knex';

/** Rows per INSERT and ids per IN list: well inside SQLite's limit on bound parameters. */
export const ROWS_PER_STATEMENT = 500;

export const chunks = <T>(items: T[], size = ROWS_PER_STATEMENT): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/**
 * A multi-row INSERT written as one VALUES list. knex writes SQLite's as a compound SELECT
 * (`select ? as a … union all select …`), which SQLite parses and plans much more slowly.
 */
export async function insertValues(db: Knex, table: string, rows: Array<Record<string, unknown>>): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  const bindings = rows.flatMap((row) => columns.map((c) => row[c] as Knex.Value));
  await db.raw(`INSERT INTO ${table} (${columns.map((c) => `"${c}"`).join(', ')}) VALUES ${rows.map(() => tuple).join(', ')}`, bindings);
}
