// npm run bench:mcp — tools/call through Switchyard's MCP face (/mcp, the SDK client over streamable
// HTTP) for the EDGE capability, against calling the same simulator directly with the SDK client, in
// one run. Both paths use the same concurrency and duration; the service and the simulator each run
// in their own process. Every call through /mcp is a full run: validate, MCP, ledger append.
// The machine's speed drifts during a run, so the throughput phases alternate for BENCH_ROUNDS
// rounds and the ratio is that of the median rounds (as bench:ingest does).
// Env: BENCH_SECONDS per phase (10), BENCH_ROUNDS (3), BENCH_CONCURRENCY (16), DATABASE_URL (default:
// a temp SQLite file), BENCH_NODE_ARGS (extra flags for the child processes, e.g. --cpu-prof).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { API_KEY, KEY, loop, nextWorkerId, runEdgeBench } from './support/edge-bench.js';

await runEdgeBench(async (bench) => {
  // Through Switchyard: the same SDK client, at /mcp with the API key; the tool is the capability key.
  const gateway = new Client({ name: 'bench', version: '1' });
  await gateway.connect(new StreamableHTTPClientTransport(new URL(`${bench.url}/mcp`), { requestInit: { headers: { 'x-sheets-key': API_KEY } } }));
  try {
    const mcp = loop(async () => {
      const r = await gateway.callTool({ name: KEY, arguments: { workerId: nextWorkerId() } });
      return r.isError !== true;
    });
    await bench.compare('mcp', mcp, { 'throughput.ratio': '>= 0.5', 'latency.p50_overhead_ms': '<= 2' });
  } finally {
    await gateway.close();
  }
});
