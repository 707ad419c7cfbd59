// npm run bench:hostile — the slow-sender attack: 150 senders each posting 10 MiB bodies slowly,
// first to an address with no such webhook, then to a real webhook, against the service in its own
// process (default config: 128 MiB of bodies in flight, 30 s body timeout). Reports the service's
// peak RSS during each phase against its idle RSS, and /healthz latency (p50/p99) probed all along.
// Targets: peak RSS <= idle + in-flight budget + 150 MB; /healthz p99 <= 100 ms. Loopback only.
// The service also samples its own memory (support/memory-sampler.ts, loaded after tsx), so each
// phase reports what its RSS peak was made of: the JS heap, and buffers outside it (bodies).
// Env: BENCH_SECONDS per phase (30), BENCH_SENDERS (150), BENCH_SENDER_KIB_PER_S (512),
// BENCH_PHASES (unknown,real), DATABASE_URL (default: a temp SQLite file).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MemorySample } from './support/memory-sampler.js';
import { writeReport } from './support/report.js';
import { figures, type Figures } from './support/stats.js';
import { startServiceProcess } from '../support/processes.js';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 30);
const SENDERS = Number(process.env['BENCH_SENDERS'] ?? 150);
const RATE = Number(process.env['BENCH_SENDER_KIB_PER_S'] ?? 512) * 1024;
const PHASES = (process.env['BENCH_PHASES'] ?? 'unknown,real').split(',');
const BODY_BYTES = 10 * 1024 * 1024;
const BUDGET_BYTES = 128 * 1024 * 1024;
const API_KEY = 'sy_bench_key_0123456789abcdefghijklmnopqrstuvwxyz';
const CHUNK = Buffer.alloc(16 * 1024, 0x61);
const dir = mkdtempSync(join(tmpdir(), 'switchyard-hostile-'));
const databaseUrl = process.env['DATABASE_URL'] ?? `sqlite:${join(dir, 'bench.db')}`;
const memoryFile = join(dir, 'memory.json');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number): number => Math.round((bytes / 1e6) * 10) / 10;

/** The resident set of a process, from /proc (Linux). */
const rssOf = (pid: number): number => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))!;
  return Number(line.split(/\s+/)[1]) * 1024;
};

/**
 * One slow sender's attempt: the head of a 10 MiB POST, then the body at RATE bytes/s until the
 * service answers, closes, or the body is sent. Resolves with the status (0: closed without one).
 */
