// npm run bench:mcp — tools/call through Switchyard's MCP face (/mcp, the SDK client over streamable
// HTTP) for the EDGE capability, against calling the same simulator directly with the SDK client, in
// one run. Both paths use the same concurrency and duration; the service and the simulator each run
// in their own process. Every call through /mcp is a full run: validate, MCP, ledger append.
// The machine's speed drifts during a run, so the throughput phases alternate for BENCH_ROUNDS
// rounds and the ratio is that of the median rounds (as bench:ingest does).
// Env: BENCH_SECONDS per phase (10), BENCH_ROUNDS (3), BENCH_CONCURRENCY (16), DATABASE_URL (default:
// a temp SQLite file), BENCH_NODE_ARGS (extra flags for the child processes, e.g. --cpu-prof).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { setMaxListeners } from 'node:events';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { writeReport } from './support/report.js';
import { spawnSimulator } from './support/simulator.js';
import { closedLoop, type Figures } from './support/stats.js';
import { withCpu } from './support/cpu.js';
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

  // Through Switchyard: the same SDK client, at /mcp with the API key; the tool is the capability key.
  const gateway = new Client({ name: 'bench', version: '1' });
  await gateway.connect(new StreamableHTTPClientTransport(new URL(`${service.value}/mcp`), { requestInit: { headers: { 'x-sheets-key': API_KEY } } }));
  const mcp = (concurrency: number): Promise<Figures> =>
    closedLoop(
      async () => {
        const r = await gateway.callTool({ name: KEY, arguments: { workerId: hex32(i++) } });
        return r.isError !== true;
      },
      { concurrency, seconds: SECONDS, warmupSeconds: 1 },
    );

  // Latency (what one call costs, unloaded) at concurrency 1; throughput under load at CONCURRENCY.
  // CPU per request of each process (warm-up included in the phase, so slightly high for all).
  const pids = { client: undefined, service: service.child.process.pid, upstream: sim.child.process.pid };
  const latency = { direct: await direct(1), mcp: await mcp(1) };
  const measured = (path: typeof direct) => withCpu(pids, () => path(CONCURRENCY));
  const rounds: Array<Record<'direct' | 'mcp', Awaited<ReturnType<typeof measured>>>> = [];
  for (let r = 0; r < ROUNDS; r++) rounds.push({ direct: await measured(direct), mcp: await measured(mcp) });
  /** The round with the median throughput of one path (its latencies and CPU come with it). */
  const median = (path: 'direct' | 'mcp') => rounds.map((r) => r[path]).sort((a, b) => a.per_second - b.per_second)[Math.floor(rounds.length / 2)]!;
  const load = { direct: median('direct'), mcp: median('mcp') };
  await client.close();
  await gateway.close();

  const round = (n: number): number => Math.round(n * 1000) / 1000;
  const report = {
    benchmark: 'mcp',
    engine: databaseUrl.startsWith('postgres') ? 'postgresql' : 'sqlite',
    seconds_per_phase: SECONDS,
    latency: {
      concurrency: 1,
      ...latency,
      p50_overhead_ms: round(latency.mcp.p50_ms - latency.direct.p50_ms),
      p99_overhead_ms: round(latency.mcp.p99_ms - latency.direct.p99_ms),
    },
    throughput: {
      concurrency: CONCURRENCY,
      ...load,
      ratio: round(load.mcp.per_second / load.direct.per_second),
      rounds: rounds.map((r) => ({ direct: round(r.direct.per_second), mcp: round(r.mcp.per_second), ratio: round(r.mcp.per_second / r.direct.per_second) })),
    },
    targets: { 'throughput.ratio': '>= 0.5', 'latency.p50_overhead_ms': '<= 2' },
    cpus: availableParallelism(),
    node: process.version,
    at: new Date().toISOString(),
  };
  writeReport('mcp', report);
} finally {
  await service.child.stop();
  await sim.child.stop();
  rmSync(dir, { recursive: true, force: true });
}
