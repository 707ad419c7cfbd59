// npm run bench:mcp-peers — the same upstream (test/support/echo-mcp-server.mjs, one `echo` tool over
// stdio, both eras) called by the v2 SDK client directly (stdio), through Switchyard
// (/mcp/servers/echo and /mcp, every call a full run with its ledger append) and through the two MCP
// proxies from npm (mcp-proxy, supergateway), each at 2025-11-25 and at 2026-07-28 where the path
// speaks it. Phases are alternated in rounds (the order reversed every other round) so the
// machine's drift falls on all paths alike; each path's figure is its median round. Reported per path:
// calls per second, its ratio to direct at the same revision, and the CPU per call of the process
// that serves it (Switchyard's or the proxy's; /proc, the same counters as its process.cpuUsage).
// Env: BENCH_SECONDS per phase (3), BENCH_ROUNDS (3), BENCH_CONCURRENCY (8), DATABASE_URL (default:
// a temp SQLite file), BENCH_BEFORE_REF (a git ref whose service is measured too, in the same rounds,
// on a SQLite file of its own: support/tree-at.ts), BENCH_PATHS (a comma-separated list of path names
// to keep, e.g. "switchyard,mcp-proxy": those whose name starts with one of them).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setMaxListeners } from 'node:events';
import { Client, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { PROJECT_ROOT } from '@switchyard/app';
import { closedLoop, type Figures } from './support/stats.js';
import { threadCpuMs, withCpu } from './support/cpu.js';
import { writeReport } from './support/report.js';
import { treeAt } from './support/tree-at.js';
import { listeningUrl, spawnTs, stopChild } from '../support/processes.js';
import { freePort } from '../support/free-port.js';

// As in edge-bench: the SDK's HTTP transport holds an abort listener per request on one signal until
// GC, which trips Node's leak warning in this client process; it says nothing about the paths measured.
setMaxListeners(100_000);
process.removeAllListeners('warning');
process.on('warning', (w) => {
  if (w.name !== 'MaxListenersExceededWarning') console.warn(w);
});

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 3);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const CONCURRENCY = Number(process.env['BENCH_CONCURRENCY'] ?? 8);
const API_KEY = 'sy_bench_key_0123456789abcdefghijklmnopqrstuvwxyz';
const ECHO = join(PROJECT_ROOT, 'test', 'support', 'echo-mcp-server.mjs');
const BEFORE_REF = process.env['BENCH_BEFORE_REF'];
const KEEP = process.env['BENCH_PATHS']?.split(',').map((p) => p.trim()).filter(Boolean);
const kept = (name: string): boolean => !KEEP || KEEP.some((k) => name.startsWith(k));
const ERAS = { '2025-11-25': undefined, '2026-07-28': { mode: { pin: '2026-07-28' } } } as const;
type Era = keyof typeof ERAS;


