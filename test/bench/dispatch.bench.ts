// npm run bench:dispatch — POST /api/dispatch for the EDGE capability against calling the same
// simulator directly with the MCP SDK client, in one run. Both paths use the same concurrency and
// duration; the service and the simulator each run in their own process.
// The machine's speed drifts during a run, so the throughput phases alternate for BENCH_ROUNDS
// rounds and the ratio is that of the median rounds (as bench:ingest does).
// BENCH_COMPILED=1 also measures the compiled service (dist, plain node; `npm run build` first)
// against the service from source (tsx), alternating (report dispatch-compiled); with
// BENCH_SPLIT_DATABASE_URL (another PostgreSQL database, DATABASE_URL on PostgreSQL too), an api
// process with a worker beside it against the one `all` process (report dispatch-split).
// Env: BENCH_SECONDS per phase (10), BENCH_ROUNDS (3), BENCH_CONCURRENCY (16), DATABASE_URL (default:
// a temp SQLite file), BENCH_COMPILED_DATABASE_URL (default a temp SQLite file), BENCH_NODE_ARGS
// (extra flags for the child processes, e.g. --cpu-prof).
import { API_KEY, KEY, loop, nextWorkerId, runEdgeBench } from './support/edge-bench.js';

await runEdgeBench(async (bench) => {
  // Through Switchyard: HTTP (keep-alive) → validate → MCP → ledger append, committed before the answer.
  const through = (base: string) => {
    const url = `${base}/api/dispatch`;
    return loop(async () => {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-sheets-key': API_KEY }, body: JSON.stringify({ key: KEY, body: JSON.stringify({ workerId: nextWorkerId() }) }) });
      await res.arrayBuffer();
      return res.status === 200;
    });
  };
  await bench.compare('dispatch', through(bench.url), { 'throughput.ratio': '>= 0.5', 'latency.p50_overhead_ms': '<= 3' });
  // BENCH_BEFORE=<another checkout>: this checkout's dispatch against that one's, in the same run.
  if (bench.beforeUrl) await bench.compareBefore('dispatch', through(bench.beforeUrl), through(bench.url));
  if (bench.compiledUrl) await bench.compareVariant('dispatch', 'compiled', through(bench.url), through(bench.compiledUrl));
  if (bench.splitUrl) await bench.compareVariant('dispatch', 'split', through(bench.url), through(bench.splitUrl));
});
