// Start-and-smoke on a Node.js line: the service started the way `npm start` starts it, in a child
// process under the Node that runs this file, on a fresh SQLite file and a fresh PostgreSQL schema.
// It must print the owner's key on its first start, run a dispatch, take a webhook delivery and
// forward it to a receiver, answer an MCP tool call, have the run's proof verified by the CLI under
// the same Node, and stop cleanly. `npm run test:smoke` runs it; CI runs it under Node 22 (.ci/run),
// the line whose whole suite it does not run.
import { expect } from 'chai';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Webhook } from 'standardwebhooks';
import { PROJECT_ROOT } from '@switchyard/app';
import { engines, freshDatabase, type TestDatabase } from '../support/app.js';

const EDGE = 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER';
const CLI = join(PROJECT_ROOT, 'adapters', 'cli', 'bin', 'switchyard.js');

/** The node arguments of `npm start`, read from package.json so the smoke follows the script. */
function startArgs(): string[] {
  const script = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['start'] ?? '';
  const command = /^exec node (.+)$/.exec(script);
  if (!command) throw new Error(`npm start is not "exec node …": ${script}`);
  return command[1]!.split(/\s+/);
}

interface Started {
  process: ChildProcess;
  url: string;
  apiKey: string;
  stdout: string[];
  stderr: () => string;
}

/** Starts the service with nothing but `env` (no key configured) and waits for its listening line. */
function startService(env: NodeJS.ProcessEnv): Promise<Started> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SWITCHYARD_')));
  const child = spawn(process.execPath, startArgs(), { cwd: PROJECT_ROOT, env: { ...clean, PORT: '0', LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const stdout: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the service did not start in 60 s\n${stdout.join('\n')}\n${stderr}`));
    }, 60_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the service exited with ${code}\n${stdout.join('\n')}\n${stderr}`));
    });
    let apiKey = '';
    createInterface({ input: child.stdout! }).on('line', (line) => {
      stdout.push(line);
      apiKey ||= /^\s*SWITCHYARD_API_KEY=(sy_\S+)$/.exec(line)?.[1] ?? '';
      let entry: { message?: string; url?: string } = {};
      try {
        entry = JSON.parse(line) as typeof entry;
      } catch {
        return;
      }
      if (entry.message === 'switchyard listening' && entry.url) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        resolve({ process: child, url: entry.url, apiKey, stdout, stderr: () => stderr });
      }
    });
  });
}

/** A destination on loopback that answers 204 and hands over each request it gets. */
async function startReceiver(): Promise<{ server: Server; url: string; next: Promise<{ headers: Record<string, string>; body: string }> }> {
  let deliver!: (r: { headers: Record<string, string>; body: string }) => void;
  const next = new Promise<{ headers: Record<string, string>; body: string }>((r) => (deliver = r));
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(204).end();
      deliver({ headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${port}/hooks`, next };
}

for (const engine of engines()) {
  describe(`start and smoke on Node ${process.version} (${engine})`, function () {
    this.timeout(120_000);
    let db: TestDatabase;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    let svc: Started;
    const api = async (path: string, init: { method?: string; body?: unknown; key?: boolean } = {}) => {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (init.key !== false) headers['x-sheets-key'] = svc.apiKey;
      const res = await fetch(`${svc.url}${path}`, { method: init.method ?? 'GET', headers, ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }) });
      const text = await res.text();
      return { status: res.status, text, json: (() => { try { return JSON.parse(text) as Record<string, any>; } catch { return {}; } })() };
    };

    before(async () => {
      db = await freshDatabase(engine);
      receiver = await startReceiver();
      svc = await startService({ DATABASE_URL: db.url, SWITCHYARD_FORWARD_ALLOW: new URL(receiver.url).host });
    });
    after(async () => {
      if (svc && svc.process.exitCode === null) svc.process.kill('SIGKILL');
      receiver?.server.close();
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
      const destination = await api(`/api/objects/webhook/${hook.json['id']}/destinations`, { method: 'POST', body: { url: receiver.url, name: 'receiver' } });
      expect(destination.status, destination.text).to.equal(201);
      const body = JSON.stringify({ id: 'evt_smoke_1', type: 'smoke.test', node: process.version });
      const delivered = await fetch(hook.json['address'] as string, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(delivered.status).to.be.within(200, 299);
      const got = await receiver.next;
      expect(got.body).to.equal(body);
      expect(() => new Webhook(destination.json['secret'] as string).verify(got.body, got.headers)).to.not.throw();
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
      const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SWITCHYARD_')));
      const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'verify', invocation, '--json'], { env: { ...clean, SWITCHYARD_URL: svc.url, SWITCHYARD_VERIFIER_KEY: key } });
      expect(JSON.parse(stdout)).to.include({ ok: true, id: invocation, kind: 'invocation' });
    });

    it('stops cleanly on SIGTERM', async () => {
      const exited = new Promise<number | null>((r) => svc.process.once('exit', (code) => r(code)));
      svc.process.kill('SIGTERM');
      expect(await exited, svc.stderr()).to.equal(0);
    });
  });
}
