import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { McpUpstreamClient } from '@switchyard/mcp';
import { createLeanFetch } from '../../adapters/mcp/src/lean-fetch.js';
import { spawnTs } from '../support/processes.js';
const sim = await spawnTs('test/bench/support/simulator-main.ts', ['edge'], {}, (l) => { try { return (JSON.parse(l) as { url?: string }).url; } catch { return undefined; } });
const url = sim.value;
const args = { workerId: '0123456789abcdef0123456789abcdef' };
async function time(label: string, call: () => Promise<unknown>) {
  for (let i = 0; i < 50; i++) await call();
  const ts: number[] = [];
  for (let i = 0; i < 400; i++) { const t = performance.now(); await call(); ts.push(performance.now() - t); }
  ts.sort((a, b) => a - b);
  console.log(label.padEnd(28), 'p50', ts[200]!.toFixed(3), 'p90', ts[360]!.toFixed(3));
}
const sdk = new Client({ name: 'a', version: '1' });
await sdk.connect(new SSEClientTransport(new URL(url)));
await time('sdk default fetch', () => sdk.callTool({ name: 'workers_builds_set_active_worker', arguments: args }));
const lean = createLeanFetch();
const sdk2 = new Client({ name: 'b', version: '1' });
await sdk2.connect(new SSEClientTransport(new URL(url), { fetch: lean.fetch }));
await time('sdk lean fetch', () => sdk2.callTool({ name: 'workers_builds_set_active_worker', arguments: args }));
await time('sdk lean fetch + timeout', () => sdk2.callTool({ name: 'workers_builds_set_active_worker', arguments: args }, undefined, { timeout: 10000 }));
const ours = new McpUpstreamClient();
await time('McpUpstreamClient', () => ours.callTool({ url, transport: 'sse' }, 'workers_builds_set_active_worker', args, { timeoutMs: 10000 }));
await sdk.close(); await sdk2.close(); await ours.close(); lean.close();
await sim.child.stop();
