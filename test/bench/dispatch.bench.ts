// npm run bench:dispatch — POST /api/dispatch for the EDGE capability against calling the same
// simulator directly with the MCP SDK client, in one run. Both paths use the same concurrency and
// duration; the service and the simulator each run in their own process.
// The machine's speed drifts during a run, so the throughput phases alternate for BENCH_ROUNDS
// rounds and the ratio is that of the median rounds (as bench:ingest does).
// Env: BENCH_SECONDS per phase (10), BENCH_ROUNDS (3), BENCH_CONCURRENCY (16), DATABASE_URL (default:
// a temp SQLite file), BENCH_NODE_ARGS (extra flags for the child processes, e.g. --cpu-prof).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { setMaxListeners } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { writeReport } from './support/report.js';
import { spawnSimulator } from './support/simulator.js';
import { closedLoop, type Figures } from './support/stats.js';
import { measureOverhead } from './support/overhead.js';
import { listeningUrl, spawnTs } from '../support/processes.js';

// The SDK's default transport (used here as the baseline, unmodified) lets the platform fetch hold
// an abort listener per request on one long-lived signal until GC; at load that trips Node's leak
// warning in this client process. It says nothing about the service, so it is not printed.
setMaxListeners(100_000);
process.removeAllListeners('warning');
process.on('warning', (w) => {
  if (w.name !== 'MaxListenersExceededWarning') console.warn(w);
});

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const CONCURRENCY = Number(process.env['BENCH_CONCURRENCY'] ?? 16);
const KEY = 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER';
const API_KEY = 'sy_bench_key_0123456789abcdefghijklmnopqrstuvwxyz';
const hex32 = (i: number): string => (i.toString(16) + '0'.repeat(32)).slice(0, 32);

const dir = mkdtempSync(join(tmpdir(), 'switchyard-bench-'));
const sim = await spawnSimulator('edge');
const configFile = join(dir, 'config.json');
writeFileSync(configFile, JSON.stringify({ plugins: { edge: { upstream: { url: sim.value, transport: 'sse' } } } }));
const databaseUrl = process.env['DATABASE_URL'] ?? `sqlite:${join(dir, 'bench.db')}`;
const service = await spawnTs('adapters/app/src/main.ts', [], { PORT: '0', DATABASE_URL: databaseUrl, SWITCHYARD_API_KEY: API_KEY, SWITCHYARD_CONFIG: configFile, LOG_LEVEL: 'info' }, listeningUrl);

try {
  // Direct: the SDK client over SSE to the simulator, one connection, as our adapter holds it.
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new SSEClientTransport(new URL(sim.value)));
  let i = 0;
  const direct = (concurrency: number): Promise<Figures> =>
    closedLoop(
      async () => {
        const r = await client.callTool({ name: 'workers_builds_set_active_worker', arguments: { workerId: hex32(i++) } });
        return r.isError !== true;
      },
      { concurrency, seconds: SECONDS, warmupSeconds: 1 },
    );

  // Through Switchyard: HTTP (keep-alive) → validate → MCP → ledger append, committed before the answer.
  const url = `${service.value}/api/dispatch`;
  const dispatch = (concurrency: number): Promise<Figures> =>
    closedLoop(
      async () => {
        const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-sheets-key': API_KEY }, body: JSON.stringify({ key: KEY, body: JSON.stringify({ workerId: hex32(i++) }) }) });
        await res.arrayBuffer();
        return res.status === 200;
      },
      { concurrency, seconds: SECONDS, warmupSeconds: 1 },
    );

  // Latency (what one call costs, unloaded) at concurrency 1; throughput under load at CONCURRENCY.
  // CPU per request of each process (warm-up included in the phase, so slightly high for all).
  const pids = { client: undefined, service: service.child.process.pid, upstream: sim.child.process.pid };
  const report = await measureOverhead('dispatch', 'dispatch', direct, dispatch, {
    concurrency: CONCURRENCY,
    rounds: ROUNDS,
    seconds: SECONDS,
    engine: databaseUrl.startsWith('postgres') ? 'postgresql' : 'sqlite',
    pids,
    targets: { 'throughput.ratio': '>= 0.5', 'latency.p50_overhead_ms': '<= 3' },
  });
  await client.close();
  writeReport('dispatch', report);
} finally {
  await service.child.stop();
  await sim.child.stop();
  rmSync(dir, { recursive: true, force: true });
}
