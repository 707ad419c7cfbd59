// npm run bench:forward — forwarding rate and lag: deliveries ingested at full speed into a webhook
// with one destination (a no-op receiver on loopback, in this process), against a plain client
// posting the same bodies to the same receiver in the same run.
// The machine's speed drifts over a run, so the phases alternate for BENCH_ROUNDS rounds and each
// figure is the median of its rounds; every phase also gives the CPU per delivery of the service
// and of this process (client and receiver), steadier than rates on a shared machine. Each round:
// - plain: the bodies straight to the receiver, BENCH_CONCURRENCY at a time;
// - burst: the bodies into the webhook at full speed, BENCH_CONCURRENCY at a time, until all are
//   forwarded: forwarded/s from the first sent to the last received (the figure), the
//   ingest rate, and the lag from sending a delivery to its arrival at the receiver (p50, p99);
// - ingest: the same into a webhook without destinations (what the service does before forwarding);
// - drain: the receiver holds its answers while the bodies are ingested, then lets go, and the
//   backlog is forwarded with nothing else running: the forwarder against the plain client, both
//   BENCH_CONCURRENCY at a time to the same receiver (the service's forwarding.concurrency is the same);
// - steady: BENCH_STEADY_RATE deliveries/s for BENCH_STEADY_SECONDS, and the lag at that rate.
// Between phases the benchmark waits until the ledger has integrated everything (its backlog
// metric is 0), so one phase's leftover work does not fall on the next.
// Isolation (a second service process, forwarding settings at their defaults: 32 slots, 4 per
// destination): a healthy destination's lag at BENCH_ISOLATION_RATE deliveries/s for
// BENCH_ISOLATION_SECONDS alone, and beside another webhook whose two destinations are one that
// never answers and one that answers after 10 s, sent BENCH_ISOLATION_TROUBLED_RATE deliveries/s; alone and beside alternate
// for BENCH_ROUNDS rounds (ratio of the medians of p99). Between rounds the hanging and slow
// receivers drop their connections and their destinations are deleted, so nothing of one round is
// left in the next.
// Last, what a large schedule costs ingestion: ingest into the webhook without destinations with
// the schedule empty and with BENCH_PENDING retrying jobs in it (due in an hour, written straight
// into the database), alternating for BENCH_ROUNDS rounds (ratio of the medians), after a warm-up
// round; the database catches up on each change (checkpoint or vacuum) before the next measurement.
// Variants of the burst, in the same rounds right after it, each on a database of its own:
// BENCH_COMPILED=1 the compiled service (dist, plain node, as `npm start`; `npm run build` first;
// BENCH_COMPILED_DATABASE_URL, default a temp SQLite file), and BENCH_SPLIT_DATABASE_URL (PostgreSQL)
// an api process taking the deliveries while a worker forwards them (its CPU counted with the api's);
// each reported with ratio_to_source, its forwarded/s over the burst's (one `all` process from source).
// Env: BENCH_DELIVERIES per phase (5000), BENCH_CONCURRENCY (32), BENCH_STEADY_RATE (1000/s),
// BENCH_STEADY_SECONDS (5), BENCH_ROUNDS (3), BENCH_PENDING (100000), BENCH_ISOLATION_RATE (100/s),
// BENCH_ISOLATION_TROUBLED_RATE (10/s), BENCH_ISOLATION_SECONDS (12), BENCH_PHASES (all of plain,burst,ingest,drain,steady,isolation,pending),
// DATABASE_URL (default: a temp SQLite file; the isolation phase's service has its own beside it).
import knexFactory, { type Knex } from 'knex';
import { Agent, createServer, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuMs, mainThreadCpuMs, threadCpuMs } from './support/cpu.js';
import { writeReport } from './support/report.js';
import { startCompiledServiceProcess, startServiceProcess, startWorkerProcess, type Child } from '../support/processes.js';

