// npm run bench:ledger — the verifiable ledger's costs, each against a baseline in the same run:
// 1. appends: entries/s appended and integrated (queued by trigger, leaf + subtrees + signed
//    checkpoint per batch) against plain inserts of the same rows into a table with no log. Two
//    ways: appending while the service's own integrator runs (startIntegrator, leaves built in its
//    worker thread), timed until the last entry is in the tree; and the two phases one after the
//    other, to show what each costs;
// 2. a log of LEDGER_SIZE (10^6) entries, seeded with a bulk loader and integrated;
// 3. confirm p50/p99 over HTTP on that log, against GET /healthz on the same service;
// 4. proof size, and restart time (spawn to listening) at that size against an empty database.
// Env: LEDGER_SIZE (1000000), APPEND_ROWS (100000), CONFIRMS (2000), DATABASE_URL (temp SQLite).
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { computeYield, newInvocationId, type InvocationRecord } from '@switchyard/core';
import { KnexLedger, insertValues, openDatabase, startIntegrator } from '@switchyard/storage-knex';
import { writeReport } from './support/report.js';
import { startServiceProcess } from '../support/processes.js';
import { figures } from './support/stats.js';

const LEDGER_SIZE = Number(process.env['LEDGER_SIZE'] ?? 1_000_000);
const APPEND_ROWS = Number(process.env['APPEND_ROWS'] ?? 100_000);
const CONFIRMS = Number(process.env['CONFIRMS'] ?? 2000);
const API_KEY = 'sy_bench_key_0123456789abcdefghijklmnopqrstuvwxyz';
const ORIGIN = 'switchyard.local/ledger';
const dir = mkdtempSync(join(tmpdir(), 'switchyard-ledger-'));
const databaseUrl = process.env['DATABASE_URL'] ?? `sqlite:${join(dir, 'ledger.db')}`;
const emptyUrl = process.env['DATABASE_URL'] ? null : `sqlite:${join(dir, 'empty.db')}`;

const record = (): InvocationRecord => ({
  id: newInvocationId(), key: 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER', path: 'OIP > EDGE > EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER',
  actor: 'owner', fingerprint: null, body: '{"workerId":"0123456789abcdef0123456789abcdef"}', args: { workerId: '0123456789abcdef0123456789abcdef' },
  status: 'ok', ok: true, ran: true, error: null, result: { active_worker_id: '0123456789abcdef0123456789abcdef', previous_worker_id: null },
  yield: computeYield({ bodyText: '{}', resultText: '{}', ok: true, ran: true, cost: { perRunMicros: 100 }, args: {} }),
  repairs: null, replays: null, source: 'api', created_at: new Date().toISOString(), duration_ms: 2, request_id: null,
});
const row = (r: InvocationRecord) => ({ id: r.id, key: r.key, actor: r.actor, fingerprint: r.fingerprint, status: r.status, ok: r.ok, ran: r.ran, repairs: r.repairs, replays: r.replays, source: r.source, created_at: r.created_at, duration_ms: r.duration_ms, record: JSON.stringify(r) });

const database = await openDatabase(databaseUrl);
const knex = database.knex;
// Opened as the service opens it: reads off the writer's connection, leaves built in the worker.
const ledger = await KnexLedger.open(knex, { origin: ORIGIN }, undefined, { readKnex: database.readKnex, leafReader: database.leafReader });
// On SQLite the service runs its batch INSERTs as statements prepared once per size; so do the appends here.
const statements = database.dialect.statements(knex);

/**
 * Bulk-inserts `n` rows into `table`, 500 per statement (one VALUES list, prepared once, as the
 * service's own batched writes are), 10 statements per transaction.
 */
async function bulkInsert(table: string, n: number): Promise<void> {
  for (let done = 0; done < n; ) {
    await knex.transaction(async (trx) => {
      for (let s = 0; s < 10 && done < n; s++) {
        const rows = Array.from({ length: Math.min(500, n - done) }, () => row(record()));
        await insertValues(trx, table, rows, statements);
        done += rows.length;
      }
    });
  }
}
const queued = async () => Number(((await knex('ledger_queue').count({ n: '*' }).first()) as { n: number | string }).n);
async function integrateAll(): Promise<void> {
  while ((await ledger.integrate(10_000)).integrated > 0);
}

