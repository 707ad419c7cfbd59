// Builds a real Switchyard for integration tests: real storage (SQLite file or PostgreSQL schema),
// real simulators over real MCP transports, the real Express app (driven with supertest).
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import knexFactory from 'knex';
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

/** A fresh database: a SQLite file in a temp folder, or a fresh PostgreSQL schema via search_path. */
export async function freshDatabase(engine: Engine): Promise<TestDatabase> {
  if (engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'switchyard-test-'));
    return { url: `sqlite:${join(dir, 'test.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const schema = `sy_test_${randomBytes(6).toString('hex')}`;
  const admin = knexFactory({ client: 'pg', connection: PG_URL });
  await admin.raw(`create schema "${schema}"`);
  await admin.destroy();
  const url = new URL(PG_URL!);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    drop: async () => {
      const k = knexFactory({ client: 'pg', connection: PG_URL });
      await k.raw(`drop schema "${schema}" cascade`);
      await k.destroy();
    },
  };
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