const DELIVERIES = Number(process.env['BENCH_DELIVERIES'] ?? 5000);
const CONCURRENCY = Number(process.env['BENCH_CONCURRENCY'] ?? 32);
const STEADY_RATE = Number(process.env['BENCH_STEADY_RATE'] ?? 1000);
const STEADY_SECONDS = Number(process.env['BENCH_STEADY_SECONDS'] ?? 5);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const PENDING = Number(process.env['BENCH_PENDING'] ?? 100_000);
const ISOLATION_RATE = Number(process.env['BENCH_ISOLATION_RATE'] ?? 100);
const ISOLATION_SECONDS = Number(process.env['BENCH_ISOLATION_SECONDS'] ?? 12);
const TROUBLED_RATE = Number(process.env['BENCH_ISOLATION_TROUBLED_RATE'] ?? 10);
const PHASES = new Set((process.env['BENCH_PHASES'] ?? 'plain,burst,ingest,drain,steady,isolation,pending').split(','));
const API_KEY = 'sy_bench_key_0123456789abcdefghijklmnopqrstuvwxyz';
const dir = mkdtempSync(join(tmpdir(), 'switchyard-forward-'));
const databaseUrl = process.env['DATABASE_URL'] ?? `sqlite:${join(dir, 'bench.db')}`;

const body = (n: number): Buffer => Buffer.from(JSON.stringify({ id: `evt_${n}`, type: 'order.paid', pad: 'x'.repeat(900) }));

// The receiver: answers 204 at once (or, while holding, when let go) and notes when each message
// arrived (by webhook-id, or the plain client's x-n).
const arrivals = new Map<string, number>();
let arrivalCount = 0;
let holding: ServerResponse[] | null = null;
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (holding) return void holding.push(res);
    const id = (req.headers['webhook-id'] as string | undefined) ?? (req.headers['x-n'] as string);
    arrivals.set(id, performance.now());
    arrivalCount++;
    res.writeHead(204).end();
  });
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const receiverPort = (receiver.address() as AddressInfo).port;

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
function post(url: string, payload: Buffer, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': String(payload.length), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function untilArrived(count: number): Promise<void> {
  while (arrivalCount < count) await sleep(5);
}

const quantile = (sorted: number[], q: number): number => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! * 10) / 10;
const round3 = (n: number): number => Math.round(n * 1000) / 1000;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

let servicePid = 0;
/** A worker beside an api process (the split variant): its CPU counts as the service's. */
let workerPid: number | undefined;
const withWorker = (read: (pid?: number) => number) => (pid: number) => read(pid) + (workerPid ? read(workerPid) : 0);
/** CPU µs per delivery spent by the service (all threads, and its main thread) and by this process. */
async function metered<T>(count: number, phase: () => Promise<T>): Promise<T & { cpu_us: { service: number; service_main: number; bench: number }; service_threads_us: Record<string, number> }> {
  const before = [withWorker(cpuMs)(servicePid), withWorker(mainThreadCpuMs)(servicePid), cpuMs()];
  const threadsBefore = threadCpuMs(servicePid);
  const result = await phase();
  const after = [withWorker(cpuMs)(servicePid), withWorker(mainThreadCpuMs)(servicePid), cpuMs()];
  const threadsAfter = threadCpuMs(servicePid);
  const per = (i: number) => Math.round(((after[i]! - before[i]!) * 1000) / count);
  const threads = Object.fromEntries(Object.entries(threadsAfter).map(([name, ms]) => [name, Math.round(((ms - (threadsBefore[name] ?? 0)) * 1000) / count)]));
  return { ...result, cpu_us: { service: per(0), service_main: per(1), bench: per(2) }, service_threads_us: threads };
}

/** CONCURRENCY loops posting DELIVERIES bodies to `url`; `sent` sees each answer and when its request left. */
async function fullSpeed(url: string, offset: number, headers: (n: number) => Record<string, string>, sent?: (n: number, at: number, res: { status: number; text: string }) => void): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < DELIVERIES) {
      const n = next++;
      const at = performance.now();
      const res = await post(url, body(offset + n), headers(offset + n));
      sent?.(n, at, res);
    }
  }));
}

