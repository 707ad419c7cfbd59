// What bench:dispatch and bench:mcp share: the EDGE simulator and the service in processes of their
// own, the direct path (the SDK client over SSE to the simulator, one connection, as our adapter
// holds it), the settings from the environment, and the overhead report that ends both.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { setMaxListeners } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { spawnSimulator } from './simulator.js';
import { closedLoop, type Figures } from './stats.js';
import { measureOverhead, type Path } from './overhead.js';
import { writeReport } from './report.js';
import { listeningUrl, spawnTs, startCompiledServiceProcess, startServiceProcess, startWorkerProcess, type Child } from '../../support/processes.js';

// The SDK's default transport (used here as the baseline, unmodified) lets the platform fetch hold
// an abort listener per request on one long-lived signal until GC; at load that trips Node's leak
// warning in this client process. It says nothing about the service, so it is not printed.
setMaxListeners(100_000);
process.removeAllListeners('warning');
process.on('warning', (w) => {
  if (w.name !== 'MaxListenersExceededWarning') console.warn(w);
});

export const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const CONCURRENCY = Number(process.env['BENCH_CONCURRENCY'] ?? 16);
export const KEY = 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER';
export const API_KEY = 'sy_bench_key_0123456789abcdefghijklmnopqrstuvwxyz';

let calls = 0;
/** A fresh 32-hex-digit worker id for each call, so no two runs are the same. */
export const nextWorkerId = (): string => ((calls++).toString(16) + '0'.repeat(32)).slice(0, 32);

/** A closed loop of `once` at the given concurrency for one phase. */
export const loop = (once: () => Promise<boolean>) => (concurrency: number): Promise<Figures> => closedLoop(once, { concurrency, seconds: SECONDS, warmupSeconds: 1 });

export interface EdgeBench {
  /** The service's base URL. */
  url: string;
  /** With BENCH_BEFORE (another checkout of the project): that checkout's service, on the same simulator. */
  beforeUrl?: string;
  /** Measures `after` (this checkout) against `before` (BENCH_BEFORE's) in one run: report <name>-before-after, ratio after/before. */
  compareBefore(name: string, before: Path, after: Path): Promise<void>;
  /** With BENCH_COMPILED=1: the compiled service (dist, plain node, as `npm start`), on a database of its own. */
  compiledUrl?: string;
  /** With BENCH_SPLIT_DATABASE_URL (PostgreSQL): an api process on that database, with a worker beside it. */
  splitUrl?: string;
  /** Measures `variant` (compiledUrl's or splitUrl's) against the service from source in one run: report <name>-<label>, ratio variant/source. */
  compareVariant(name: string, label: 'compiled' | 'split', source: Path, variant: Path): Promise<void>;
  /** Measures `through` against the direct path and writes the report (bench-results/<name>-<engine>.json). */
  compare(name: string, through: Path, targets: Record<string, string>): Promise<void>;
}

