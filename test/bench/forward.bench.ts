// npm run bench:forward — forwarding rate and lag: deliveries ingested at full speed into a webhook
// with one destination (a no-op receiver on loopback, in this process), against a plain client
// posting the same bodies to the same receiver in the same run; then a steady rate (1,000/s by
// default) and the receipt-to-forward lag (from sending the delivery to its arrival at the
// receiver) p50/p99.
// Last, ingest into a webhook without destinations before and after BENCH_PENDING (10^5) retries
// are put in the schedule (due in an hour), to see what a large schedule costs ingestion.
// Env: BENCH_DELIVERIES per burst (5000), BENCH_CONCURRENCY (32), BENCH_STEADY_RATE (1000/s),
// BENCH_STEADY_SECONDS (5), BENCH_ROUNDS (3), BENCH_PENDING (100000), DATABASE_URL (default: a temp
// SQLite file).
import knexFactory from 'knex';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeReport } from './support/report.js';
import { startServiceProcess } from '../support/processes.js';

const DELIVERIES = Number(process.env['BENCH_DELIVERIES'] ?? 5000);
const CONCURRENCY = Number(process.env['BENCH_CONCURRENCY'] ?? 32);
const STEADY_RATE = Number(process.env['BENCH_STEADY_RATE'] ?? 1000);
const STEADY_SECONDS = Number(process.env['BENCH_STEADY_SECONDS'] ?? 5);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const PENDING = Number(process.env['BENCH_PENDING'] ?? 100_000);
const API_KEY = 'sy_bench_key_0123456789abcdefghijklmnopqrstuvwxyz';
const dir = mkdtempSync(join(tmpdir(), 'switchyard-forward-'));
const databaseUrl = process.env['DATABASE_URL'] ?? `sqlite:${join(dir, 'bench.db')}`;

const body = (n: number): Buffer => Buffer.from(JSON.stringify({ id: `evt_${n}`, type: 'order.paid', pad: 'x'.repeat(900) }));

// The receiver: answers 204 at once and notes when each message arrived (by webhook-id, or the
// plain client's x-n).
const arrivals = new Map<string, number>();
let arrivalCount = 0;
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
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

async function untilArrived(count: number): Promise<void> {
  while (arrivalCount < count) await new Promise((r) => setTimeout(r, 5));
}

const quantile = (sorted: number[], q: number): number => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! * 10) / 10;

/** The plain client: the same bodies straight to the receiver, CONCURRENCY at a time. */
async function plain(offset: number): Promise<number> {
  arrivalCount = 0;
  const started = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < DELIVERIES) {
      const n = next++;
      await post(`http://127.0.0.1:${receiverPort}/in`, body(offset + n), { 'x-n': `plain_${offset + n}` });
    }
  }));
  return DELIVERIES / ((performance.now() - started) / 1000);
}

/** Ingests DELIVERIES at full speed and waits for all to be forwarded: forwarded/s and lags. */
async function burst(hookUrl: string, offset: number): Promise<{ per_second: number; ingest_per_second: number; lag_p50_ms: number; lag_p99_ms: number }> {
  arrivalCount = 0;
  const sentAt = new Map<string, number>();
  const started = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < DELIVERIES) {
      const n = next++;
      const at = performance.now();
      const res = await post(hookUrl, body(offset + n));
      if (res.status !== 200) throw new Error(`ingest answered ${res.status}: ${res.text}`);
      sentAt.set((JSON.parse(res.text) as { entry: string }).entry, at);
    }
  }));
  const ingested = performance.now();
  await untilArrived(DELIVERIES);
  const finished = Math.max(...[...sentAt.keys()].map((e) => arrivals.get(e)!));
  const lags = [...sentAt].map(([entry, at]) => arrivals.get(entry)! - at).sort((a, b) => a - b);
  return { per_second: Math.round(DELIVERIES / ((finished - started) / 1000)), ingest_per_second: Math.round(DELIVERIES / ((ingested - started) / 1000)), lag_p50_ms: quantile(lags, 0.5), lag_p99_ms: quantile(lags, 0.99) };
}

/** A steady STEADY_RATE deliveries/s for STEADY_SECONDS: the lag at that rate. */
async function steady(hookUrl: string, offset: number): Promise<{ offered_per_second: number; achieved_per_second: number; lag_p50_ms: number; lag_p99_ms: number }> {
  arrivalCount = 0;
  const total = STEADY_RATE * STEADY_SECONDS;
  const sentAt = new Map<string, number>();
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let n = 0; n < total; n++) {
    const due = started + (n * 1000) / STEADY_RATE;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const at = performance.now();
    inFlight.push(post(hookUrl, body(offset + n)).then((res) => void sentAt.set((JSON.parse(res.text) as { entry: string }).entry, at)));
  }
  await Promise.all(inFlight);
  const sent = performance.now();
  await untilArrived(total);
  const lags = [...sentAt].map(([entry, at]) => arrivals.get(entry)! - at).sort((a, b) => a - b);
  return { offered_per_second: STEADY_RATE, achieved_per_second: Math.round(total / ((sent - started) / 1000)), lag_p50_ms: quantile(lags, 0.5), lag_p99_ms: quantile(lags, 0.99) };
}

