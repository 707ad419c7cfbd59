// Writing and reading many rows per statement, on both engines.
import type { Knex } from 'knex';
import type { SqliteStatements } from './sqlite-statements.js';

/** Rows per INSERT and ids per IN list: well inside SQLite's limit on bound parameters. */
export const ROWS_PER_STATEMENT = 500;

export const chunks = <T>(items: T[], size = ROWS_PER_STATEMENT): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/**
 * A multi-row INSERT written as one VALUES list (knex writes SQLite's as a compound SELECT,
 * `select ? as a … union all select …`, which SQLite parses and plans much more slowly). Takes rows
 * of any value type (a Buffer, a boolean), up to ROWS_PER_STATEMENT. For any number of rows of
 * strings, numbers and nulls, insertRows is cheaper on SQLite.
 */
export async function insertValues(db: Knex, table: string, rows: Array<Record<string, unknown>>, statements: SqliteStatements | null = null): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  const bindings = rows.flatMap((row) => columns.map((c) => row[c] as Knex.Value));
  const sql = `INSERT INTO ${table} (${columns.map((c) => `"${c}"`).join(', ')}) VALUES ${rows.map(() => tuple).join(', ')}`;
  // With SQLite's statement cache, a statement of a size seen before is not parsed again.
  if (statements) await statements.all(sql, bindings, db);
  else await db.raw(sql, bindings);
}

/**
 * Inserts any number of rows in as few statements as the engine allows. On SQLite (given its
 * statement cache) that is one statement with the rows as one JSON parameter: the SQL never
 * changes, so it is prepared once, and one string is bound. (The sqlite3 driver converts bound
 * values on the JavaScript thread, and all but strings cost it an instanceof check each.) Values
 * must be strings, numbers or null. Elsewhere: VALUES lists of ROWS_PER_STATEMENT rows.
 */
export async function insertRows(db: Knex, table: string, rows: Array<Record<string, string | number | null>>, statements: SqliteStatements | null): Promise<void> {
  if (rows.length === 0) return;
  if (!statements) {
    for (const part of chunks(rows)) await insertValues(db, table, part);
    return;
  }
  const columns = Object.keys(rows[0]!);
  const sql = `INSERT INTO ${table} (${columns.map((c) => `"${c}"`).join(', ')}) SELECT ${columns.map((_, i) => `value ->> ${i}`).join(', ')} FROM json_each(?)`;
  await statements.all(sql, [JSON.stringify(rows.map((row) => columns.map((c) => row[c])))], db);
}

/** Deletes the rows whose seq is listed: on SQLite one statement with the list as JSON, as insertRows. */
export async function deleteSeqs(db: Knex, table: string, seqs: string[], statements: SqliteStatements | null): Promise<void> {
  if (!statements) {
    for (const part of chunks(seqs)) await db(table).whereIn('seq', part).delete();
    return;
  }
  await statements.all(`DELETE FROM ${table} WHERE seq IN (SELECT value FROM json_each(?))`, [JSON.stringify(seqs.map(Number))], db);
}