/** The plain client: the same bodies straight to the receiver, CONCURRENCY at a time. */
async function plain(offset: number) {
  arrivalCount = 0;
  return metered(DELIVERIES, async () => {
    const started = performance.now();
    await fullSpeed(`http://127.0.0.1:${receiverPort}/in`, offset, (n) => ({ 'x-n': `plain_${n}` }));
    return { per_second: Math.round(DELIVERIES / ((performance.now() - started) / 1000)) };
  });
}

const entryOf = (res: { status: number; text: string }): string => {
  if (res.status !== 200) throw new Error(`ingest answered ${res.status}: ${res.text}`);
  return (JSON.parse(res.text) as { entry: string }).entry;
};

/** Ingests DELIVERIES at full speed and waits for all to be forwarded: forwarded/s and lags. */
async function burst(hookUrl: string, offset: number) {
  arrivalCount = 0;
  return metered(DELIVERIES, async () => {
    const sentAt = new Map<string, number>();
    const started = performance.now();
    await fullSpeed(hookUrl, offset, () => ({}), (_n, at, res) => void sentAt.set(entryOf(res), at));
    const ingested = performance.now();
    await untilArrived(DELIVERIES);
    let finished = 0;
    for (const e of sentAt.keys()) finished = Math.max(finished, arrivals.get(e)!);
    const lags = [...sentAt].map(([entry, at]) => arrivals.get(entry)! - at).sort((a, b) => a - b);
    return { per_second: Math.round(DELIVERIES / ((finished - started) / 1000)), ingest_per_second: Math.round(DELIVERIES / ((ingested - started) / 1000)), lag_p50_ms: quantile(lags, 0.5), lag_p99_ms: quantile(lags, 0.99) };
  });
}

/** Ingest alone: DELIVERIES into a webhook without destinations, deliveries/s. */
async function ingestOnly(hookUrl: string, offset: number) {
  return metered(DELIVERIES, async () => {
    const started = performance.now();
    await fullSpeed(hookUrl, offset, () => ({}), (_n, _at, res) => void entryOf(res));
    return { per_second: Math.round(DELIVERIES / ((performance.now() - started) / 1000)) };
  });
}

/**
 * The forwarder alone: the receiver holds its answers while DELIVERIES are ingested (the forwarder
 * fills its slots and waits), then answers, and the backlog is forwarded with nothing else running.
 * CPU is counted from the release on.
 */
async function drain(hookUrl: string, offset: number, backlogDrained: () => Promise<void>) {
  arrivalCount = 0;
  holding = [];
  await fullSpeed(hookUrl, offset, () => ({}), (_n, _at, res) => void entryOf(res));
  await backlogDrained();
  const held = holding;
  holding = null;
  return metered(DELIVERIES, async () => {
    const released = performance.now();
    for (const res of held) res.writeHead(204).end();
    arrivalCount += held.length;
    await untilArrived(DELIVERIES);
    return { per_second: Math.round((DELIVERIES - held.length) / ((performance.now() - released) / 1000)), held: held.length };
  });
}

/**
 * Posts `rate` deliveries/s for `seconds` into `hookUrls[0]`, and every `every[i]`-th of them into
 * `hookUrls[i]` too; answers when each was sent, by entry, per webhook.
 */
async function paced(hookUrls: string[], offset: number, rate: number, seconds: number, every: number[] = hookUrls.map(() => 1)): Promise<{ sentAt: Array<Map<string, number>>; started: number; sent: number }> {
  const total = rate * seconds;
  const sentAt = hookUrls.map(() => new Map<string, number>());
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let n = 0; n < total; n++) {
    const due = started + (n * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    const at = performance.now();
    hookUrls.forEach((url, i) => {
      if (n % every[i]! === 0) inFlight.push(post(url, body(offset + n)).then((res) => void sentAt[i]!.set(entryOf(res), at)));
    });
  }
  await Promise.all(inFlight);
  return { sentAt, started, sent: performance.now() };
}

