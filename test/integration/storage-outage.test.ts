// Honest failure: with the database taken away (a throwaway PostgreSQL cluster stopped mid-run, a
// SQLite file on a tmpfs filled up, as root in a mount namespace of the service's own), every write path answers 503 storage_unavailable with
// Retry-After, never 500; no run reaches its upstream; /healthz says not ready, with the reason,
// within 5 s; /metrics counts the failures by kind; and once the database is back, the service
// writes again without a restart and nothing acknowledged is lost.
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { PROJECT_ROOT } from '@switchyard/app';
import { TEST_API_KEY } from '../support/app.js';
import { startPgCluster, type PgCluster } from '../support/pg-cluster.js';
import { listeningUrl, startServiceProcess, stopChild, type Child } from '../support/processes.js';
import { parseExposition, valueOf } from '../support/prometheus.js';

const SIDE_EFFECT = join(PROJECT_ROOT, 'test', 'support', 'side-effect-mcp-server.mjs');
const owner = { 'x-sheets-key': TEST_API_KEY, 'content-type': 'application/json' };
const marksIn = (file: string): string[] => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

/** A config file: the counting upstream, public metrics, a short run lease. */
function configIn(dir: string, marks: string): string {
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify({
    dispatch: { runLeaseMs: 1000 },
    metrics: { public: true },
    upstreams: { servers: { side: { system: 'SIDE', transport: 'stdio', command: process.execPath, args: [SIDE_EFFECT, marks], defaults: { auth: 'none', risk: 'low', approval: false } } } },
  }));
  return file;
}

async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** What a client sees of one request: status, Retry-After and the error code. */
async function send(url: string, init: RequestInit = {}): Promise<{ status: number; retryAfter: string | null; code: string | undefined; body: Record<string, unknown> }> {
  const res = await fetch(url, init);
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  // Our answers carry error.code; the OAuth endpoints answer in RFC 6749 form, error as a string.
  const error = body['error'] as { code?: string } | string | undefined;
  return { status: res.status, retryAfter: res.headers.get('retry-after'), code: typeof error === 'string' ? error : error?.code, body };
}

const post = (url: string, body: unknown, headers: Record<string, string> = owner) => send(url, { method: 'POST', headers, body: JSON.stringify(body) });

/** Deliveries and runs that go in while the database takes writes: what was acknowledged. */
async function writeSome(url: string, hook: string, label: string, acknowledged: string[]): Promise<void> {
  for (let i = 0; i < 10; i++) {
    const res = await post(`${url}/hook/${hook}`, { id: `${label}-${i}` }, { 'content-type': 'application/json' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    acknowledged.push(res.body['entry'] as string);
  }
  expect((await post(`${url}/api/dispatch`, { key: 'SIDE_MARK', body: { label } })).status).to.equal(200);
}

/** Every write path a client has, while the database does not take writes: 503 storage_unavailable, Retry-After, never 500. */
async function expectRefusedWrites(url: string, hook: string, marks: string): Promise<void> {
  const answers = {
    dispatch: await post(`${url}/api/dispatch`, { key: 'SIDE_MARK', body: { label: 'during-outage' } }),
    delivery: await post(`${url}/hook/${hook}`, { id: 'during-outage' }, { 'content-type': 'application/json' }),
    admin: await post(`${url}/api/objects/webhook`, { name: 'during-outage' }),
    oauth: await post(`${url}/oauth/register`, { redirect_uris: ['http://127.0.0.1:9/callback'], client_name: 'during-outage' }, { 'content-type': 'application/json' }),
  };
  for (const [path, answer] of Object.entries(answers)) {
    const code = path === 'oauth' ? 'temporarily_unavailable' : 'storage_unavailable';
    expect({ path, status: answer.status, code: answer.code }).to.deep.equal({ path, status: 503, code });
    expect(answer.retryAfter, path).to.match(/^\d+$/);
  }
  expect(marksIn(marks)).to.not.include('during-outage');
}

async function expectAllAcknowledged(url: string, hook: string, acknowledged: string[]): Promise<void> {
  const page = (await (await fetch(`${url}/api/ledger?event=webhook%20delivery&hook=${hook}&limit=1000`, { headers: owner })).json()) as { items: Array<{ id: string }> };
  const stored = new Set(page.items.map((d) => d.id));
  expect(acknowledged.filter((entry) => !stored.has(entry)), 'acknowledged but missing').to.deep.equal([]);
}

const storageFailures = async (url: string, kind: string): Promise<number> => valueOf(parseExposition(await (await fetch(`${url}/metrics`)).text()), 'switchyard_storage_failures_total', { kind }) ?? 0;

describe('storage outage: a PostgreSQL cluster stopped mid-run and started again', function () {
  this.timeout(180_000);
  let cluster: PgCluster | undefined;
  let service: { child: Child; url: string } | undefined;
  let dir: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'switchyard-outage-'));
    cluster = await startPgCluster();
  });
  after(async () => {
    await service?.child.stop();
    cluster?.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 storage_unavailable on every write path, runs nothing, reports not ready, and recovers on its own', async () => {
    const marks = join(dir, 'marks');
    service = await startServiceProcess({ SWITCHYARD_API_KEY: TEST_API_KEY, DATABASE_URL: cluster!.url, SWITCHYARD_CONFIG: configIn(dir, marks) });
    const url = service.url;
    const hook = ((await post(`${url}/api/objects/webhook`, { name: 'outage' })).body['id']) as string;
    const acknowledged: string[] = [];
    await writeSome(url, hook, 'before', acknowledged);
    expect((await fetch(`${url}/healthz`)).status).to.equal(200);

    cluster!.stop();
    const stoppedAt = Date.now();
    const notReady = await until('/healthz to say not ready', async () => {
      const health = await send(`${url}/healthz`);
      return health.status === 503 ? health : undefined;
    });
    expect(Date.now() - stoppedAt).to.be.below(5000);
    expect(notReady.body['ok']).to.equal(false);
    expect(notReady.body['database']).to.deep.include({ ok: false, engine: 'postgresql' });
    expect((notReady.body['database'] as { write: { reason: string } }).write.reason).to.be.a('string').and.not.equal('');
    await expectRefusedWrites(url, hook, marks);
    expect(await storageFailures(url, 'unreachable')).to.be.at.least(4);

    cluster!.start();
    await until('/healthz to say ready again', async () => ((await fetch(`${url}/healthz`)).status === 200 ? true : undefined));
    await writeSome(url, hook, 'after', acknowledged);
    await expectAllAcknowledged(url, hook, acknowledged);
    expect(marksIn(marks)).to.deep.equal(['before', 'after']);
  });
});

