import { createLogger, createSwitchyard, loadConfig } from '@switchyard/app';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
const dir = mkdtempSync(join(tmpdir(), 'disp-'));
const KEY = 'sy_k_0123456789012345678901234567890123';
const sy = await createSwitchyard(loadConfig({ env: {}, overrides: { database: { url: `sqlite:${join(dir, 'x.db')}` }, auth: { apiKey: KEY }, log: { level: 'silent' }, server: { port: 0 }, ledger: { integrateIntervalMs: Number(process.env.IIM ?? 200) } } }), { logger: createLogger('silent') });
const { url } = await sy.listen();
import { DispatchToken } from '../../adapters/app/src/tokens.js';
const d = await sy.container.getAsync<any>(DispatchToken);
const orig = d.dispatch.bind(d);
const inner: number[] = [];
d.dispatch = async (...a: unknown[]) => { const t = performance.now(); try { return await orig(...a); } finally { inner.push(performance.now() - t); } };
const store = (d as any).store;
const origAppend = store.append.bind(store);
const app: number[] = [];
store.append = async (r: unknown) => { const t = performance.now(); try { return await origAppend(r); } finally { app.push(performance.now() - t); } };
import { VerifiableLedger } from '@switchyard/core';
const ledger = await sy.container.getAsync<any>(VerifiableLedger);
const origI = ledger.integrate.bind(ledger);
const ints: Array<[number, number]> = [];
ledger.integrate = async (m: number) => { const t = performance.now(); const r = await origI(m); ints.push([performance.now() - t, r.integrated]); return r; };
process.on('exit', () => { const busy = ints.filter(([, n]) => n > 0); console.log('integrations', ints.length, 'with work', busy.length, 'avg ms', (busy.reduce((a, [t]) => a + t, 0) / busy.length).toFixed(2), 'avg n', (busy.reduce((a, [, n]) => a + n, 0) / busy.length).toFixed(1), 'empty avg ms', (ints.filter(([, n]) => n === 0).reduce((a, [t]) => a + t, 0) / Math.max(1, ints.length - busy.length)).toFixed(2)); });
const med = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]!.toFixed(3); };
async function time(label: string, body: unknown) {
  const ts: number[] = [];
  for (let i = 0; i < 400; i++) {
    const t = performance.now();
    const r = await fetch(`${url}/api/dispatch`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-sheets-key': KEY }, body: JSON.stringify(body) });
    await r.arrayBuffer();
    ts.push(performance.now() - t);
  }
  ts.sort((a, b) => a - b);
  console.log(label.padEnd(12), 'p50', ts[200]!.toFixed(3), 'p90', ts[360]!.toFixed(3), 'dispatch p50', inner.length ? med(inner) : '-', 'append p50', app.length ? med(app) : '-');
  inner.length = 0; app.length = 0;
}
const E = 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER';
await time('unknown', { key: 'NOPE_NOPE' });
await time('invalid', { key: E, body: { workerId: 5 } });
await time('ok', { key: E, body: { workerId: '0123456789abcdef0123456789abcdef' } });
await time('unknown', { key: 'NOPE_NOPE' });
await time('invalid', { key: E, body: { workerId: 5 } });
await sy.close();
