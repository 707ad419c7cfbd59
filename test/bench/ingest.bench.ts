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
// BENCH_BEFORE_REF=<git ref> measures that version of the service too, in the same rounds (its tree
// from git, our packages from it, the rest shared: support/tree-at.ts), each with a database of its
// own, and reports the ratio of this version to it: a change's cost on the hot path, measured.
// BENCH_SPLIT_DATABASE_URL=<another PostgreSQL database> (with DATABASE_URL on PostgreSQL) measures
// roles in the same rounds: one api process taking the deliveries while one worker process
// integrates them (SWITCHYARD_ROLE), against the one `all` process doing both.
// BENCH_COMPILED=1 measures the compiled service too (adapters/app/dist, `npm run build` first, run
// by plain node as `npm start` does) in the same rounds, with a database of its own
// (BENCH_COMPILED_DATABASE_URL, default a temp SQLite file): ratio_to_source is its deliveries/s
// over the service run from source under tsx (the `switchyard` phase).
// Env: BENCH_SECONDS per measurement (10), BENCH_ROUNDS (3), DATABASE_URL (default: a temp SQLite file),
// BENCH_BEFORE_REF, BENCH_BEFORE_DATABASE_URL (default: another temp SQLite file; give a second
// PostgreSQL database when DATABASE_URL is one).
import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { withCpu } from './support/cpu.js';
import { writeReport } from './support/report.js';
import { spawnTs, startCompiledServiceProcess, startServiceProcess, startWorkerProcess } from '../support/processes.js';
import { treeAt } from './support/tree-at.js';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const API_KEY = 'sy_bench_key_0123456789abcdefghijklmnopqrstuvwxyz';
const dir = mkdtempSync(join(tmpdir(), 'switchyard-ingest-'));
const databaseUrl = process.env['DATABASE_URL'] ?? `sqlite:${join(dir, 'bench.db')}`;
const beforeRef = process.env['BENCH_BEFORE_REF'];
const beforeDatabaseUrl = process.env['BENCH_BEFORE_DATABASE_URL'] ?? `sqlite:${join(dir, 'before.db')}`;
const splitDatabaseUrl = process.env['BENCH_SPLIT_DATABASE_URL'];
const compiledDatabaseUrl = process.env['BENCH_COMPILED'] === '1' ? (process.env['BENCH_COMPILED_DATABASE_URL'] ?? `sqlite:${join(dir, 'compiled.db')}`) : null;
if (compiledDatabaseUrl && databaseUrl.startsWith('postgres') && !process.env['BENCH_COMPILED_DATABASE_URL']) throw new Error('BENCH_COMPILED on PostgreSQL needs BENCH_COMPILED_DATABASE_URL: a database of its own');
if (splitDatabaseUrl && !(databaseUrl.startsWith('postgres') && splitDatabaseUrl.startsWith('postgres'))) throw new Error('BENCH_SPLIT_DATABASE_URL needs PostgreSQL for both DATABASE_URL and itself (roles share a database)');
if (beforeRef && databaseUrl.startsWith('postgres') && !process.env['BENCH_BEFORE_DATABASE_URL']) throw new Error('BENCH_BEFORE_REF on PostgreSQL needs BENCH_BEFORE_DATABASE_URL: a database of its own');

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

/** The ref measured before: its ratio to the baseline, this version's throughput over its, and its CPU per request over this version's. */
const beforePhase = (b: Phase, now: Phase, ratio: (p: Phase) => number) => ({
  ...b,
  ratio: ratio(b),
  ratio_to_before: Math.round((now.per_second / b.per_second) * 1000) / 1000,
  cpu_ms_per_request_to_before: Math.round(((now.cpu_ms_per_request['server'] ?? 0) / (b.cpu_ms_per_request['server'] ?? 1)) * 1000) / 1000,
});

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
const before = beforeRef
  ? await startServiceProcess({ DATABASE_URL: beforeDatabaseUrl, SWITCHYARD_API_KEY: API_KEY }, [], treeAt(beforeRef, join(dir, 'before'))).catch(async (e) => {
      await service.child.stop();
      await noop.child.stop();
      throw e;
    })
  : null;
const split = splitDatabaseUrl
  ? await (async () => {
      const api = await startServiceProcess({ DATABASE_URL: splitDatabaseUrl, SWITCHYARD_API_KEY: API_KEY, SWITCHYARD_ROLE: 'api' });
      const worker = await startWorkerProcess({ DATABASE_URL: splitDatabaseUrl, SWITCHYARD_API_KEY: API_KEY }).catch(async (e) => {
        await api.child.stop();
        throw e;
      });
      return { api, worker };
    })().catch(async (e) => {
      await before?.child.stop();
      await service.child.stop();
      await noop.child.stop();
      throw e;
    })
  : null;
const compiled = compiledDatabaseUrl
  ? await startCompiledServiceProcess({ DATABASE_URL: compiledDatabaseUrl, SWITCHYARD_API_KEY: API_KEY }).catch(async (e) => {
      await split?.worker.stop();
      await split?.api.child.stop();
      await before?.child.stop();
      await service.child.stop();
      await noop.child.stop();
      throw e;
    })
  : null;
const ledgerless = databaseUrl.startsWith('sqlite:')
  ? await spawnTs('test/bench/support/ledgerless-main.ts', [`sqlite:${join(dir, 'ledgerless.db')}`], {}, urlLine).catch(async (e) => {
      await before?.child.stop();
      await service.child.stop();
      await noop.child.stop();
      throw e;
    })
  : null;