/** Ingest alone: DELIVERIES into a webhook without destinations, deliveries/s. */
async function ingestOnly(hookUrl: string, offset: number): Promise<number> {
  const started = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < DELIVERIES) {
      const n = next++;
      const res = await post(hookUrl, body(offset + n));
      if (res.status !== 200) throw new Error(`ingest answered ${res.status}`);
    }
  }));
  return Math.round(DELIVERIES / ((performance.now() - started) / 1000));
}

/** Puts PENDING retrying jobs, due in an hour, in the service's schedule (straight into its database). */
async function fillSchedule(hook: string, destination: string): Promise<void> {
  const knex = databaseUrl.startsWith('postgres')
    ? knexFactory({ client: 'pg', connection: databaseUrl })
    : knexFactory({ client: 'sqlite3', connection: { filename: databaseUrl.replace(/^sqlite:/, '') }, useNullAsDefault: true });
  try {
    const due = Date.now() + 3_600_000;
    const now = new Date().toISOString();
    for (let i = 0; i < PENDING; i += 500) {
      const rows = Array.from({ length: Math.min(500, PENDING - i) }, (_, k) => ({
        id: `fwd_bench${String(i + k).padStart(11, '0')}`, delivery: `dlv_bench${String(i + k).padStart(11, '0')}`, hook_id: hook, destination, state: 'retrying',
        attempts: 1, last_status: 503, due_at: due, invocations: '[]', ordered: 0, created_at: now,
      }));
      await knex('forward_jobs').insert(rows);
    }
  } finally {
    await knex.destroy();
  }
}

const service = await startServiceProcess({ DATABASE_URL: databaseUrl, SWITCHYARD_API_KEY: API_KEY, SWITCHYARD_FORWARD_ALLOW: `127.0.0.1:${receiverPort}` });
try {
  const owner = { 'content-type': 'application/json', 'x-sheets-key': API_KEY };
  const hook = (await (await fetch(`${service.url}/api/objects/webhook`, { method: 'POST', headers: owner, body: JSON.stringify({ name: 'bench' }) })).json()) as { id: string };
  const dst = (await (await fetch(`${service.url}/api/objects/webhook/${hook.id}/destinations`, { method: 'POST', headers: owner, body: JSON.stringify({ url: `http://127.0.0.1:${receiverPort}/in` }) })).json()) as { id: string };
  if (!dst.id) throw new Error(`no destination: ${JSON.stringify(dst)}`);
  const hookUrl = `${service.url}/hook/${hook.id}`;
  const rounds: Array<{ plain: number; forwarding: Awaited<ReturnType<typeof burst>> }> = [];
  for (let round = 0; round < ROUNDS; round++) {
    const offset = round * DELIVERIES * 2;
    const p = await plain(offset);
    rounds.push({ plain: Math.round(p), forwarding: await burst(hookUrl, offset + DELIVERIES) });
  }
  const byRatio = [...rounds].sort((a, b) => a.forwarding.per_second / a.plain - b.forwarding.per_second / b.plain);
  const median = byRatio[Math.floor(byRatio.length / 2)]!;
  const steadyPhase = await steady(hookUrl, ROUNDS * DELIVERIES * 2);
  // What a large schedule costs ingestion: a webhook without destinations, before and after.
  const bare = (await (await fetch(`${service.url}/api/objects/webhook`, { method: 'POST', headers: owner, body: JSON.stringify({ name: 'bare' }) })).json()) as { id: string };
  const bareUrl = `${service.url}/hook/${bare.id}`;
  const base = 10_000_000;
  const before = [await ingestOnly(bareUrl, base), await ingestOnly(bareUrl, base + DELIVERIES)];
  await fillSchedule(hook.id, dst.id);
  const after = [await ingestOnly(bareUrl, base + 2 * DELIVERIES), await ingestOnly(bareUrl, base + 3 * DELIVERIES)];
  const pendingPhase = { pending_retries: PENDING, ingest_before_per_second: Math.max(...before), ingest_after_per_second: Math.max(...after), ratio: Math.round((Math.max(...after) / Math.max(...before)) * 1000) / 1000 };
  const report = {
    benchmark: 'forward',
    engine: databaseUrl.startsWith('postgres') ? 'postgresql' : 'sqlite',
    deliveries_per_burst: DELIVERIES,
    concurrency: CONCURRENCY,
    rounds,
    burst: { plain_per_second: median.plain, ...median.forwarding, ratio: Math.round((median.forwarding.per_second / median.plain) * 1000) / 1000 },
    steady: steadyPhase,
    pending: pendingPhase,
    targets: { 'burst.ratio': '>= 0.5', 'steady.lag_p99_ms at 1000/s': '<= 1000', 'pending.ratio': '>= 0.9' },
    cpus: availableParallelism(),
    node: process.version,
    at: new Date().toISOString(),
  };
  writeReport('forward', report);
} finally {
  await service.child.stop();
  agent.destroy();
  receiver.close();
  rmSync(dir, { recursive: true, force: true });
}