function attempt(port: number, path: string, until: number): Promise<{ status: number; sent: number }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let sent = 0;
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    let head = '';
    const finish = (status: number): void => {
      if (settled) return;
      settled = true;
      clearInterval(timer);
      socket.destroy();
      resolve({ status, sent });
    };
    socket.on('error', () => finish(0));
    socket.on('close', () => finish(0));
    socket.on('data', (d: Buffer) => {
      head += d.toString('latin1');
      const match = /^HTTP\/1\.1 (\d{3})/.exec(head);
      if (match) finish(Number(match[1]));
    });
    socket.on('connect', () => {
      socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/octet-stream\r\nContent-Length: ${BODY_BYTES}\r\n\r\n`);
      timer = setInterval(() => {
        if (Date.now() > until) return finish(0);
        if (socket.writableNeedDrain) return;
        const n = Math.min(CHUNK.length, BODY_BYTES - sent);
        if (n <= 0) return;
        socket.write(n === CHUNK.length ? CHUNK : CHUNK.subarray(0, n));
        sent += n;
      }, (CHUNK.length / RATE) * 1000);
    });
  });
}

interface PhaseReport {
  address: string;
  seconds: number;
  peak_rss_mb: number;
  healthz: Figures;
  answers: Record<string, number>;
  body_mb_sent: number;
  /** The service's own memory at its RSS peak in the phase, and the most of each part (added after the run). */
  memory?: { at_peak_mb: MemoryParts; max_mb: MemoryParts };
  /** When the phase ran (ms since the epoch). */
  window: [number, number];
}

interface MemoryParts {
  rss: number;
  heap_used: number;
  heap_total: number;
  external: number;
  array_buffers: number;
}

const parts = (s: MemorySample): MemoryParts => ({ rss: mb(s[1]), heap_used: mb(s[2]), heap_total: mb(s[3]), external: mb(s[4]), array_buffers: mb(s[5]) });

/** The samples of a window: the one at the RSS peak, and the most of each part. */
function memoryIn(samples: MemorySample[], [from, to]: [number, number]): PhaseReport['memory'] {
  const inside = samples.filter((s) => s[0] >= from && s[0] <= to);
  if (inside.length === 0) return undefined;
  const atPeak = inside.reduce((a, b) => (b[1] > a[1] ? b : a));
  const max = inside.reduce((a, b) => a.map((v, i) => Math.max(v, b[i]!)) as MemorySample);
  return { at_peak_mb: parts(atPeak), max_mb: parts(max) };
}

/** SENDERS slow senders for SECONDS, RSS sampled and /healthz probed all along. */
async function phase(name: string, port: number, pid: number, path: string): Promise<PhaseReport> {
  const from = Date.now();
  const until = from + SECONDS * 1000;
  const answers: Record<string, number> = {};
  let sentBytes = 0;
  let peak = rssOf(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 100);
  const probes = healthz(port, until);
  await Promise.all(
    Array.from({ length: SENDERS }, async (_, i) => {
      await sleep((i * 1000) / SENDERS); // spread the first connections over a second
      while (Date.now() < until) {
        const { status, sent } = await attempt(port, path, until);
        sentBytes += sent;
        const key = status === 0 ? 'closed' : String(status);
        answers[key] = (answers[key] ?? 0) + 1;
        // A refused sender comes back after a short pause, as a retrying client would.
        if (status !== 0) await sleep(100 + Math.random() * 100);
      }
    }),
  );
  const health = await probes;
  clearInterval(sampler);
  peak = Math.max(peak, rssOf(pid));
  console.error(`${name}: peak RSS ${mb(peak)} MB, /healthz p99 ${health.p99_ms} ms, answers ${JSON.stringify(answers)}`);
  return { address: path, seconds: SECONDS, peak_rss_mb: mb(peak), healthz: health, answers, body_mb_sent: mb(sentBytes), window: [from, Date.now()] };
}

/** /healthz, one request after another every 20 ms until `until`: the latency an operator's probe sees. */
async function healthz(port: number, until: number): Promise<Figures> {
  const samples: number[] = [];
  let errors = 0;
  const start = performance.now();
  while (Date.now() < until) {
    const t = performance.now();
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(5000) });
      await res.arrayBuffer();
      if (res.ok) samples.push(performance.now() - t);
      else errors++;
    } catch {
      errors++;
    }
    await sleep(20);
  }
  return figures(samples, errors, (performance.now() - start) / 1000);
}

const loadAtStart = Math.round(loadavg()[0]! * 100) / 100;
const sampler = new URL('./support/memory-sampler.ts', import.meta.url).href;
const service = await startServiceProcess({ DATABASE_URL: databaseUrl, SWITCHYARD_API_KEY: API_KEY, BENCH_MEMORY_FILE: memoryFile }, ['--import', sampler]);
let report: Record<string, unknown> & { engine: string; idle: Record<string, unknown>; phases: Record<string, PhaseReport> };
try {
  const pid = service.child.process.pid!;
  const port = Number(new URL(service.url).port);
  const created = await fetch(`${service.url}/api/objects/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-sheets-key': API_KEY }, body: JSON.stringify({ name: 'hostile' }) });
  const hook = (await created.json()) as { id: string };
  // Idle: warmed up by a second of probes, then measured, then the median of a few RSS samples.
  await healthz(port, Date.now() + 1000);
  const idleHealth = await healthz(port, Date.now() + 3000);
  const idleSamples: number[] = [];
  for (let i = 0; i < 10; i++) {
    idleSamples.push(rssOf(pid));
    await sleep(100);
  }
  const idle = idleSamples.sort((a, b) => a - b)[5]!;
  console.error(`idle: RSS ${mb(idle)} MB, /healthz p99 ${idleHealth.p99_ms} ms`);

  const phases: Record<string, PhaseReport> = {};
  if (PHASES.includes('unknown')) phases['unknown_webhook'] = await phase('unknown webhook', port, pid, '/hook/hk_000000000000');
  if (PHASES.includes('real')) phases['real_webhook'] = await phase('real webhook', port, pid, `/hook/${hook.id}`);

  const ceiling = mb(idle + BUDGET_BYTES + 150e6);
  const worst = (p: PhaseReport) => ({ peak_rss_within: p.peak_rss_mb <= ceiling, healthz_p99_within: p.healthz.p99_ms <= 100 });
  report = {
    benchmark: 'hostile',
    engine: databaseUrl.startsWith('postgres') ? 'postgresql' : 'sqlite',
    senders: SENDERS,
    body_bytes: BODY_BYTES,
    sender_bytes_per_s: RATE,
    in_flight_budget_bytes: BUDGET_BYTES,
    idle: { rss_mb: mb(idle), healthz: idleHealth },
    phases,
    targets: { peak_rss_mb: `<= idle + budget + 150 MB = ${ceiling}`, healthz_p99_ms: '<= 100' },
    met: Object.fromEntries(Object.entries(phases).map(([name, p]) => [name, worst(p)])),
    cpus: availableParallelism(),
    // Other work on the machine shows here: latency figures mean little when this exceeds the cores.
    load_average_1m: { at_start: loadAtStart, at_end: Math.round(loadavg()[0]! * 100) / 100 },
    node: process.version,
    at: new Date().toISOString(),
  };
} finally {
  await service.child.stop();
}
try {
  // Written by the service as it stopped.
  const samples = existsSync(memoryFile) ? (JSON.parse(readFileSync(memoryFile, 'utf8')) as MemorySample[]) : [];
  for (const p of Object.values(report.phases)) p.memory = memoryIn(samples, p.window);
  // Idle: the last sample before the first phase.
  const firstPhase = Math.min(...Object.values(report.phases).map((p) => p.window[0]));
  const idleSample = samples.filter((s) => s[0] < firstPhase).at(-1);
  if (idleSample) report.idle['memory_mb'] = parts(idleSample);
  writeReport('hostile', report);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