// 1. Appends with integration against plain inserts.
await knex.schema.createTable('bench_plain', (t) => {
  t.bigIncrements('seq').primary();
  t.string('id', 40).notNullable().unique();
  for (const c of ['key', 'actor', 'status', 'source', 'created_at']) t.string(c, 200);
  for (const c of ['fingerprint', 'repairs', 'replays']) t.string(c, 200).nullable();
  t.boolean('ok');
  t.boolean('ran');
  t.integer('duration_ms');
  t.text('record');
  t.index(['key', 'seq']);
});
let t0 = performance.now();
await bulkInsert('bench_plain', APPEND_ROWS);
const plainSeconds = (performance.now() - t0) / 1000;
// Appending while the service's integrator runs, until the last entry is in the tree.
t0 = performance.now();
const integrator = startIntegrator(ledger, 200, (e) => console.error('integration failed', e));
await bulkInsert('invocations', APPEND_ROWS);
const appendedAt = (performance.now() - t0) / 1000;
while ((await queued()) > 0) await new Promise((r) => setTimeout(r, 20));
const withIntegratorSeconds = (performance.now() - t0) / 1000;
await integrator.stop();
// The same again with the phases one after the other.
t0 = performance.now();
await bulkInsert('invocations', APPEND_ROWS);
const appendOnlySeconds = (performance.now() - t0) / 1000;
t0 = performance.now();
await integrateAll();
const integrateSeconds = (performance.now() - t0) / 1000;
const appends = {
  rows: APPEND_ROWS,
  plain_inserts_per_second: Math.round(APPEND_ROWS / plainSeconds),
  appended_and_integrated_per_second: Math.round(APPEND_ROWS / withIntegratorSeconds),
  appends_done_seconds: Math.round(appendedAt * 100) / 100,
  integrated_seconds: Math.round(withIntegratorSeconds * 100) / 100,
  one_after_the_other: {
    ledger_inserts_per_second: Math.round(APPEND_ROWS / appendOnlySeconds),
    integrated_per_second: Math.round(APPEND_ROWS / integrateSeconds),
    appended_then_integrated_per_second: Math.round(APPEND_ROWS / (appendOnlySeconds + integrateSeconds)),
  },
};
const appendRatio = Math.round((appends.appended_and_integrated_per_second / appends.plain_inserts_per_second) * 1000) / 1000;
await knex.schema.dropTable('bench_plain');

// 2. Seed up to LEDGER_SIZE.
t0 = performance.now();
await bulkInsert('invocations', Math.max(0, LEDGER_SIZE - 2 * APPEND_ROWS));
await integrateAll();
const seedSeconds = (performance.now() - t0) / 1000;
const sample = (await knex('ledger_leaves').select('entry_id').orderByRaw('random()').limit(CONFIRMS)) as Array<{ entry_id: string }>;
const size = (await ledger.latestCheckpoint())!.size;
await database.close();

// 3 and 4. The service on the seeded log: restart time, confirm latency, proof size.
async function timedStart(url: string) {
  const start = performance.now();
  const service = await startServiceProcess({ DATABASE_URL: url, SWITCHYARD_API_KEY: API_KEY });
  return { service, seconds: Math.round(performance.now() - start) / 1000 };
}
let emptyStart: number | null = null;
if (emptyUrl) {
  const empty = await timedStart(emptyUrl);
  emptyStart = empty.seconds;
  await empty.service.child.stop();
}
const { service, seconds: seededStart } = await timedStart(databaseUrl);
try {
  const latencies = async (path: (i: number) => string) => {
    const samples: number[] = [];
    let errors = 0;
    let bytes = 0;
    const begin = performance.now();
    for (let i = 0; i < sample.length; i++) {
      const s = performance.now();
      const res = await fetch(`${service.url}${path(i)}`);
      const text = await res.text();
      samples.push(performance.now() - s);
      if (!res.ok) errors++;
      bytes = text.length;
      if (i === 0 && path(0).includes('confirm')) proof = JSON.parse(text) as { inclusion_proof: string[]; tlog_proof: string };
    }
    return { ...figures(samples, errors, (performance.now() - begin) / 1000), last_bytes: bytes };
  };
  let proof: { inclusion_proof: string[]; tlog_proof: string } | undefined;
  const health = await latencies(() => '/healthz');
  const confirm = await latencies((i) => `/api/dispatch?confirm=${sample[i]!.entry_id}`);
  const report = {
    benchmark: 'ledger',
    engine: databaseUrl.startsWith('postgres') ? 'postgresql' : 'sqlite',
    appends: { ...appends, ratio_to_plain_inserts: appendRatio },
    log: { size, seed_seconds: Math.round(seedSeconds * 10) / 10 },
    confirm: { baseline_healthz: health, confirm, overhead_p50_ms: Math.round((confirm.p50_ms - health.p50_ms) * 1000) / 1000 },
    proof: { hashes: proof!.inclusion_proof.length, inclusion_proof_bytes: proof!.inclusion_proof.length * 32, tlog_proof_bytes: Buffer.byteLength(proof!.tlog_proof) },
    restart: { seeded_seconds: seededStart, empty_database_seconds: emptyStart },
    targets: { 'appends.appended_and_integrated_per_second': '>= 20000 (SQLite)', 'confirm.p99_ms': '<= 10', 'restart.seeded_seconds': '<= 2' },
    cpus: availableParallelism(),
    node: process.version,
    at: new Date().toISOString(),
  };
  writeReport('ledger', report);
} finally {
  await service.child.stop();
  rmSync(dir, { recursive: true, force: true });
}
