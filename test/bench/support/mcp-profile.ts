// A profiling driver for bench:mcp-peers' Switchyard paths: starts the service with extra node flags
// (BENCH_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=prof"), runs PROFILE_CALLS tools/call on one
// face (PROFILE_FACE: servers or mcp) at one era (PROFILE_ERA), prints the service's CPU per call and
// the monotonic window of the calls (microseconds, the clock a .cpuprofile's timestamps use), so a
// reader can keep only the samples taken while the calls ran.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setMaxListeners } from 'node:events';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { PROJECT_ROOT } from '@switchyard/app';
import { listeningUrl, spawnTs } from '../../support/processes.js';
import { cpuMs } from './cpu.js';

setMaxListeners(100_000);
process.removeAllListeners('warning');

const CALLS = Number(process.env['PROFILE_CALLS'] ?? 3000);
const FACE = process.env['PROFILE_FACE'] ?? 'servers';
const ERA = process.env['PROFILE_ERA'] ?? '2025-11-25';
const CONCURRENCY = Number(process.env['BENCH_CONCURRENCY'] ?? 8);
const API_KEY = 'sy_bench_key_0123456789abcdefghijklmnopqrstuvwxyz';
const ECHO = join(PROJECT_ROOT, 'test', 'support', 'echo-mcp-server.mjs');

const dir = mkdtempSync(join(tmpdir(), 'switchyard-profile-'));
const configFile = join(dir, 'config.json');
writeFileSync(configFile, JSON.stringify({ upstreams: { servers: { echo: { system: 'ECHO', transport: 'stdio', command: process.execPath, args: [ECHO], defaults: { auth: 'none', risk: 'low', approval: false } } } } }));
const databaseUrl = process.env['DATABASE_URL'] ?? `sqlite:${join(dir, 'bench.db')}`;
const service = await spawnTs('adapters/app/src/main.ts', [], { PORT: '0', DATABASE_URL: databaseUrl, SWITCHYARD_API_KEY: API_KEY, SWITCHYARD_CONFIG: configFile, LOG_LEVEL: 'info' }, listeningUrl);
try {
  const url = FACE === 'mcp' ? `${service.value}/mcp` : `${service.value}/mcp/servers/echo`;
  const tool = FACE === 'mcp' ? 'ECHO_ECHO' : 'echo';
  const client = new Client({ name: 'mcp-profile', version: '1' }, ERA === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { 'x-sheets-key': API_KEY } } }));
  let n = 0;
  const loop = async (calls: number): Promise<void> => {
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (n < calls) {
          n++;
          const r = await client.callTool({ name: tool, arguments: { message: `m${n}` } });
          if (r.isError) throw new Error(JSON.stringify(r));
        }
      }),
    );
  };
  await loop(Math.min(500, CALLS / 5)); // warm-up
  n = 0;
  const pid = service.child.process.pid!;
  const cpu0 = cpuMs(pid);
  const t0 = process.hrtime.bigint() / 1000n;
  await loop(CALLS);
  const t1 = process.hrtime.bigint() / 1000n;
  const cpu = cpuMs(pid) - cpu0;
  console.log(JSON.stringify({ face: FACE, era: ERA, calls: CALLS, service_cpu_ms_per_call: cpu / CALLS, window_us: [Number(t0), Number(t1)] }));
  await client.close();
} finally {
  await service.child.stop();
  rmSync(dir, { recursive: true, force: true });
}