try {
  const createHook = async (url: string) => {
    const created = await fetch(`${url}/api/objects/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-sheets-key': API_KEY }, body: JSON.stringify({ name: 'bench' }) });
    return (await created.json()) as { id: string };
  };
  const hook = await createHook(service.url);
  const beforeHook = before ? await createHook(before.url) : null;
  const splitHook = split ? await createHook(split.api.url) : null;
  const compiledHook = compiled ? await createHook(compiled.url) : null;
  const phases: Record<string, {
    baseline: Phase; switchyard: Phase; ratio: number;
    rounds: Array<{ baseline: number; switchyard: number; ledgerless?: number; before?: number; split?: number; compiled?: number }>;
    split?: Phase & { ratio: number; ratio_to_all: number };
    compiled?: Phase & { ratio: number; ratio_to_source: number };
    ledgerless?: Phase & { ratio: number };
    before?: Phase & { ratio: number; ratio_to_before: number; cpu_ms_per_request_to_before: number };
  }> = {};
  for (const [name, connections, bytes] of [['1KiB', 50, 1024], ['1MiB', 10, 1024 * 1024]] as const) {
    const baselines: Phase[] = [];
    const services: Phase[] = [];
    const storeOnly: Phase[] = [];
    const befores: Phase[] = [];
    const splits: Phase[] = [];
    const compileds: Phase[] = [];
    const withLedgerless = ledgerless !== null && name === '1KiB';
    for (let round = 0; round < ROUNDS; round++) {
      baselines.push(await load(`${noop.value}/hook/${hook.id}`, noop.child.process.pid, connections, bytes));
      services.push(await load(`${service.url}/hook/${hook.id}`, service.child.process.pid, connections, bytes));
      if (compiled && compiledHook) compileds.push(await load(`${compiled.url}/hook/${compiledHook.id}`, compiled.child.process.pid, connections, bytes));
      if (split && splitHook) splits.push(await load(`${split.api.url}/hook/${splitHook.id}`, split.api.child.process.pid, connections, bytes));
      if (before && beforeHook) befores.push(await load(`${before.url}/hook/${beforeHook.id}`, before.child.process.pid, connections, bytes));
      if (withLedgerless) storeOnly.push(await load(`${ledgerless.value}/hook/${hook.id}`, ledgerless.child.process.pid, connections, bytes));
    }
    const baseline = median(baselines);
    const switchyard = median(services);
    const ratio = (p: Phase) => Math.round((p.per_second / baseline.per_second) * 1000) / 1000;
    phases[name] = {
      baseline,
      switchyard,
      ratio: ratio(switchyard),
      rounds: baselines.map((b, i) => ({
        baseline: b.per_second,
        switchyard: services[i]!.per_second,
        ...(befores.length ? { before: befores[i]!.per_second } : {}),
        ...(splits.length ? { split: splits[i]!.per_second } : {}),
        ...(compileds.length ? { compiled: compileds[i]!.per_second } : {}),
        ...(withLedgerless ? { ledgerless: storeOnly[i]!.per_second } : {}),
      })),
      ...(withLedgerless ? { ledgerless: { ...median(storeOnly), ratio: ratio(median(storeOnly)) } } : {}),
      ...(befores.length ? { before: beforePhase(median(befores), switchyard, ratio) } : {}),
      ...(compileds.length ? { compiled: { ...median(compileds), ratio: ratio(median(compileds)), ratio_to_source: Math.round((median(compileds).per_second / switchyard.per_second) * 1000) / 1000 } } : {}),
      ...(splits.length ? { split: { ...median(splits), ratio: ratio(median(splits)), ratio_to_all: Math.round((median(splits).per_second / switchyard.per_second) * 1000) / 1000 } } : {}),
    };
  }
  const report = {
    benchmark: 'ingest',
    engine: databaseUrl.startsWith('postgres') ? 'postgresql' : 'sqlite',
    seconds_per_measurement: SECONDS,
    rounds: ROUNDS,
    phases,
    targets: { '1KiB.ratio': '>= 0.7 (each delivery committed before its 2xx)' },
    ...(beforeRef ? { before_ref: beforeRef } : {}),
    notes: {
      ledgerless: 'SQLite only: the no-op app storing each delivery as the service does, without the ledger (support/ledgerless-main.ts)',
      compiled: 'with BENCH_COMPILED=1: the compiled service (dist, plain node) on a database of its own; ratio_to_source is its deliveries/s over the service from source (tsx)',
      split: 'with BENCH_SPLIT_DATABASE_URL: an api process (its CPU is the server CPU) plus a worker on that database; ratio_to_all is its deliveries/s over the one all process\'s',
      before: 'with BENCH_BEFORE_REF: that version in the same rounds; ratio_to_before is this version\'s deliveries/s over its, cpu_ms_per_request_to_before the server CPU per request over its',
    },
    cpus: availableParallelism(),
    node: process.version,
    at: new Date().toISOString(),
  };
  writeReport('ingest', report);
} finally {
  await ledgerless?.child.stop();
  await compiled?.child.stop();
  await split?.worker.stop();
  await split?.api.child.stop();
  await before?.child.stop();
  await service.child.stop();
  await noop.child.stop();
  rmSync(dir, { recursive: true, force: true });
}