/** Lags from sending to arrival at the receiver of the deliveries sent at `sentAt`. */
function lagsOf(sentAt: Map<string, number>): { lag_p50_ms: number; lag_p99_ms: number } {
  const lags = [...sentAt].map(([entry, at]) => arrivals.get(entry)! - at).sort((a, b) => a - b);
  return { lag_p50_ms: quantile(lags, 0.5), lag_p99_ms: quantile(lags, 0.99) };
}

/** A steady STEADY_RATE deliveries/s for STEADY_SECONDS: the lag at that rate. */
async function steady(hookUrl: string, offset: number) {
  arrivalCount = 0;
  const total = STEADY_RATE * STEADY_SECONDS;
  return metered(total, async () => {
    const { sentAt, started, sent } = await paced([hookUrl], offset, STEADY_RATE, STEADY_SECONDS);
    await untilArrived(total);
    return { offered_per_second: STEADY_RATE, achieved_per_second: Math.round(total / ((sent - started) / 1000)), ...lagsOf(sentAt[0]!) };
  });
}

// The isolation phase's bad destinations: one never answers, one answers after 10 s. Each keeps
// its open connections, so a round can end them all.
function badReceiver(answerAfterMs: number | null) {
  const sockets = new Set<import('node:net').Socket>();
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      if (answerAfterMs !== null) setTimeout(() => res.writeHead(204).end(), answerAfterMs).unref();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return {
    server,
    received: () => received,
    dropAll: () => {
      for (const socket of sockets) socket.destroy();
    },
  };
}

/**
 * The healthy destination's lag alone, and beside a hanging and a slow destination of another
 * webhook, in a service with the default forwarding settings; alone and beside alternate.
 */
