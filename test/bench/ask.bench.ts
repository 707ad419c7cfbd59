// npm run bench:ask — the ask query's latency, with the built-in registry and with 10,000 synthetic
// capabilities (target: p99 ≤ 5 ms at 10,000), each against reading one contract
// (GET /api/dispatch?key=…, same route and credential, no search) in the same run; plus the index
// alone (registry.ask in-process, no HTTP) and the time to build the index. Then an MCP tools/call
// round trip through Switchyard's /mcp against calling the same upstream directly with the SDK
// client (service and simulator in their own processes), latency and throughput, as ratios.
// Env: ASK_REQUESTS per phase (2000), SYNTHETIC (10000), MCP_SECONDS per phase (8), MCP_CONCURRENCY (8).
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createLogger, createSwitchyard, loadConfig } from '@switchyard/app';
import type { CapabilityDefinition } from '@switchyard/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { writeFileSync } from 'node:fs';
import { writeReport } from './support/report.js';
import { spawnSimulator } from './support/simulator.js';
import { closedLoop, figures, type Figures } from './support/stats.js';
import { withCpu } from './support/cpu.js';
import { listeningUrl, spawnTs } from '../support/processes.js';

const REQUESTS = Number(process.env['ASK_REQUESTS'] ?? 2000);
const MCP_SECONDS = Number(process.env['MCP_SECONDS'] ?? 8);
const MCP_CONCURRENCY = Number(process.env['MCP_CONCURRENCY'] ?? 8);
const API_KEY = 'sy_bench_key_0123456789abcdefghijklmnopqrstuvwxyz';
const EDGE = 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER';
const SYNTHETIC = Number(process.env['SYNTHETIC'] ?? 10_000);

// Questions an agent asks: plain language, exact keys, and key-shaped misses (did_you_mean).
const QUESTIONS = [
  'rename a chat group',
  'check whether phone numbers are valid',
  'make another worker the active one',
  'which payment API operation lists refunds',
  'download a web page',
  'create an invoice for a customer',
  'archive old support tickets',
  'MESSAGING_UPDATE_GROUP',
  'EDGE_SET_WORKER',
  'WEB_FECTH',
];

const VERBS = ['create', 'update', 'delete', 'list', 'get', 'search', 'rename', 'archive', 'send', 'sync', 'export', 'import', 'approve', 'refund', 'cancel', 'schedule', 'assign', 'close', 'merge', 'tag'];
const NOUNS = ['invoice', 'customer', 'group', 'worker', 'message', 'order', 'shipment', 'ticket', 'project', 'payment', 'subscription', 'document', 'contact', 'deployment', 'alert', 'report', 'calendar', 'file', 'repository', 'user'];
const SYSTEMS = ['CRM', 'BILLING', 'HELPDESK', 'STORAGE', 'DEPLOY', 'CHAT', 'MAIL', 'SHOP', 'HR', 'ANALYTICS'];

/** Synthetic capabilities with realistic, overlapping vocabulary (the hard case for ranking). */
function synthetic(n: number): CapabilityDefinition[] {
  return Array.from({ length: n }, (_, i) => {
    const verb = VERBS[i % VERBS.length]!;
    const noun = NOUNS[Math.floor(i / VERBS.length) % NOUNS.length]!;
    const system = `${SYSTEMS[i % SYSTEMS.length]}${Math.floor(i / 400)}`;
    return {
      key: `${system}_${verb.toUpperCase()}_${noun.toUpperCase()}_${i}`,
      system,
      description: `${verb[0]!.toUpperCase()}${verb.slice(1)}s a ${noun} in ${system.toLowerCase()} (operation ${i}); returns the ${noun} record`,
      type: 'fn',
      runner: 'bench',
      inputs: { type: 'object', properties: { [`${noun}Id`]: { type: 'string', description: `id of the ${noun}` }, note: { type: 'string' } }, additionalProperties: false },
      auth: 'required',
      risk: 'low',
      approval: false,
      example: {},
    };
  });
}

async function timeRequests(url: (i: number) => string): Promise<Figures> {
  for (let i = 0; i < 200; i++) await (await fetch(url(i))).arrayBuffer(); // warm-up
  const samples: number[] = [];
  let errors = 0;
  const start = performance.now();
  for (let i = 0; i < REQUESTS; i++) {
    const t = performance.now();
    const res = await fetch(url(i));
    await res.arrayBuffer();
    if (res.ok) samples.push(performance.now() - t);
    else errors++;
  }
  return figures(samples, errors, (performance.now() - start) / 1000);
}

function timeIndex(ask: (q: string) => unknown): Figures {
  for (let i = 0; i < 200; i++) ask(QUESTIONS[i % QUESTIONS.length]!);
  const samples: number[] = [];
  const start = performance.now();
  for (let i = 0; i < REQUESTS; i++) {
    const t = performance.now();
    ask(QUESTIONS[i % QUESTIONS.length]!);
    samples.push(performance.now() - t);
  }
  return figures(samples, 0, (performance.now() - start) / 1000);
}

