// The storage dialect rule: what differs between SQLite and PostgreSQL is decided in one file,
// adapters/storage-knex/src/dialect.ts. No other file of the storage adapter checks which engine it
// runs on: not by knex's client name, not by the dialect's name, not by whether a SQLite-only
// statement cache exists, and no store takes its SQL from a migration.
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const src = resolve(fileURLToPath(import.meta.url), '..', '..', '..', 'adapters', 'storage-knex', 'src');
const DIALECT = 'dialect.ts';

/** Each file's code with its comments removed, so that prose naming an engine is not a check. */
const files = readdirSync(src, { recursive: true, encoding: 'utf8' })
  .filter((name) => name.endsWith('.ts'))
  .map((name) => ({ name, code: readFileSync(join(src, name), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1') }));

const ENGINE = String.raw`['"\x60](?:pg|sqlite3?|postgres(?:ql)?)['"\x60]`;
const CHECKS: Array<[string, RegExp]> = [
  ["knex's client name", /\bclient\.config\b|\.config\.client\b/],
  ['a comparison with an engine name', new RegExp(String.raw`(?:===|!==|==|!=)\s*${ENGINE}|${ENGINE}\s*(?:===|!==|==|!=)|case\s+${ENGINE}`)],
  ["the dialect's name", /\bdialect\.name\b|\.name\s*(?:===|!==)/],
  ['the SQLite statement cache (null as an "is SQLite" flag)', /\bSqliteStatements\b/],
  ['SQL imported from the migrations', /from\s+['"]\.\/migrations(?:\/[^'"]*)?\.js['"]/],
];
/** Where the SQLite statement cache may be named: its own file and the dialect that hands it out. */
const ALLOWED: Record<string, string[]> = { 'the SQLite statement cache (null as an "is SQLite" flag)': ['sqlite-statements.ts'], 'SQL imported from the migrations': ['database.ts', 'index.ts', join('migrations', 'index.ts')] };

describe('architecture: the storage dialect decides every engine difference', () => {
  it('finds the files it checks, the dialect among them', () => {
    expect(files.map((f) => f.name)).to.include.members([DIALECT, 'database.ts', 'delivery-store.ts', 'invocation-store.ts', 'ledger.ts', join('migrations', 'index.ts'), join('migrations', '012_forwarding.ts'), 'sql-batches.ts']);
  });

  for (const [what, pattern] of CHECKS) {
    it(`no file but ${DIALECT} checks ${what}`, () => {
      const offenders = files.filter((f) => f.name !== DIALECT && !(ALLOWED[what] ?? []).includes(f.name) && pattern.test(f.code)).map((f) => `${f.name}: ${f.code.match(pattern)![0]}`);
      expect(offenders).to.deep.equal([]);
    });
  }

  it('the checks find what they look for (the dialect itself names knex clients)', () => {
    const dialect = files.find((f) => f.name === DIALECT)!.code;
    expect(CHECKS[0]![1].test(dialect)).to.equal(true);
    expect(CHECKS[1]![1].test("if (knex.client.config.client === 'pg')")).to.equal(true);
    expect(CHECKS[1]![1].test("x.name !== 'postgresql'")).to.equal(true);
    expect(CHECKS[2]![1].test("dialect.name === 'sqlite' ? a : b")).to.equal(true);
    expect(CHECKS[3]![1].test('private readonly statements: SqliteStatements | null;')).to.equal(true);
    expect(CHECKS[4]![1].test("import { FIRST_DELIVERY } from './migrations.js';")).to.equal(true);
    expect(CHECKS[4]![1].test("import { LOGGED_TABLES } from './migrations/shared.js';")).to.equal(true);
  });
});