/** Starts the simulator and the service, runs `body`, and stops both whatever happens. */
export async function runEdgeBench(body: (bench: EdgeBench) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-bench-'));
  const sim = await spawnSimulator('edge');
  const configFile = join(dir, 'config.json');
  writeFileSync(configFile, JSON.stringify({ plugins: { edge: { upstream: { url: sim.value, transport: 'sse' } } } }));
  const databaseUrl = process.env['DATABASE_URL'] ?? `sqlite:${join(dir, 'bench.db')}`;
  const service = await spawnTs('adapters/app/src/main.ts', [], { PORT: '0', DATABASE_URL: databaseUrl, SWITCHYARD_API_KEY: API_KEY, SWITCHYARD_CONFIG: configFile, LOG_LEVEL: 'info' }, listeningUrl);
  // BENCH_BEFORE: the same service from another checkout (say, main before a change), with its own
  // database (BENCH_BEFORE_DATABASE_URL, default a temp SQLite file), so a change is measured against
  // what it changes in the same run, on the same machine load.
  const beforeRoot = process.env['BENCH_BEFORE'];
  const beforeDatabaseUrl = process.env['BENCH_BEFORE_DATABASE_URL'] ?? `sqlite:${join(dir, 'before.db')}`;
  const before = beforeRoot
    ? await spawnTs('adapters/app/src/main.ts', [], { PORT: '0', DATABASE_URL: beforeDatabaseUrl, SWITCHYARD_API_KEY: API_KEY, SWITCHYARD_CONFIG: configFile, LOG_LEVEL: 'info' }, listeningUrl, 30_000, [], beforeRoot)
    : undefined;
  // BENCH_COMPILED=1: the compiled service beside it (BENCH_COMPILED_DATABASE_URL, default a temp SQLite file).
  const compiled = process.env['BENCH_COMPILED'] === '1'
    ? await startCompiledServiceProcess({ DATABASE_URL: process.env['BENCH_COMPILED_DATABASE_URL'] ?? `sqlite:${join(dir, 'compiled.db')}`, SWITCHYARD_API_KEY: API_KEY, SWITCHYARD_CONFIG: configFile })
    : undefined;
  // BENCH_SPLIT_DATABASE_URL: roles, an api process answering while a worker integrates the ledger.
  const splitDatabaseUrl = process.env['BENCH_SPLIT_DATABASE_URL'];
  const split: { api: { child: Child; url: string }; worker: Child } | undefined = splitDatabaseUrl
    ? await (async () => {
        const env = { DATABASE_URL: splitDatabaseUrl, SWITCHYARD_API_KEY: API_KEY, SWITCHYARD_CONFIG: configFile };
        return { api: await startServiceProcess({ ...env, SWITCHYARD_ROLE: 'api' }), worker: await startWorkerProcess(env) };
      })()
    : undefined;
  const client = new Client({ name: 'bench', version: '1' });
  try {
    await client.connect(new SSEClientTransport(new URL(sim.value)));
    const direct = loop(async () => {
      const r = await client.callTool({ name: 'workers_builds_set_active_worker', arguments: { workerId: nextWorkerId() } });
      return r.isError !== true;
    });
    await body({
      url: service.value,
      ...(before ? { beforeUrl: before.value } : {}),
      ...(compiled ? { compiledUrl: compiled.url } : {}),
      ...(split ? { splitUrl: split.api.url } : {}),
      async compareVariant(name, label, sourcePath, variantPath) {
        // measureOverhead's baseline ("direct" in the report) is the service from source (an `all` process).
        const variant = label === 'compiled' ? compiled!.child : split!.api.child;
        const report = await measureOverhead(`${name}-${label}`, label, sourcePath, variantPath, {
          concurrency: CONCURRENCY,
          rounds: ROUNDS,
          seconds: SECONDS,
          engine: databaseUrl.startsWith('postgres') ? 'postgresql' : 'sqlite',
          pids: { client: undefined, source: service.child.process.pid, [label]: variant.process.pid, upstream: sim.child.process.pid, ...(label === 'split' ? { worker: split!.worker.process.pid } : {}) },
          targets: {},
        });
        writeReport(`${name}-${label}`, report);
      },
      async compareBefore(name, beforePath, afterPath) {
        // measureOverhead's baseline ("direct" in the report) is the checkout before; "after" is this one.
        const report = await measureOverhead(`${name}-before-after`, 'after', beforePath, afterPath, {
          concurrency: CONCURRENCY,
          rounds: ROUNDS,
          seconds: SECONDS,
          engine: databaseUrl.startsWith('postgres') ? 'postgresql' : 'sqlite',
          pids: { client: undefined, service: service.child.process.pid, upstream: before!.child.process.pid },
          targets: { 'throughput.ratio': '>= 0.9' },
        });
        writeReport(`${name}-before-after`, report);
      },
      async compare(name, through, targets) {
        // Latency (what one call costs, unloaded) at concurrency 1; throughput under load at CONCURRENCY.
        // CPU per request of each process (warm-up included in the phase, so slightly high for all).
        const report = await measureOverhead(name, name, direct, through, {
          concurrency: CONCURRENCY,
          rounds: ROUNDS,
          seconds: SECONDS,
          engine: databaseUrl.startsWith('postgres') ? 'postgresql' : 'sqlite',
          pids: { client: undefined, service: service.child.process.pid, upstream: sim.child.process.pid },
          targets,
        });
        writeReport(name, report);
      },
    });
  } finally {
    await client.close();
    await service.child.stop();
    await before?.child.stop();
    await compiled?.child.stop();
    await split?.worker.stop();
    await split?.api.child.stop();
    await sim.child.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
