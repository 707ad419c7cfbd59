// npm run bench:pages — requests/s and p99 of a tag page (100 articles under one tag) and of the
// whole-site zip (100 articles and the system pages, streamed), each against an Express no-op
// route in the same process and the same run, with autocannon. Baseline and service alternate
// for a few rounds (the machine's speed drifts) and the ratio is taken between their medians.
// Env: BENCH_SECONDS per measurement (5), BENCH_ROUNDS (3), BENCH_CONNECTIONS (10), ARTICLES (100).
import autocannon from 'autocannon';
import express from 'express';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, createSwitchyard, loadConfig } from '@switchyard/app';
import { articleSource } from '@switchyard/core';
import { writeReport } from './support/report.js';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 5);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 10);
const ARTICLES = Number(process.env['ARTICLES'] ?? 100);
const TOPICS = ['webhooks', 'tokens', 'proofs', 'ledger', 'dispatch', 'edge', 'messaging', 'payments', 'web', 'approvals', 'security', 'operations'];

interface Phase {
  per_second: number;
  p50_ms: number;
  p99_ms: number;
  bytes_per_response: number;
  non_2xx: number;
  errors: number;
}

async function load(url: string): Promise<Phase> {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS });
  return { per_second: r.requests.average, p50_ms: r.latency.p50, p99_ms: r.latency.p99, bytes_per_response: Math.round(r.throughput.total / Math.max(1, r.requests.total)), non_2xx: r.non2xx, errors: r.errors };
}

const median = (runs: Phase[]): Phase => [...runs].sort((a, b) => a.per_second - b.per_second)[Math.floor(runs.length / 2)]!;

// 100 articles of about 3 KB: every one tagged "bench", plus two topics each, dates spread over a year.
const dir = mkdtempSync(join(tmpdir(), 'switchyard-pages-'));
const folder = join(dir, 'content');
mkdirSync(folder);
for (let i = 0; i < ARTICLES; i++) {
  const slug = `article-${String(i).padStart(3, '0')}`;
  const date = new Date(Date.UTC(2026, 0, 1) + i * 3.6 * 86_400_000).toISOString().slice(0, 10);
  const tags = ['bench', TOPICS[i % TOPICS.length]!, TOPICS[(i * 7 + 3) % TOPICS.length]!].filter((t, j, all) => all.indexOf(t) === j);
  const body = Array.from({ length: 12 }, (_, p) => `## Part ${p + 1}\n\nParagraph ${p + 1} of ${slug}: *dispatch*, \`ledger\` and [a link](https://example.com/${slug}/${p}). `.repeat(2)).join('\n\n');
  writeFileSync(join(folder, `${slug}.md`), articleSource({ slug, title: `Article ${i}: ${tags[1]}`, tags, date, summary: `Summary of article ${i}, about ${tags.slice(1).join(' and ')}.`, body }));
}

const config = loadConfig({ env: {}, overrides: { database: { url: `sqlite:${join(dir, 'pages.db')}` }, auth: { apiKey: 'sy_bench_key_0123456789abcdefghijklmnopqrstuvwxyz' }, log: { level: 'silent' }, server: { port: 0 }, content: { folder } } });
const switchyard = await createSwitchyard(config, { logger: createLogger('silent') });
const { url } = await switchyard.listen();

// The baseline: an Express route that answers a fixed short HTML page, in this same process.
const noopApp = express();
noopApp.disable('x-powered-by');
noopApp.get('/noop', (_req, res) => {
  res.type('html').send('<!doctype html><title>noop</title>');
});
const noopServer = noopApp.listen(0, '127.0.0.1');
await new Promise((r) => noopServer.once('listening', r));
const noopUrl = `http://127.0.0.1:${(noopServer.address() as AddressInfo).port}/noop`;

try {
  // Check the targets answer what they should before timing them.
  const tag = await fetch(`${url}/tags/bench`);
  const tagText = await tag.text();
  if (tag.status !== 200 || !tagText.includes(`<span id="count">${ARTICLES}</span>`)) throw new Error(`tag page is not ready: ${tag.status}`);
  const zip = await fetch(`${url}/site.zip`);
  const zipBytes = Buffer.from(await zip.arrayBuffer());
  if (zip.status !== 200 || zipBytes.readUInt32LE(0) !== 0x04034b50) throw new Error(`site.zip is not a zip: ${zip.status}`);

  const phases: Record<string, { path: string; baseline: Phase; switchyard: Phase; ratio: number; rounds: Array<{ baseline: number; switchyard: number }> }> = {};
  for (const [name, path] of [['tag page', '/tags/bench'], ['site zip', '/site.zip']] as const) {
    const baselines: Phase[] = [];
    const services: Phase[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      baselines.push(await load(noopUrl));
      services.push(await load(`${url}${path}`));
    }
    const baseline = median(baselines);
    const service = median(services);
    phases[name] = {
      path,
      baseline,
      switchyard: service,
      ratio: Math.round((service.per_second / baseline.per_second) * 1000) / 1000,
      rounds: baselines.map((b, i) => ({ baseline: b.per_second, switchyard: services[i]!.per_second })),
    };
  }
  const report = {
    benchmark: 'pages',
    engine: 'sqlite',
    articles: ARTICLES,
    site_zip_bytes: zipBytes.length,
    tag_page_bytes: Buffer.byteLength(tagText),
    connections: CONNECTIONS,
    seconds_per_measurement: SECONDS,
    rounds: ROUNDS,
    phases,
    cpus: availableParallelism(),
    node: process.version,
    at: new Date().toISOString(),
  };
  writeReport('pages', report);
} finally {
  noopServer.closeAllConnections();
  await new Promise((r) => noopServer.close(r));
  await switchyard.close();
  rmSync(dir, { recursive: true, force: true });
}