async function isolation(offsetOf: (n: number) => number) {
  const hanging = badReceiver(null);
  const slow = badReceiver(10_000);
  await Promise.all([hanging, slow].map((r) => new Promise<void>((ok) => r.server.listen(0, '127.0.0.1', ok))));
  const portOf = (s: import('node:http').Server) => (s.address() as AddressInfo).port;
  const isolatedDir = mkdtempSync(join(tmpdir(), 'switchyard-isolation-'));
  const configFile = join(isolatedDir, 'config.json');
  writeFileSync(configFile, JSON.stringify({ webhooks: { forwarding: { allow: [`127.0.0.1:${receiverPort}`, `127.0.0.1:${portOf(hanging.server)}`, `127.0.0.1:${portOf(slow.server)}`] } } }));
  // A database of its own (on PostgreSQL a schema), so the main service's forwarder does not work its schedule.
  const schema = `bench_isolation_${process.pid}`;
  let isolatedDb = `sqlite:${join(isolatedDir, 'isolation.db')}`;
  if (databaseUrl.startsWith('postgres')) {
    const admin = knexFactory({ client: 'pg', connection: databaseUrl });
    await admin.raw(`CREATE SCHEMA "${schema}"`);
    await admin.destroy();
    const url = new URL(databaseUrl);
    url.searchParams.set('options', `-c search_path=${schema}`);
    isolatedDb = url.toString();
  }
  const svc = await startServiceProcess({ DATABASE_URL: isolatedDb, SWITCHYARD_API_KEY: API_KEY, SWITCHYARD_CONFIG: configFile });
  const direct = openDirect(isolatedDb);
  const owner = { 'content-type': 'application/json', 'x-sheets-key': API_KEY };
  const api = async (method: string, path: string, payload?: unknown) => {
    const res = await fetch(`${svc.url}${path}`, { method, headers: owner, ...(payload === undefined ? {} : { body: JSON.stringify(payload) }) });
    const answer = (await res.json()) as { id: string };
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(answer)}`);
    return answer;
  };
  try {
    const healthy = await api('POST', '/api/objects/webhook', { name: 'healthy' });
    await api('POST', `/api/objects/webhook/${healthy.id}/destinations`, { url: `http://127.0.0.1:${receiverPort}/healthy` });
    const troubled = await api('POST', '/api/objects/webhook', { name: 'troubled' });
    const healthyUrl = `${svc.url}/hook/${healthy.id}`;
    const troubledUrl = `${svc.url}/hook/${troubled.id}`;
    const alone: Array<ReturnType<typeof lagsOf>> = [];
    const beside: Array<ReturnType<typeof lagsOf> & { hanging_received: number; slow_received: number }> = [];
    const total = ISOLATION_RATE * ISOLATION_SECONDS;
    // A warm-up, not counted; its deliveries all arrive before the first measurement.
    arrivalCount = 0;
    await paced([healthyUrl], offsetOf(total), ISOLATION_RATE, 2);
    await untilArrived(ISOLATION_RATE * 2);
    for (let round = 0; round < ROUNDS; round++) {
      for (const withTrouble of round % 2 === 0 ? [false, true] : [true, false]) {
        arrivalCount = 0;
        if (!withTrouble) {
          const { sentAt } = await paced([healthyUrl], offsetOf(total), ISOLATION_RATE, ISOLATION_SECONDS);
          await untilArrived(total);
          alone.push(lagsOf(sentAt[0]!));
          continue;
        }
        // Fresh bad destinations each round, gone at its end with every connection they held.
        const bad = [
          await api('POST', `/api/objects/webhook/${troubled.id}/destinations`, { url: `http://127.0.0.1:${portOf(hanging.server)}/hang`, timeout_ms: 60_000, retry: { max_attempts: 50, initial_ms: 100, max_ms: 1000 } }),
          await api('POST', `/api/objects/webhook/${troubled.id}/destinations`, { url: `http://127.0.0.1:${portOf(slow.server)}/slow`, timeout_ms: 60_000, retry: { max_attempts: 50, initial_ms: 100, max_ms: 1000 } }),
        ];
        const [hangingBefore, slowBefore] = [hanging.received(), slow.received()];
        const { sentAt } = await paced([healthyUrl, troubledUrl], offsetOf(total), ISOLATION_RATE, ISOLATION_SECONDS, [1, Math.max(1, Math.round(ISOLATION_RATE / TROUBLED_RATE))]);
        await untilArrived(total);
        beside.push({ ...lagsOf(sentAt[0]!), hanging_received: hanging.received() - hangingBefore, slow_received: slow.received() - slowBefore });
        for (const dst of bad) await api('DELETE', `/api/objects/webhook/${troubled.id}/destinations/${dst.id}`);
        hanging.dropAll();
        slow.dropAll();
        // The deleted destinations' backlog ends as skipped when next claimed: wait for it, so it
        // does not fall on the next measurement.
        for (const end = Date.now() + 120_000; Date.now() < end; await sleep(100)) {
          const [row] = await direct('forward_jobs').where({ hook_id: troubled.id }).whereIn('state', ['pending', 'retrying']).count({ n: '*' });
          if (Number(row?.n ?? 0) === 0) break;
        }
      }
    }
    const p99 = (xs: Array<{ lag_p99_ms: number }>) => median(xs.map((x) => x.lag_p99_ms));
    return {
      rate_per_second: ISOLATION_RATE,
      troubled_rate_per_second: TROUBLED_RATE,
      seconds: ISOLATION_SECONDS,
      rounds: { alone, beside },
      alone: { lag_p50_ms: median(alone.map((x) => x.lag_p50_ms)), lag_p99_ms: p99(alone) },
      beside: { lag_p50_ms: median(beside.map((x) => x.lag_p50_ms)), lag_p99_ms: p99(beside) },
      p99_ratio: round3(p99(beside) / p99(alone)),
    };
  } finally {
    hanging.dropAll();
    slow.dropAll();
    await svc.child.stop();
    await direct.destroy();
    hanging.server.close();
    slow.server.close();
    rmSync(isolatedDir, { recursive: true, force: true });
    if (databaseUrl.startsWith('postgres')) {
      const admin = knexFactory({ client: 'pg', connection: databaseUrl });
      await admin.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.destroy();
    }
  }
}

