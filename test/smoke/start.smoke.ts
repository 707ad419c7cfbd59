// Start-and-smoke on a Node.js line: the service started the way `npm start` starts it, in a child
// process under the Node that runs this file, on a fresh SQLite file and a fresh PostgreSQL database.
// It must print the owner's key on its first start, run a dispatch, take a webhook delivery and
// forward it to a receiver, answer an MCP tool call, have the run's proof verified by the CLI under
// the same Node, and stop cleanly. `npm run test:smoke` runs it; CI runs it under Node 22 (.ci/run),
// the line whose whole suite it does not run.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Webhook } from 'standardwebhooks';
import { PROJECT_ROOT } from '@switchyard/app';
import { engines, freshDatabase, type TestDatabase } from '../support/app.js';
import { cleanEnv, npmStart, type StartedService } from '../support/npm-start.js';
import { eventually, startReceiver, type Receiver } from '../support/receiver.js';

const EDGE = 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER';
const CLI = join(PROJECT_ROOT, 'adapters', 'cli', 'bin', 'switchyard.js');

for (const engine of engines()) {
  describe(`start and smoke on Node ${process.version} (${engine})`, function () {
    this.timeout(120_000);
    let db: TestDatabase;
    let receiver: Receiver;
    let svc: StartedService;
    const api = async (path: string, init: { method?: string; body?: unknown; key?: boolean } = {}) => {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (init.key !== false) headers['x-sheets-key'] = svc.apiKey;
      const res = await fetch(`${svc.url}${path}`, { method: init.method ?? 'GET', headers, ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }) });
      const text = await res.text();
      return { status: res.status, text, json: (() => { try { return JSON.parse(text) as Record<string, any>; } catch { return {}; } })() };
    };

    before(async () => {
      db = await freshDatabase(engine, { empty: true });
      receiver = await startReceiver();
      svc = await npmStart(PROJECT_ROOT, { DATABASE_URL: db.url, SWITCHYARD_FORWARD_ALLOW: `127.0.0.1:${receiver.port}` });
    });
    after(async () => {
      if (svc && svc.process.exitCode === null) svc.process.kill('SIGKILL');
      await receiver?.close();
      await db?.drop();
    });

    it('starts fresh: prints the owner\'s key once and runs on this Node', async () => {
      expect(svc.apiKey, svc.stdout.join('\n')).to.match(/^sy_/);
      const metrics = await api('/metrics');
      expect(metrics.status).to.equal(200);
      expect(metrics.text).to.contain(`nodejs_version_info{version="${process.version}"`);
    });

    let invocation = '';
    it('runs a dispatch on a simulator', async () => {
      const res = await api('/api/dispatch', { method: 'POST', body: { key: EDGE, body: JSON.stringify({ workerId: '0123456789abcdef0123456789abcdef' }) } });
      expect(res.status, res.text).to.equal(200);
      expect(res.json['invocation']).to.include({ key: EDGE, status: 'ok' });
      invocation = res.json['invocation'].id as string;
    });

    it('takes a webhook delivery and forwards it, signed, to a destination', async () => {
      const hook = await api('/api/objects/webhook', { method: 'POST', body: { name: 'smoke' } });
      expect(hook.status, hook.text).to.equal(201);
      const destination = await api(`/api/objects/webhook/${hook.json['id']}/destinations`, { method: 'POST', body: { url: receiver.url('/hooks'), name: 'receiver' } });
      expect(destination.status, destination.text).to.equal(201);
      const body = JSON.stringify({ id: 'evt_smoke_1', type: 'smoke.test', node: process.version });
      const delivered = await fetch(hook.json['address'] as string, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(delivered.status).to.be.within(200, 299);
      const got = await eventually(async () => receiver.received[0], 'the forwarded delivery');
      expect(got.body.toString('utf8')).to.equal(body);
      expect(() => new Webhook(destination.json['secret'] as string).verify(got.body.toString('utf8'), got.headers as Record<string, string>)).to.not.throw();
    });

    it('answers an MCP tool call', async () => {
      const client = new Client({ name: 'switchyard-smoke', version: '0.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { requestInit: { headers: { 'x-sheets-key': svc.apiKey } } }));
      try {
        const result = await client.callTool({ name: EDGE, arguments: { workerId: 'fedcba9876543210fedcba9876543210' } });
        expect(result.isError ?? false, JSON.stringify(result)).to.equal(false);
      } finally {
        await client.close();
      }
    });

    it('has the dispatch\'s proof verified by the CLI under the same Node, against the pinned key', async () => {
      const key = (await api('/api/proven-work/key', { key: false })).json['verifier_key'] as string;
      expect(key).to.be.a('string').and.not.equal('');
      for (let i = 0; i < 200; i++) {
        if ((await api(`/api/dispatch?confirm=${invocation}`, { key: false })).json['status'] === 'integrated') break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'verify', invocation, '--json'], { env: cleanEnv({ SWITCHYARD_URL: svc.url, SWITCHYARD_VERIFIER_KEY: key }) });
      expect(JSON.parse(stdout)).to.include({ ok: true, id: invocation, kind: 'invocation' });
    });

    it('stops cleanly on SIGTERM', async () => {
      expect(await svc.stop(), svc.stderr()).to.equal(0);
    });
  });
}
