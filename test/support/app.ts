// Builds a real Switchyard for integration tests: real storage (SQLite file or PostgreSQL database),
// real simulators over real MCP transports, the real Express app (driven with supertest).
import { copyFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import knexFactory from 'knex';
import { openDatabase } from '@switchyard/storage-knex';
import { PROJECT_ROOT, createLogger, createSwitchyard, deepMerge, loadConfig, type Logger, type Switchyard } from '@switchyard/app';

export const TEST_API_KEY = 'sy_test_key_0123456789abcdefghijklmnopqrstuv';
export const PG_URL = process.env['SWITCHYARD_TEST_PG_URL'];

export type Engine = 'sqlite' | 'postgres';

/** The engines every integration suite runs on: SQLite always, PostgreSQL when CI gives a URL. */
export const engines = (): Engine[] => (PG_URL ? ['sqlite', 'postgres'] : ['sqlite']);

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A fresh database of its own for one test: a SQLite file in a temp folder, or a PostgreSQL
 * database on SWITCHYARD_TEST_PG_URL's server. It is already migrated, copied from a template
 * migrated once (per test process for SQLite, per set of migrations on the server for PostgreSQL),
 * which costs tens of milliseconds where migrating costs a second of two; the service finds its
 * schema up to date. `empty` gives one with nothing in it, for the tests of the migrations themselves.
 */
export async function freshDatabase(engine: Engine, { empty = false }: { empty?: boolean } = {}): Promise<TestDatabase> {
  if (engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'switchyard-test-'));
    const file = join(dir, 'test.db');
    if (!empty) copyFileSync(await sqliteTemplate(), file);
    return { url: `sqlite:${file}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `sy_test_${randomBytes(6).toString('hex')}`;
  const admin = knexFactory({ client: 'pg', connection: PG_URL });
  try {
    await admin.raw(empty ? `CREATE DATABASE "${name}"` : `CREATE DATABASE "${name}" TEMPLATE "${await postgresTemplate(admin)}"`);
  } finally {
    await admin.destroy();
  }
  const url = new URL(PG_URL!);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const k = knexFactory({ client: 'pg', connection: PG_URL });
      await k.raw(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await k.destroy();
    },
  };
}

/** The migrations' text, hashed: a template is for one set of migrations. */
const MIGRATIONS_HASH = (() => {
  const dir = join(PROJECT_ROOT, 'adapters', 'storage-knex', 'src', 'migrations');
  const digest = createHash('sha256');
  for (const name of readdirSync(dir).sort()) digest.update(name).update(readFileSync(join(dir, name)));
  return digest.digest('hex').slice(0, 16);
})();

let sqliteTemplateFile: Promise<string> | undefined;
/** A migrated SQLite file this process copies (closed, so its WAL is folded in and gone). */
function sqliteTemplate(): Promise<string> {
  sqliteTemplateFile ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchyard-template-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'template.db');
    const db = await openDatabase(`sqlite:${file}`, { leafWorker: false });
    await db.close();
    return file;
  })();
  return sqliteTemplateFile;
}

/**
 * The migrated PostgreSQL template for these migrations, made by the first test process that asks
 * (an advisory lock keeps the others waiting) and kept on the server for later runs; templates of
 * other migrations are dropped. Nothing stays connected to it, as CREATE DATABASE … TEMPLATE needs.
 */
let postgresTemplateName: Promise<string> | undefined;
function postgresTemplate(admin: ReturnType<typeof knexFactory>): Promise<string> {
  // Looked up (or made) once per test process; a failed attempt is tried again by the next test.
  postgresTemplateName ??= makePostgresTemplate(admin).catch((error: unknown) => {
    postgresTemplateName = undefined;
    throw error;
  });
  return postgresTemplateName;
}

async function makePostgresTemplate(admin: ReturnType<typeof knexFactory>): Promise<string> {
  const name = `sy_template_${MIGRATIONS_HASH}`;
  const found = async () => ((await admin.raw('SELECT 1 FROM pg_database WHERE datname = ?', [name])) as { rows: unknown[] }).rows.length > 0;
  if (await found()) return name;
  await admin.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', ['switchyard test template']);
    if (await found()) return;
    const stale = ((await trx.raw("SELECT datname FROM pg_database WHERE datname LIKE 'sy\\_template\\_%'")) as { rows: Array<{ datname: string }> }).rows;
    for (const { datname } of stale) await admin.raw(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`).catch(() => undefined);
    const building = `${name}_building_${process.pid}`;
    await admin.raw(`CREATE DATABASE "${building}"`);
    const url = new URL(PG_URL!);
    url.pathname = `/${building}`;
    const db = await openDatabase(url.toString(), { leafWorker: false });
    await db.close();
    // Renamed once migrated, so a template that exists is a whole one.
    await admin.raw(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
  });
  return name;
}

/** A copy of the shipped starter content, so that tests which publish never write into the repo. */
export function freshContentFolder(): { folder: string; drop(): void } {
  const folder = join(mkdtempSync(join(tmpdir(), 'switchyard-content-')), 'content');
  cpSync(join(PROJECT_ROOT, 'content'), folder, { recursive: true });
  return { folder, drop: () => rmSync(join(folder, '..'), { recursive: true, force: true }) };
}

export interface TestService {
  switchyard: Switchyard;
  db: TestDatabase;
  /** The service's content folder (a temporary copy of the starter content unless overridden). */
  contentFolder: string;
  close(): Promise<void>;
}

export async function startTestService(engine: Engine, overrides: Record<string, unknown> = {}, options: { logger?: Logger } = {}): Promise<TestService> {
  const db = await freshDatabase(engine);
  const content = freshContentFolder();
  const config = loadConfig({
    env: {},
    overrides: deepMerge({ database: { url: db.url }, auth: { apiKey: TEST_API_KEY }, log: { level: 'silent' }, server: { port: 0 }, dispatch: { timeoutMs: 3000 }, content: { folder: content.folder } }, overrides),
  });
  const switchyard = await createSwitchyard(config, { logger: options.logger ?? createLogger('silent') });
  return {
    switchyard,
    db,
    contentFolder: config.content.folder,
    async close() {
      await switchyard.close();
      await db.drop();
      content.drop();
    },
  };
}

export interface ListeningService extends TestService {
  url: string;
  /** The listening server (the service's own createServer: its header and timeout limits apply). */
  server: import('node:http').Server;
}

/** A test service listening on a loopback port, for clients in other processes (the CLI). */
export async function startListeningService(engine: Engine, overrides: Record<string, unknown> = {}, options: { logger?: Logger } = {}): Promise<ListeningService> {
  const svc = await startTestService(engine, overrides, options);
  const server = svc.switchyard.createServer().listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as import('node:net').AddressInfo;
  return {
    ...svc,
    url: `http://127.0.0.1:${port}`,
    server,
    async close() {
      await svc.switchyard.endStreams();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await svc.close();
    },
  };
}
