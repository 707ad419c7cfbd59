// `switchyard listen` as a developer runs it: the real bin in a child process against a real service
// (SQLite and PostgreSQL), replaying each new delivery to a real local server with its headers and
// bytes, one line each; a client killed mid-stream leaves no connection behind, and a new one
// started after the last position it printed gets what came meanwhile: nothing lost.
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { BIN } from './run-cli.js';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../../../test/support/app.js';
import { eventually, startReceiver, type Receiver } from '../../../test/support/receiver.js';

interface Listener {
  child: ChildProcess;
  lines: string[];
  stderr: string[];
  exited: Promise<number | null>;
}

/** Starts the bin in its own process group, so the test can end it and the process it runs. */
function listen(url: string, args: string[]): Listener {
  const child = spawn(process.execPath, [BIN, 'listen', ...args], { env: { ...process.env, SWITCHYARD_URL: url, SWITCHYARD_API_KEY: TEST_API_KEY }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const stderr: string[] = [];
  let partial = '';
  child.stdout!.on('data', (c: Buffer) => {
    const parts = (partial + c.toString()).split('\n');
    partial = parts.pop()!;
    lines.push(...parts);
  });
  child.stderr!.on('data', (c: Buffer) => stderr.push(c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, lines, stderr, exited };
}

const line = (l: Listener, pattern: RegExp | string) => eventually(async () => l.lines.find((x) => (typeof pattern === 'string' ? x.includes(pattern) : pattern.test(x))), `a line ${pattern} (got ${JSON.stringify(l.lines)}; stderr ${l.stderr.join('')})`);

/** Posts raw bytes on a connection of its own (closed after), like a webhook sender. */
function deliver(url: string, hook: string, body: Buffer, headers: Record<string, string>): Promise<{ entry: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}/hook/${hook}`, { method: 'POST', agent: false, headers: { 'content-length': String(body.length), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(Buffer.concat(chunks).toString())) : reject(new Error(`hook answered ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

for (const engine of engines()) {
  describe(`adapter cli: switchyard listen (${engine})`, function () {
    this.timeout(60_000);
    let svc: ListeningService;
    let rx: Receiver;
    const started: Listener[] = [];
    const start = (args: string[]) => {
      const l = listen(svc.url, args);
      started.push(l);
      return l;
    };
    const stop = async (l: Listener, signal: NodeJS.Signals) => {
      if (l.child.exitCode === null && l.child.signalCode === null) process.kill(-l.child.pid!, signal);
      await l.exited;
    };

    before(async () => {
      rx = await startReceiver();
      svc = await startListeningService(engine);
    });
    after(async () => {
      for (const l of started) await stop(l, 'SIGKILL');
      await svc?.close();
      await rx?.close();
    });

    const openConnections = () => new Promise<number>((resolve, reject) => svc.server.getConnections((err, n) => (err ? reject(err) : resolve(n))));
    const newHook = async (): Promise<string> => {
      const res = await fetch(`${svc.url}/api/objects/webhook`, { method: 'POST', headers: { 'x-sheets-key': TEST_API_KEY, 'content-type': 'application/json', connection: 'close' }, body: JSON.stringify({ name: 'github' }) });
      return ((await res.json()) as { id: string }).id;
    };

    it('replays each new delivery to the local URL with its original headers and bytes, one line each with the local answer', async () => {
      const hook = await newHook();
      // A delivery from before the listener started is not replayed: only new ones are.
      const before = await deliver(svc.url, hook, Buffer.from('{"old":true}'), { 'content-type': 'application/json' });
      const l = start([hook, '--forward', rx.url('/local/github')]);
      await line(l, new RegExp(`^listening to ${hook} after position \\d+; forwarding to ${rx.url('/local/github').replace(/[/.]/g, '\\$&')}$`));

      const gz = gzipSync(JSON.stringify({ ref: 'refs/heads/main', pad: 'x'.repeat(500) }));
      const headers = { 'content-type': 'application/json', 'content-encoding': 'gzip', 'x-github-event': 'push', 'x-github-delivery': 'a1b2', 'x-hub-signature-256': 'sha256=abc', 'user-agent': 'GitHub-Hookshot/1' };
      const first = await deliver(svc.url, hook, gz, headers);
      const printed = await line(l, first.entry);
      expect(printed).to.match(new RegExp(`^\\d+ ${first.entry} push POST → 200 \\(\\d+ ms\\)$`));
      const got = rx.received.find((r) => r.headers['x-github-delivery'] === 'a1b2')!;
      expect(got.path).to.equal('/local/github');
      expect(got.body.equals(gz)).to.equal(true);
      expect(got.headers).to.include(headers);
      expect(got.headers['content-length']).to.equal(String(gz.length));
      expect(rx.received.some((r) => r.body.toString() === '{"old":true}')).to.equal(false);
      expect(l.lines.some((x) => x.includes(before.entry))).to.equal(false);

      // The local server's answer, whatever it is, is printed; a form body goes on as its bytes.
      rx.answer = () => ({ status: 500 });
      const second = await deliver(svc.url, hook, Buffer.from('a=1&b=%C3%A9'), { 'content-type': 'application/x-www-form-urlencoded' });
      expect(await line(l, second.entry)).to.match(/ - POST → 500 \(\d+ ms\)$/);
      expect(rx.received.at(-1)!.body.toString()).to.equal('a=1&b=%C3%A9');
      rx.answer = () => ({ status: 200 });

      // Ctrl-C ends it, and its stream with it.
      await stop(l, 'SIGINT');
      await eventually(async () => ((await openConnections()) === 0 ? true : undefined), 'the stream closed on the service');
    });

    it('a local server that is down is a line too, and listening goes on', async () => {
      const hook = await newHook();
      // A port that was free a moment ago: nothing listens there now.
      const probe = createServer().listen(0, '127.0.0.1');
      await new Promise((r) => probe.once('listening', r));
      const { port } = probe.address() as AddressInfo;
      await new Promise((r) => probe.close(r));
      const l = start([hook, '--forward', `http://127.0.0.1:${port}/nothing-listens`]);
      await line(l, /^listening to /);
      const sent = await deliver(svc.url, hook, Buffer.from('{}'), { 'content-type': 'application/json' });
      expect(await line(l, sent.entry)).to.match(/→ failed: ECONNREFUSED/);
      const next = await deliver(svc.url, hook, Buffer.from('{"n":2}'), { 'content-type': 'application/json' });
      await line(l, next.entry);
      await stop(l, 'SIGTERM');
    });

    it('a client killed mid-stream leaves no connection behind; one started after its last position gets what came meanwhile', async () => {
      const hook = await newHook();
      const l = start([hook, '--forward', rx.url('/local/a')]);
      await line(l, /^listening to /);
      const a = await deliver(svc.url, hook, Buffer.from('{"n":"a"}'), { 'content-type': 'application/json' });
      const seen = await line(l, a.entry);
      const position = seen.split(' ')[0]!;
      await stop(l, 'SIGKILL');
      // The service let go of the stream: no connection of it is left open.
      await eventually(async () => ((await openConnections()) === 0 ? true : undefined), 'the killed stream closed on the service');

      const b = await deliver(svc.url, hook, Buffer.from('{"n":"b"}'), { 'content-type': 'application/json' });
      const again = start([hook, '--forward', rx.url('/local/b'), '--after', position]);
      await line(again, `listening to ${hook} after position ${position};`);
      await line(again, b.entry);
      expect(again.lines.some((x) => x.includes(a.entry))).to.equal(false);
      expect(rx.received.filter((r) => r.path === '/local/b').map((r) => r.body.toString())).to.deep.equal(['{"n":"b"}']);
      await stop(again, 'SIGTERM');
    });

    it('the stream route itself: the owner\'s key, a known webhook, a position that is a number', async () => {
      const hook = await newHook();
      const get = (path: string, key: string | null = TEST_API_KEY) => fetch(`${svc.url}${path}`, { headers: { ...(key ? { 'x-sheets-key': key } : {}), connection: 'close' } });
      expect((await get(`/api/objects/webhook/${hook}/listen`, null)).status).to.equal(401);
      const unknown = await get('/api/objects/webhook/hk_000000000000/listen');
      expect(unknown.status).to.equal(404);
      expect(((await unknown.json()) as { error: { code: string } }).error.code).to.equal('webhook_not_found');
      const bad = await get(`/api/objects/webhook/${hook}/listen?after=yesterday`);
      expect(bad.status).to.equal(400);
      expect(((await bad.json()) as { error: { field: string } }).error.field).to.equal('after');
      // A stream opened from a position gets the deliveries after it, then its `ready` says where it began.
      const sent = await deliver(svc.url, hook, Buffer.from('{"n":1}'), { 'content-type': 'application/json' });
      const stop = new AbortController();
      const res = await fetch(`${svc.url}/api/objects/webhook/${hook}/listen?after=0`, { headers: { 'x-sheets-key': TEST_API_KEY }, signal: stop.signal });
      expect(res.headers.get('content-type')).to.match(/^text\/event-stream/);
      let text = '';
      const reader = res.body!.getReader();
      while (!text.includes(sent.entry)) text += new TextDecoder().decode((await reader.read()).value);
      stop.abort();
      expect(text).to.match(/event: ready\ndata: \{"hook":"hk_\w+","after":0\}/);
      const data = JSON.parse(/event: delivery\ndata: (.+)\n/.exec(text)![1]!);
      expect(data).to.include({ entry: sent.entry, method: 'POST' });
      expect(Buffer.from(data.body_base64, 'base64').toString()).to.equal('{"n":1}');
    });

    it('serves at most 32 listen streams per process, then 429 session_limit; a stream that ends frees its place', async () => {
      const hook = await newHook();
      const streams = Array.from({ length: 32 }, () => new AbortController());
      const open = (signal?: AbortSignal) => fetch(`${svc.url}/api/objects/webhook/${hook}/listen`, { headers: { 'x-sheets-key': TEST_API_KEY }, ...(signal ? { signal } : {}) });
      const answers = await Promise.all(streams.map((c) => open(c.signal)));
      expect(answers.map((r) => r.status)).to.deep.equal(Array(32).fill(200));
      const refused = await open();
      expect(refused.status).to.equal(429);
      expect(((await refused.json()) as { error: { code: string } }).error.code).to.equal('session_limit');
      streams[0]!.abort();
      const next = new AbortController();
      const again = await eventually(async () => {
        const r = await open(next.signal);
        if (r.status === 200) return r;
        await r.body?.cancel();
        return undefined;
      }, 'a place freed');
      expect(again.status).to.equal(200);
      next.abort();
      for (const c of streams) c.abort();
      await eventually(async () => ((await openConnections()) === 0 ? true : undefined), 'every stream closed');
    });

    it('refuses a bad hook, a missing --forward and an unknown webhook with a coded error', async () => {
      const bad = start(['nope', '--forward', rx.url()]);
      expect(await bad.exited).to.equal(2);
      const missing = start(['hk_000000000000']);
      expect(await missing.exited).to.equal(2);
      const unknown = start(['hk_000000000000', '--forward', rx.url()]);
      expect(await unknown.exited).to.equal(1);
      expect(unknown.stderr.join('')).to.include('webhook_not_found');
    });
  });
}