function openDirect(url = databaseUrl): Knex {
  return url.startsWith('postgres')
    ? knexFactory({ client: 'pg', connection: url })
    : knexFactory({
        client: 'sqlite3',
        connection: { filename: url.replace(/^sqlite:/, '') },
        useNullAsDefault: true,
        pool: { min: 1, max: 1, afterCreate: (conn: { run(sql: string, cb: (err: Error | null) => void): void }, done: (err: Error | null, conn: unknown) => void) => conn.run('PRAGMA busy_timeout = 30000', (err) => done(err, conn)) },
      });
}

/** Puts PENDING retrying jobs, due in an hour, in the service's schedule (straight into its database). */
async function fillSchedule(knex: Knex, hook: string, destination: string): Promise<void> {
  const due = Date.now() + 3_600_000;
  const now = new Date().toISOString();
  for (let i = 0; i < PENDING; i += 500) {
    const rows = Array.from({ length: Math.min(500, PENDING - i) }, (_, k) => ({
      id: `fwd_bench${String(i + k).padStart(11, '0')}`, delivery: `dlv_bench${String(i + k).padStart(11, '0')}`, hook_id: hook, destination, state: 'retrying',
      attempts: 1, last_status: 503, due_at: due, invocations: '[]', ordered: 0, created_at: now,
    }));
    await knex('forward_jobs').insert(rows);
  }
}

/**
 * After 10^5 rows come or go, the database's own catching up (SQLite's WAL checkpoint, PostgreSQL's
 * vacuum) is done here, so that it does not land on the service during the next measurement.
 */
const settleDatabase = async (knex: Knex): Promise<void> => {
  await knex.raw(databaseUrl.startsWith('postgres') ? 'VACUUM ANALYZE forward_jobs' : 'PRAGMA wal_checkpoint(TRUNCATE)');
};

const clearSchedule = (knex: Knex) => knex('forward_jobs').where('id', 'like', 'fwd_bench%').delete();