const dir = mkdtempSync(join(tmpdir(), 'switchyard-ask-'));
const config = loadConfig({ env: {}, overrides: { database: { url: `sqlite:${join(dir, 'ask.db')}` }, auth: { apiKey: 'sy_bench_key_0123456789abcdefghijklmnopqrstuvwxyz' }, log: { level: 'silent' }, server: { port: 0 } } });
const switchyard = await createSwitchyard(config, { logger: createLogger('silent') });
const { url } = await switchyard.listen();

async function phase(label: string) {
  const t = performance.now();
  switchyard.registry.ask('warm the index'); // the index is built on first use after a change
  const indexBuildMs = Math.round((performance.now() - t) * 100) / 100;
  const contract = await timeRequests(() => `${url}/api/dispatch?key=WEB_FETCH`);
  const ask = await timeRequests((i) => `${url}/api/dispatch?ask=${encodeURIComponent(QUESTIONS[i % QUESTIONS.length]!)}`);
  const index = timeIndex((q) => switchyard.registry.ask(q));
  return {
    label,
    capabilities: switchyard.registry.size,
    index_build_ms: indexBuildMs,
    baseline_contract_read: contract,
    ask_over_http: ask,
    ask_in_process: index,
    ask_overhead_p50_ms: Math.round((ask.p50_ms - contract.p50_ms) * 1000) / 1000,
    ask_overhead_p99_ms: Math.round((ask.p99_ms - contract.p99_ms) * 1000) / 1000,
  };
}

/** tools/call of the EDGE tool: through /mcp (the service proxies it to the simulator) and direct. */
async function mcpRoundTrip() {
  const sim = await spawnSimulator('edge');
  const configFile = join(dir, 'mcp-config.json');
  writeFileSync(configFile, JSON.stringify({ plugins: { edge: { upstream: { url: sim.value, transport: 'sse' } } } }));
  const service = await spawnTs('adapters/app/src/main.ts', [], { PORT: '0', DATABASE_URL: `sqlite:${join(dir, 'mcp.db')}`, SWITCHYARD_API_KEY: API_KEY, SWITCHYARD_CONFIG: configFile, LOG_LEVEL: 'info' }, listeningUrl);
  try {
    const direct = new Client({ name: 'bench-direct', version: '1' });
    await direct.connect(new SSEClientTransport(new URL(sim.value)));
    const viaMcp = new Client({ name: 'bench-mcp', version: '1' });
    await viaMcp.connect(new StreamableHTTPClientTransport(new URL(`${service.value}/mcp`), { requestInit: { headers: { 'x-sheets-key': API_KEY } } }));
    let i = 0;
    const worker = () => ({ workerId: ((i++).toString(16) + '0'.repeat(32)).slice(0, 32) });
    const directCall = async () => (await direct.callTool({ name: 'workers_builds_set_active_worker', arguments: worker() })).isError !== true;
    const mcpCall = async () => (await viaMcp.callTool({ name: EDGE, arguments: worker() })).isError !== true;
    const pids = { client: undefined, service: service.child.process.pid, upstream: sim.child.process.pid };
    const options = (concurrency: number) => ({ concurrency, seconds: MCP_SECONDS, warmupSeconds: 1 });
    const latency = { direct: await closedLoop(directCall, options(1)), via_mcp: await closedLoop(mcpCall, options(1)) };
    const load = { direct: await withCpu(pids, () => closedLoop(directCall, options(MCP_CONCURRENCY))), via_mcp: await withCpu(pids, () => closedLoop(mcpCall, options(MCP_CONCURRENCY))) };
    await direct.close();
    await viaMcp.close();
    const round = (n: number) => Math.round(n * 1000) / 1000;
    return {
      latency: { concurrency: 1, ...latency, p50_overhead_ms: round(latency.via_mcp.p50_ms - latency.direct.p50_ms), p50_ratio: round(latency.direct.p50_ms / latency.via_mcp.p50_ms) },
      throughput: { concurrency: MCP_CONCURRENCY, ...load, ratio: round(load.via_mcp.per_second / load.direct.per_second) },
    };
  } finally {
    await service.child.stop();
    await sim.child.stop();
  }
}

try {
  const builtIn = await phase('built-in registry');
  for (const def of synthetic(SYNTHETIC)) switchyard.registry.register(def);
  const large = await phase(`built-in + ${SYNTHETIC} synthetic`);
  await switchyard.close();
  const mcp = await mcpRoundTrip();
  const report = {
    engine: 'sqlite',
    cpus: availableParallelism(),
    requests_per_phase: REQUESTS,
    questions: QUESTIONS,
    phases: [builtIn, large],
    target: { p99_ms_at_10000: 5, met_over_http: large.ask_over_http.p99_ms <= 5, met_in_process: large.ask_in_process.p99_ms <= 5 },
    mcp_tools_call: mcp,
  };
  writeReport('ask', report);
} finally {
  await switchyard.close().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
}
