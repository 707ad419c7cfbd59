// npm run bench:ingest — webhook deliveries/s through POST /hook/<id> (each committed before its
// 2xx) against an Express no-op route with the same raw reader, measured in the same run with
// autocannon: 1 KiB JSON deliveries with unique ids at 50 connections, and 1 MiB at 10.
// The machine's speed drifts over a run, so baseline and service alternate for a few rounds and
// the ratio is taken between their medians.
// Each measurement also gives the CPU per request of the server and of the load generator, in all
// and on the server's main thread: steadier than throughput on a shared machine, and it shows where
// the service spends more than the no-op.
// On SQLite the 1 KiB phase also measures a ledgerless baseline (support/ledgerless-main.ts): the
// no-op app storing each delivery as the service does, without the ledger, which shows how much of
// the gap to the no-op is storing and how much is the rest.
// Env: BENCH_SECONDS per measurement (10), BENCH_ROUNDS (3), DATABASE_URL (default: a temp SQLite file).
import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { withCpu } from './support/cpu.js';
import { writeReport } from './support/report.js';
import { spawnTs, startServiceProcess } from '../support/processes.js';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const API_KEY = 'sy_bench_key_0123456789abcdefghijklmnopqrstuvwxyz';
const dir = mkdtempSync(join(tmpdir(), 'switchyard-ingest-'));
const databaseUrl = process.env['DATABASE_URL'] ?? `sqlite:${join(dir, 'bench.db')}`;

/** A JSON delivery of about `bytes` bytes whose id autocannon replaces per request ([<id>]). */
const deliveryBody = (bytes: number): string => {
  const head = '{"id":"evt_[<id>]","type":"order.paid","pad":"';
  return head + 'x'.repeat(Math.max(0, bytes - head.length - 2)) + '"}';
};

interface Phase {
  connections: number;
  body_bytes: number;
  per_second: number;
  p50_ms: number;
  p99_ms: number;
  non_2xx: number;
  errors: number;
  requests: number;
  /** CPU per request of the server measured (service or no-op) and of the load generator (this process). */
  cpu_ms_per_request: Record<string, number>;
  main_thread_ms_per_request: Record<string, number>;
}

async function load(url: string, serverPid: number | undefined, connections: number, bytes: number): Promise<Phase> {
  return withCpu({ server: serverPid, client: undefined }, async () => {
    const result = await autocannon({
      url,
      connections,
      duration: SECONDS,
      requests: [{ method: 'POST', headers: { 'content-type': 'application/json' }, body: deliveryBody(bytes) }],
      idReplacement: true,
    });
    return {
      connections,
      body_bytes: bytes,
      per_second: result.requests.average,
      p50_ms: result.latency.p50,
      p99_ms: result.latency.p99,
      non_2xx: result.non2xx,
      errors: result.errors,
      requests: result.requests.total,
    };
  });
}

/** The round with the median throughput (its latencies come with it). */
const median = (runs: Phase[]): Phase => [...runs].sort((a, b) => a.per_second - b.per_second)[Math.floor(runs.length / 2)]!;

/** The baselines print one JSON line with their URL when they listen. */
const urlLine = (line: string): string | undefined => {
  try {
    return (JSON.parse(line) as { url?: string }).url;
  } catch {
    return undefined;
  }
};

const noop = await spawnTs('test/bench/support/noop-main.ts', [], {}, urlLine);
const service = await startServiceProcess({ DATABASE_URL: databaseUrl, SWITCHYARD_API_KEY: API_KEY }).catch(async (e) => {
  await noop.child.stop();
  throw e;
});
const ledgerless = databaseUrl.startsWith('sqlite:')
  ? await spawnTs('test/bench/support/ledgerless-main.ts', [`sqlite:${join(dir, 'ledgerless.db')}`], {}, urlLine).catch(async (e) => {
      await service.child.stop();
      await noop.child.stop();
      throw e;
    })
  : null;

try {
  const created = await fetch(`${service.url}/api/objects/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-sheets-key': API_KEY }, body: JSON.stringify({ name: 'bench' }) });
  const hook = (await created.json()) as { id: string };
  const phases: Record<string, { baseline: Phase; switchyard: Phase; ratio: number; rounds: Array<{ baseline: number; switchyard: number; ledgerless?: number }>; ledgerless?: Phase & { ratio: number } }> = {};
  for (const [name, connections, bytes] of [['1KiB', 50, 1024], ['1MiB', 10, 1024 * 1024]] as const) {
    const baselines: Phase[] = [];
    const services: Phase[] = [];
    const storeOnly: Phase[] = [];
    const withLedgerless = ledgerless !== null && name === '1KiB';
    for (let round = 0; round < ROUNDS; round++) {
      baselines.push(await load(`${noop.value}/hook/${hook.id}`, noop.child.process.pid, connections, bytes));
      services.push(await load(`${service.url}/hook/${hook.id}`, service.child.process.pid, connections, bytes));
      if (withLedgerless) storeOnly.push(await load(`${ledgerless.value}/hook/${hook.id}`, ledgerless.child.process.pid, connections, bytes));
    }
    const baseline = median(baselines);
    const switchyard = median(services);
    const ratio = (p: Phase) => Math.round((p.per_second / baseline.per_second) * 1000) / 1000;
    phases[name] = {
      baseline,
      switchyard,
      ratio: ratio(switchyard),
      rounds: baselines.map((b, i) => ({ baseline: b.per_second, switchyard: services[i]!.per_second, ...(withLedgerless ? { ledgerless: storeOnly[i]!.per_second } : {}) })),
      ...(withLedgerless ? { ledgerless: { ...median(storeOnly), ratio: ratio(median(storeOnly)) } } : {}),
    };
  }
  const report = {
    benchmark: 'ingest',
    engine: databaseUrl.startsWith('postgres') ? 'postgresql' : 'sqlite',
    seconds_per_measurement: SECONDS,
    rounds: ROUNDS,
    phases,
    targets: { '1KiB.ratio': '>= 0.7 (each delivery committed before its 2xx)' },
    notes: { ledgerless: 'SQLite only: the no-op app storing each delivery as the service does, without the ledger (support/ledgerless-main.ts)' },
    cpus: availableParallelism(),
    node: process.version,
    at: new Date().toISOString(),
  };
  writeReport('ingest', report);
} finally {
  await ledgerless?.child.stop();
  await service.child.stop();
  await noop.child.stop();
  rmSync(dir, { recursive: true, force: true });
}