/**
 * The service in a mount namespace of its own, its database folder a small tmpfs (a real disk that
 * fills up), reachable from here through /proc/<pid>/root. Needs CAP_SYS_ADMIN (root, as in CI).
 */
async function startOnTmpfs(folder: string, env: NodeJS.ProcessEnv): Promise<{ proc: ChildProcess; url: string; stop(): Promise<void> }> {
  const script = 'mount -t tmpfs -o size=16m tmpfs "$0" && exec "$@"';
  const proc = spawn('unshare', ['-m', 'sh', '-c', script, folder, process.execPath, '--conditions=switchyard-source', '--import', 'tsx', 'adapters/app/src/main.ts'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    proc.once('exit', (code) => reject(new Error(`the service exited with ${code}\n${stderr}`)));
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      const found = listeningUrl(line);
      if (found) resolve(found);
    });
  });
  return {
    proc,
    url,
    stop: () => stopChild(proc),
  };
}

/** Writes zeros into `file` until the disk under it is full. */
function fill(file: string): void {
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(256 * 1024);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
}

describe('storage outage: SQLite on a disk that fills up, then has room again', function () {
  this.timeout(180_000);
  let service: Awaited<ReturnType<typeof startOnTmpfs>> | undefined;
  let dir: string;
  let folder: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'switchyard-outage-'));
    folder = mkdtempSync(join(tmpdir(), 'switchyard-full-'));
  });
  after(async () => {
    await service?.stop();
    rmSync(dir, { recursive: true, force: true });
    rmSync(folder, { recursive: true, force: true });
  });

  it('answers 503 storage_unavailable (never 500) once the disk is full, reports it, and recovers when space is freed', async () => {
    const marks = join(dir, 'marks');
    service = await startOnTmpfs(folder, { SWITCHYARD_API_KEY: TEST_API_KEY, DATABASE_URL: `sqlite:${join(folder, 'switchyard.db')}`, SWITCHYARD_CONFIG: configIn(dir, marks) });
    const url = service.url;
    const disk = `/proc/${service.proc.pid}/root${folder}`;
    const hook = ((await post(`${url}/api/objects/webhook`, { name: 'full' })).body['id']) as string;
    const acknowledged: string[] = [];
    await writeSome(url, hook, 'before', acknowledged);

    fill(join(disk, 'filler'));
    // Deliveries of 64 KiB until the database has no room: each is stored (200) or refused 503, never 500.
    const pad = 'x'.repeat(64 * 1024);
    let refused: Awaited<ReturnType<typeof send>> | undefined;
    for (let i = 0; i < 400 && !refused; i++) {
      const res = await post(`${url}/hook/${hook}`, { id: `filling-${i}`, pad }, { 'content-type': 'application/json' });
      if (res.status === 200) acknowledged.push(res.body['entry'] as string);
      else refused = res;
    }
    expect(refused, 'a delivery refused once the disk is full').to.not.equal(undefined);
    expect({ status: refused!.status, code: refused!.code }).to.deep.equal({ status: 503, code: 'storage_unavailable' });
    expect(refused!.retryAfter).to.match(/^\d+$/);
    const failedAt = Date.now();
    const notReady = await until('/healthz to say not ready', async () => {
      const health = await send(`${url}/healthz`);
      return health.status === 503 ? health : undefined;
    });
    expect(Date.now() - failedAt).to.be.below(5000);
    expect((notReady.body['database'] as { write: { kind: string } }).write.kind).to.equal('full');
    expect(await storageFailures(url, 'full')).to.be.at.least(1);
    // A run that cannot be reserved does not run.
    const run = await post(`${url}/api/dispatch`, { key: 'SIDE_MARK', body: { label: `full:${pad}${pad}${pad}` } });
    expect({ status: run.status, code: run.code }).to.deep.equal({ status: 503, code: 'storage_unavailable' });
    expect(marksIn(marks).filter((m) => m.startsWith('full:'))).to.deep.equal([]);

    unlinkSync(join(disk, 'filler'));
    await until('/healthz to say ready again', async () => ((await fetch(`${url}/healthz`)).status === 200 ? true : undefined));
    await writeSome(url, hook, 'after', acknowledged);
    await expectAllAcknowledged(url, hook, acknowledged);
  });
});
