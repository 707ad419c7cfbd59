// npm run bench:listing — the ledger listing over large deliveries: DELIVERIES (55) deliveries of
// BODY_MIB (10) MiB each, then GET /api/ledger?event=webhook%20delivery&limit=50 ROUNDS (5) times,
// reporting the answer's bytes, each answer's time, and the process's RSS before and at its peak
// while listing (sampled every 5 ms). Then one body streamed from its body_url (bytes, time).
// Env: DATABASE_URL (a SQLite file in a temp folder by default; postgres://… for PostgreSQL).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, createSwitchyard, loadConfig } from '@switchyard/app';
import { writeReport } from './support/report.js';

const DELIVERIES = Number(process.env['DELIVERIES'] ?? 55);
const BODY_MIB = Number(process.env['BODY_MIB'] ?? 10);
const ROUNDS = Number(process.env['ROUNDS'] ?? 5);
const KEY = 'sy_bench_key_0123456789abcdefghijklmnopqrstuvwxyz';
const MB = 1024 * 1024;

const dir = mkdtempSync(join(tmpdir(), 'switchyard-listing-'));
const databaseUrl = process.env['DATABASE_URL'] ?? `sqlite:${join(dir, 'listing.db')}`;
const config = loadConfig({
  env: {},
  overrides: { database: { url: databaseUrl }, auth: { apiKey: KEY }, log: { level: 'silent' }, server: { port: 0 }, webhooks: { bodyLimitBytes: Math.max(10 * MB, BODY_MIB * MB + 1) } },
});
const switchyard = await createSwitchyard(config, { logger: createLogger('silent') });
const { url } = await switchyard.listen();
const owner = { 'x-sheets-key': KEY };

const hook = (await (await fetch(`${url}/api/objects/webhook`, { method: 'POST', headers: { ...owner, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'listing bench' }) })).json()) as { id: string };
const body = Buffer.alloc(BODY_MIB * MB, 'abcdefghij');
for (let i = 0; i < DELIVERIES; i++) {
  body.write(`{"n":${i}}`, 0);
  const res = await fetch(`${url}/hook/${hook.id}`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body });
  if (res.status !== 200) throw new Error(`delivery ${i} answered ${res.status}`);
  await res.arrayBuffer();
}

/** Runs `work` while sampling RSS; the peak seen. */
async function withPeakRss<T>(work: () => Promise<T>): Promise<{ value: T; peak_rss_mb: number }> {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
  try {
    const value = await work();
    return { value, peak_rss_mb: Math.round(Math.max(peak, process.memoryUsage.rss()) / MB) };
  } finally {
    clearInterval(timer);
  }
}

(globalThis as { gc?: () => void }).gc?.();
const rssBefore = Math.round(process.memoryUsage.rss() / MB);
const rounds: Array<{ status: number; answer_bytes: number; items: number; ms: number }> = [];
const listing = await withPeakRss(async () => {
  for (let r = 0; r < ROUNDS; r++) {
    const start = performance.now();
    const res = await fetch(`${url}/api/ledger?event=webhook%20delivery&limit=50`, { headers: owner });
    const text = await res.text();
    const ms = performance.now() - start;
    rounds.push({ status: res.status, answer_bytes: Buffer.byteLength(text), items: res.status === 200 ? (JSON.parse(text) as { items: unknown[] }).items.length : 0, ms: Math.round(ms * 10) / 10 });
  }
  return rounds;
});

const first = (JSON.parse(await (await fetch(`${url}/api/ledger?event=webhook%20delivery&limit=1`, { headers: owner })).text()) as { items: Array<{ body_url: string | null }> }).items[0];
const stream = await withPeakRss(async () => {
  const start = performance.now();
  const res = await fetch(first!.body_url!, { headers: owner });
  let bytes = 0;
  const reader = res.body!.getReader();
  for (let part = await reader.read(); !part.done; part = await reader.read()) bytes += part.value.byteLength;
  return { status: res.status, bytes, ms: Math.round((performance.now() - start) * 10) / 10 };
});

const sorted = rounds.map((r) => r.ms).sort((a, b) => a - b);
writeReport('listing', {
  engine: databaseUrl.startsWith('postgres') ? 'postgresql' : 'sqlite',
  deliveries: DELIVERIES,
  body_mib: BODY_MIB,
  rss_before_mb: rssBefore,
  listing: { rounds, median_ms: sorted[Math.floor(sorted.length / 2)], peak_rss_mb: listing.peak_rss_mb },
  body_stream: { ...stream.value, peak_rss_mb: stream.peak_rss_mb },
} as { engine: string });

await switchyard.close();
rmSync(dir, { recursive: true, force: true });