// The forwarder's requests in flight to the one destination match the plain client's, so the
// comparison is like for like (by default one destination holds at most 4 of them).
const mainConfig = join(dir, 'config.json');
writeFileSync(mainConfig, JSON.stringify({ webhooks: { forwarding: { allow: [`127.0.0.1:${receiverPort}`], concurrency: CONCURRENCY, perDestinationConcurrency: CONCURRENCY } } }));
const service = await startServiceProcess({ DATABASE_URL: databaseUrl, SWITCHYARD_API_KEY: API_KEY, SWITCHYARD_CONFIG: mainConfig });
servicePid = service.child.process.pid!;
const variants: Array<{ label: 'compiled' | 'split'; url: string; pid: number; worker?: Child; stop(): Promise<void> }> = [];
try {
  if (process.env['BENCH_COMPILED'] === '1') {
    const c = await startCompiledServiceProcess({ DATABASE_URL: process.env['BENCH_COMPILED_DATABASE_URL'] ?? `sqlite:${join(dir, 'compiled.db')}`, SWITCHYARD_API_KEY: API_KEY, SWITCHYARD_CONFIG: mainConfig });
    variants.push({ label: 'compiled', url: c.url, pid: c.child.process.pid!, stop: () => c.child.stop() });
  }
  const splitDatabaseUrl = process.env['BENCH_SPLIT_DATABASE_URL'];
  if (splitDatabaseUrl) {
    const env = { DATABASE_URL: splitDatabaseUrl, SWITCHYARD_API_KEY: API_KEY, SWITCHYARD_CONFIG: mainConfig };
    const api = await startServiceProcess({ ...env, SWITCHYARD_ROLE: 'api' });
    const worker = await startWorkerProcess(env).catch(async (e) => {
      await api.child.stop();
      throw e;
    });
    variants.push({ label: 'split', url: api.url, pid: api.child.process.pid!, worker, stop: async () => (await worker.stop(), await api.child.stop()) });
  }
  const owner = { 'content-type': 'application/json', 'x-sheets-key': API_KEY };
  /** Waits until the ledger has integrated every entry (the backlog metric reads 0). */
  const drainedAt = (url: string) => async (): Promise<void> => {
    for (const end = Date.now() + 120_000; Date.now() < end; await sleep(50)) {
      const text = await (await fetch(`${url}/metrics`, { headers: owner })).text();
      const m = /^switchyard_ledger_backlog_entries(?:\{[^}]*\})? (\d+)/m.exec(text);
      if (!m || m[1] === '0') return;
    }
  };
  const backlogDrained = drainedAt(service.url);
  const makeHookAt = async (url: string, name: string) => (await (await fetch(`${url}/api/objects/webhook`, { method: 'POST', headers: owner, body: JSON.stringify({ name }) })).json()) as { id: string };
  const makeHook = (name: string) => makeHookAt(service.url, name);
  /** A webhook forwarding to the receiver; its intake URL. */
  const forwardingHook = async (url: string) => {
    const hook = await makeHookAt(url, 'bench');
    // The longest timeout allowed: the drain phase holds the receiver's answers while it ingests.
    const dst = (await (await fetch(`${url}/api/objects/webhook/${hook.id}/destinations`, { method: 'POST', headers: owner, body: JSON.stringify({ url: `http://127.0.0.1:${receiverPort}/in`, timeout_ms: 60_000 }) })).json()) as { id: string };
    if (!dst.id) throw new Error(`no destination: ${JSON.stringify(dst)}`);
    return { hook, dst, hookUrl: `${url}/hook/${hook.id}` };
  };
  const { hook, dst, hookUrl } = await forwardingHook(service.url);
  const variantHooks = await Promise.all(variants.map(async (v) => (await forwardingHook(v.url)).hookUrl));
  const bare = await makeHook('bare');
  const bareUrl = `${service.url}/hook/${bare.id}`;

  type Rounds = Record<string, Array<Record<string, unknown> & { per_second?: number }>>;
  const rounds: Rounds = { plain: [], burst: [], ingest: [], drain: [], steady: [], ...Object.fromEntries(variants.map((v) => [`burst_${v.label}`, []])) };
  let offset = 0;
  const take = (n: number) => ((offset += n), offset - n);
  for (let round = 0; round < ROUNDS; round++) {
    await backlogDrained();
    if (PHASES.has('plain')) rounds['plain']!.push(await plain(take(DELIVERIES)));
    if (PHASES.has('burst')) rounds['burst']!.push(await burst(hookUrl, take(DELIVERIES)));
    for (const [i, v] of variants.entries()) {
      if (!PHASES.has('burst')) break;
      await drainedAt(v.url)();
      [servicePid, workerPid] = [v.pid, v.worker?.process.pid];
      rounds[`burst_${v.label}`]!.push(await burst(variantHooks[i]!, take(DELIVERIES)));
      [servicePid, workerPid] = [service.child.process.pid!, undefined];
    }
    await backlogDrained();
    if (PHASES.has('ingest')) rounds['ingest']!.push(await ingestOnly(bareUrl, take(DELIVERIES)));
    await backlogDrained();
    if (PHASES.has('drain')) rounds['drain']!.push(await drain(hookUrl, take(DELIVERIES), backlogDrained));
    await backlogDrained();
    if (PHASES.has('steady')) rounds['steady']!.push(await steady(hookUrl, take(STEADY_RATE * STEADY_SECONDS)));
  }
  const med = (phase: string, field: string) => (rounds[phase]!.length ? median(rounds[phase]!.map((r) => Number(r[field]))) : NaN);
  const medCpu = (phase: string, field: 'service' | 'service_main' | 'bench') => (rounds[phase]!.length ? median(rounds[phase]!.map((r) => (r['cpu_us'] as Record<string, number>)[field]!)) : NaN);
  const summary = (phase: string, fields: string[]) => ({
    ...Object.fromEntries(fields.map((f) => [f, med(phase, f)])),
    cpu_us_per_delivery: { service: medCpu(phase, 'service'), service_main: medCpu(phase, 'service_main'), bench: medCpu(phase, 'bench') },
  });

  const isolationPhase = PHASES.has('isolation') ? await isolation(take) : null;

  // What a large schedule costs ingestion: empty and full alternate (E F, F E, E F, …).
  let pendingPhase: Record<string, unknown> | null = null;
  if (PHASES.has('pending')) {
    const knex = openDirect();
    try {
      const empty: number[] = [];
      const full: number[] = [];
      const cpu: { empty: number[]; full: number[] } = { empty: [], full: [] };
      let filled = false;
      await ingestOnly(bareUrl, take(DELIVERIES)); // warm-up, not counted
      for (let round = 0; round < ROUNDS; round++) {
        for (const want of round % 2 === 0 ? [false, true] : [true, false]) {
          if (want !== filled) {
            if (want) await fillSchedule(knex, hook.id, dst.id);
            else await clearSchedule(knex);
            filled = want;
            await settleDatabase(knex);
          }
          await backlogDrained();
          const r = await ingestOnly(bareUrl, take(DELIVERIES));
          (want ? full : empty).push(r.per_second);
          cpu[want ? 'full' : 'empty'].push(r.cpu_us.service);
        }
      }
      if (filled) await clearSchedule(knex);
      pendingPhase = {
        pending_retries: PENDING,
        rounds: empty.map((e, i) => ({ empty: e, full: full[i], cpu_us: { empty: cpu.empty[i], full: cpu.full[i] } })),
        ingest_empty_per_second: median(empty),
        ingest_full_per_second: median(full),
        ratio: round3(median(full) / median(empty)),
        service_cpu_us_per_delivery: { empty: median(cpu.empty), full: median(cpu.full) },
      };
    } finally {
      await knex.destroy();
    }
  }

  const report = {
    benchmark: 'forward',
    engine: databaseUrl.startsWith('postgres') ? 'postgresql' : 'sqlite',
    deliveries_per_phase: DELIVERIES,
    concurrency: CONCURRENCY,
    rounds,
    plain: summary('plain', ['per_second']),
    burst: { ...summary('burst', ['per_second', 'ingest_per_second', 'lag_p50_ms', 'lag_p99_ms']), ratio_to_plain: round3(med('burst', 'per_second') / med('plain', 'per_second')) },
    ingest: summary('ingest', ['per_second']),
    drain: { ...summary('drain', ['per_second']), ratio_to_plain: round3(med('drain', 'per_second') / med('plain', 'per_second')) },
    steady: summary('steady', ['offered_per_second', 'achieved_per_second', 'lag_p50_ms', 'lag_p99_ms']),
    variants: Object.fromEntries(variants.map((v) => [v.label, { burst: summary(`burst_${v.label}`, ['per_second', 'ingest_per_second', 'lag_p50_ms', 'lag_p99_ms']), ratio_to_source: round3(med(`burst_${v.label}`, 'per_second') / med('burst', 'per_second')) }])),
    isolation: isolationPhase,
    pending: pendingPhase,
    targets: { 'burst.ratio_to_plain': '>= 0.5', 'steady.lag_p99_ms at 1000/s': '<= 1000', 'isolation.p99_ratio': '<= 1.5', 'pending.ratio': '>= 0.9' },
    load_average: loadavg().map((l) => Math.round(l * 10) / 10),
    cpus: availableParallelism(),
    node: process.version,
    at: new Date().toISOString(),
  };
  writeReport('forward', report);
} finally {
  for (const v of variants) await v.stop();
  await service.child.stop();
  agent.destroy();
  receiver.close();
  rmSync(dir, { recursive: true, force: true });
}
