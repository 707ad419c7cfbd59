// The schema the migrations make, per engine, checked in as text (adapters/storage-knex/schema/) and
// held to it: an empty database is migrated and its schema read back must equal the snapshot. A new
// migration changes the snapshot in the same commit, so a review sees the schema it makes; write it
// with SWITCHYARD_WRITE_SCHEMA=1 npx mocha test/integration/schema-snapshot.test.ts.
import { expect } from 'chai';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { PROJECT_ROOT } from '@switchyard/app';
import { openDatabase } from '@switchyard/storage-knex';
import { engines, freshDatabase, type Engine } from '../support/app.js';

const snapshotOf = (engine: Engine) => join(PROJECT_ROOT, 'adapters', 'storage-knex', 'schema', `${engine === 'sqlite' ? 'sqlite' : 'postgresql'}.sql`);

/** SQLite keeps each object's CREATE statement as written: tables, indexes and triggers, by name. */
async function sqliteSchema(knex: Knex): Promise<string> {
  const rows = (await knex.raw("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 ELSE 2 END, name")) as Array<{ type: string; name: string; sql: string }>;
  return rows.map((r) => `-- ${r.type} ${r.name}\n${r.sql};\n`).join('\n');
}

/** PostgreSQL's catalogue, read for the test's schema: columns, indexes, triggers and their functions, the schema's name left out. */
async function postgresSchema(knex: Knex): Promise<string> {
  const schema = ((await knex.raw('SELECT current_schema() AS s')) as { rows: Array<{ s: string }> }).rows[0]!.s;
  const unnamed = (text: string) => text.split(`${schema}.`).join('').split(`"${schema}".`).join('');
  const out: string[] = [];
  const columns = (await knex.raw(
    `SELECT table_name, column_name, data_type, character_maximum_length AS len, is_nullable, column_default FROM information_schema.columns WHERE table_schema = ? ORDER BY table_name, ordinal_position`,
    [schema],
  )) as { rows: Array<{ table_name: string; column_name: string; data_type: string; len: number | null; is_nullable: string; column_default: string | null }> };
  const tables = new Map<string, string[]>();
  for (const c of columns.rows) {
    const list = tables.get(c.table_name) ?? [];
    list.push(`  ${c.column_name} ${c.data_type}${c.len ? `(${c.len})` : ''}${c.is_nullable === 'NO' ? ' NOT NULL' : ''}${c.column_default ? ` DEFAULT ${unnamed(c.column_default)}` : ''}`);
    tables.set(c.table_name, list);
  }
  for (const [name, list] of tables) out.push(`-- table ${name}\nCREATE TABLE ${name} (\n${list.join(',\n')}\n);\n`);
  const indexes = (await knex.raw('SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = ? ORDER BY indexname', [schema])) as { rows: Array<{ indexname: string; indexdef: string }> };
  for (const i of indexes.rows) out.push(`-- index ${i.indexname}\n${unnamed(i.indexdef)};\n`);
  const triggers = (await knex.raw(
    `SELECT t.tgname AS name, pg_get_triggerdef(t.oid) AS def FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ? AND NOT t.tgisinternal ORDER BY c.relname, t.tgname`,
    [schema],
  )) as { rows: Array<{ name: string; def: string }> };
  for (const t of triggers.rows) out.push(`-- trigger ${t.name}\n${unnamed(t.def)};\n`);
  const functions = (await knex.raw(
    `SELECT p.proname AS name, pg_get_functiondef(p.oid) AS def FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = ? ORDER BY p.proname`,
    [schema],
  )) as { rows: Array<{ name: string; def: string }> };
  for (const f of functions.rows) out.push(`-- function ${f.name}\n${unnamed(f.def).trim()};\n`);
  return out.join('\n');
}

for (const engine of engines()) {
  describe(`storage schema (${engine}): the migrations make the schema checked in`, function () {
    this.timeout(60_000);
    it(`an empty database, migrated, has exactly adapters/storage-knex/schema/${engine === 'sqlite' ? 'sqlite' : 'postgresql'}.sql`, async () => {
      const fresh = await freshDatabase(engine, { empty: true });
      try {
        const db = await openDatabase(fresh.url, { leafWorker: false });
        try {
          const schema = engine === 'sqlite' ? await sqliteSchema(db.knex) : await postgresSchema(db.knex);
          if (process.env['SWITCHYARD_WRITE_SCHEMA'] === '1') writeFileSync(snapshotOf(engine), `-- The schema of migrations/ on ${engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, read back from an empty database migrated (test/integration/schema-snapshot.test.ts). Do not edit: write it again.\n\n${schema}`);
          const checkedIn = readFileSync(snapshotOf(engine), 'utf8');
          expect(checkedIn.slice(checkedIn.indexOf('\n\n') + 2)).to.equal(schema);
          expect(schema).to.include('deliveries').and.to.include('forward_jobs').and.to.include('ledger_leaves');
        } finally {
          await db.close();
        }
      } finally {
        await fresh.drop();
      }
    });
  });
}