/** Starts a proxy's CLI and waits until its port answers HTTP. */
async function startProxy(bin: string, args: (port: number) => string[]): Promise<{ url: string; proc: ChildProcess }> {
  const port = await freePort();
  const proc = spawn(process.execPath, [join(PROJECT_ROOT, 'node_modules', '.bin', bin), ...args(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = `http://127.0.0.1:${port}/mcp`;
  for (let i = 0; i < 150; i++) {
    if (proc.exitCode !== null) throw new Error(`${bin} exited: ${stderr}`);
    if (await fetch(url, { method: 'GET' }).then(() => true, () => false)) return { url, proc };
    await new Promise((r) => setTimeout(r, 100));
  }
  proc.kill('SIGKILL');
  throw new Error(`${bin} did not listen: ${stderr}`);
}

const stopProc = stopChild;

interface Peer {
  name: string;
  era: Era;
  client: Client;
  tool: string;
  /** The process that serves this path (none for direct: the upstream is the whole path). */
  servicePid: number | undefined;
}

/** Connects the v2 client at one revision; answers why not when the path does not speak it. */
async function connect(era: Era, transport: () => Transport): Promise<Client | string> {
  const negotiation = ERAS[era];
  const client = new Client({ name: 'bench-mcp-peers', version: '1' }, negotiation ? { versionNegotiation: negotiation } : {});
  try {
    await client.connect(transport());
    const version = client.getNegotiatedProtocolVersion();
    if (version !== era) {
      await client.close();
      return `negotiated ${version}`;
    }
    return client;
  } catch (error) {
    await client.close().catch(() => undefined);
    return (error as Error).message.split('\n')[0]!.slice(0, 160);
  }
}

const dir = mkdtempSync(join(tmpdir(), 'switchyard-bench-'));
const configFile = join(dir, 'config.json');
writeFileSync(configFile, JSON.stringify({ upstreams: { servers: { echo: { system: 'ECHO', transport: 'stdio', command: process.execPath, args: [ECHO], defaults: { auth: 'none', risk: 'low', approval: false } } } } }));
const databaseUrl = process.env['DATABASE_URL'] ?? `sqlite:${join(dir, 'bench.db')}`;
const serviceEnv = { PORT: '0', SWITCHYARD_API_KEY: API_KEY, SWITCHYARD_CONFIG: configFile, LOG_LEVEL: 'info' };
// A start may take long on a loaded machine (tsx compiles every module): two minutes before giving up.
const START_MS = 120_000;
const service = await spawnTs('adapters/app/src/main.ts', [], { ...serviceEnv, DATABASE_URL: databaseUrl }, listeningUrl, START_MS);
const before = BEFORE_REF
  ? await spawnTs('adapters/app/src/main.ts', [], { ...serviceEnv, DATABASE_URL: `sqlite:${join(dir, 'before.db')}` }, listeningUrl, START_MS, [], treeAt(BEFORE_REF, join(dir, 'before'))).catch(async (error: unknown) => {
      await service.child.stop();
      throw error;
    })
  : undefined;
const proxies = [
  { name: 'mcp-proxy', ...(await startProxy('mcp-proxy', (port) => ['--port', String(port), '--host', '127.0.0.1', '--server', 'stream', '--', process.execPath, ECHO])) },
  { name: 'supergateway', ...(await startProxy('supergateway', (port) => ['--stdio', `${JSON.stringify(process.execPath)} ${JSON.stringify(ECHO)}`, '--outputTransport', 'streamableHttp', '--stateful', '--port', String(port), '--logLevel', 'none'])) },
];

const peers: Peer[] = [];
const unspoken: Array<{ path: string; era: Era; why: string }> = [];
const headers = { 'x-sheets-key': API_KEY };
try {
  for (const era of Object.keys(ERAS) as Era[]) {
    const paths: Array<{ name: string; tool: string; pid: number | undefined; transport: () => Transport }> = [
      { name: 'direct', tool: 'echo', pid: undefined, transport: () => new StdioClientTransport({ command: process.execPath, args: [ECHO] }) },
      { name: 'switchyard /mcp/servers/echo', tool: 'echo', pid: service.child.process.pid, transport: () => new StreamableHTTPClientTransport(new URL(`${service.value}/mcp/servers/echo`), { requestInit: { headers } }) },
      { name: 'switchyard /mcp', tool: 'ECHO_ECHO', pid: service.child.process.pid, transport: () => new StreamableHTTPClientTransport(new URL(`${service.value}/mcp`), { requestInit: { headers } }) },
      ...(before
        ? [
            { name: `switchyard@${BEFORE_REF} /mcp/servers/echo`, tool: 'echo', pid: before.child.process.pid, transport: () => new StreamableHTTPClientTransport(new URL(`${before.value}/mcp/servers/echo`), { requestInit: { headers } }) },
            { name: `switchyard@${BEFORE_REF} /mcp`, tool: 'ECHO_ECHO', pid: before.child.process.pid, transport: () => new StreamableHTTPClientTransport(new URL(`${before.value}/mcp`), { requestInit: { headers } }) },
          ]
        : []),
      ...proxies.map((p) => ({ name: p.name, tool: 'echo', pid: p.proc.pid, transport: () => new StreamableHTTPClientTransport(new URL(p.url)) })),
    ];
    for (const path of paths.filter((p) => kept(p.name))) {
      const client = await connect(era, path.transport);
      if (typeof client === 'string') unspoken.push({ path: path.name, era, why: client });
      else peers.push({ name: path.name, era, client, tool: path.tool, servicePid: path.pid });
    }
  }

  let n = 0;
  // The service's CPU per call by thread (main, the database driver's pool, V8's collector, the leaf
  // worker): what the main thread's profile does not show.
  const phase = async (peer: Peer) => {
    const threadsBefore = peer.servicePid === undefined ? {} : threadCpuMs(peer.servicePid);
    const measured = await withCpu({ service: peer.servicePid, client: undefined }, (): Promise<Figures> =>
      closedLoop(
        async () => {
          const r = await peer.client.callTool({ name: peer.tool, arguments: { message: `m${n++}` } });
          return r.isError !== true;
        },
        { concurrency: CONCURRENCY, seconds: SECONDS, warmupSeconds: 0.5 },
      ),
    );
    const threadsAfter = peer.servicePid === undefined ? {} : threadCpuMs(peer.servicePid);
    const threads = Object.fromEntries(Object.entries(threadsAfter).map(([name, ms]) => [name, Math.round(((ms - (threadsBefore[name] ?? 0)) / Math.max(1, measured.requests)) * 1000) / 1000]));
    return { ...measured, threads };
  };
  type Measured = Awaited<ReturnType<typeof phase>>;
  const rounds: Measured[][] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? peers.map((_, i) => i) : peers.map((_, i) => peers.length - 1 - i);
    const measured: Measured[] = [];
    for (const i of order) measured[i] = await phase(peers[i]!);
    rounds.push(measured);
  }
  const round = (x: number): number => Math.round(x * 1000) / 1000;
  const median = (i: number): Measured => rounds.map((r) => r[i]!).sort((a, b) => a.per_second - b.per_second)[Math.floor(rounds.length / 2)]!;
  const results = peers.map((peer, i) => ({ peer, figures: median(i) }));
  const directOf = (era: Era) => results.find((r) => r.peer.name === 'direct' && r.peer.era === era)?.figures.per_second;
  const paths = results.map(({ peer, figures }, i) => ({
    path: peer.name,
    era: peer.era,
    per_second: figures.per_second,
    ratio_to_direct: round(figures.per_second / (directOf(peer.era) ?? NaN)),
    p50_ms: figures.p50_ms,
    errors: figures.errors,
    service_cpu_ms_per_call: peer.servicePid === undefined ? null : figures.cpu_ms_per_request['service'],
    service_main_thread_ms_per_call: peer.servicePid === undefined ? null : figures.main_thread_ms_per_request['service'],
    rounds: rounds.map((r) => round(r[i]!.per_second)),
    cpu_rounds: rounds.map((r) => r[i]!.cpu_ms_per_request['service'] ?? null),
    service_threads_ms_per_call: peer.servicePid === undefined ? null : figures.threads,
  }));
  // The CPU target: a Switchyard path's service CPU per call over the best proxy's at the same
  // revision, per round (the same round's machine) and its median.
  const proxyNames = new Set(proxies.map((p) => p.name));
  const medianOf = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const cpuToBestProxy = results.flatMap(({ peer }, i) => {
    if (!peer.name.startsWith('switchyard')) return [];
    const proxiesAt = results.map((r, j) => ({ r, j })).filter(({ r }) => proxyNames.has(r.peer.name) && r.peer.era === peer.era);
    if (proxiesAt.length === 0) return [];
    const perRound = rounds.map((r) => round(r[i]!.cpu_ms_per_request['service']! / Math.min(...proxiesAt.map(({ j }) => r[j]!.cpu_ms_per_request['service']!))));
    return [{ path: peer.name, era: peer.era, per_round: perRound, median: medianOf(perRound) }];
  });
  const report = {
    benchmark: 'mcp-peers',
    engine: databaseUrl.startsWith('postgres') ? 'postgresql' : 'sqlite',
    seconds_per_phase: SECONDS,
    rounds: ROUNDS,
    concurrency: CONCURRENCY,
    paths,
    cpu_to_best_proxy: cpuToBestProxy,
    not_spoken: unspoken,
    node: process.version,
    at: new Date().toISOString(),
  };
  writeReport('mcp-peers', report);
} finally {
  for (const peer of peers) await peer.client.close().catch(() => undefined);
  for (const proxy of proxies) await stopProc(proxy.proc);
  await service.child.stop();
  await before?.child.stop();
  rmSync(dir, { recursive: true, force: true });
}
