// The receivers docs/webhooks.md gives, run as written (each in its own Node process, its code
// taken from the doc) behind destinations of the real service on both engines: the raw-bytes
// verifier accepts forwarded JSON, form, binary and gzip bodies; the standardwebhooks one the text
// bodies (JSON, form) and, as the doc says, not binary (400) or gzip ones (415 from Express); both refuse forged and
// replayed requests sent to them directly.
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { PROJECT_ROOT } from '@switchyard/app';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';
import { eventually } from '../support/receiver.js';
import { freePort } from '../support/free-port.js';

/** The js block that follows `<!-- receiver: name -->` in docs/webhooks.md. */
function receiverCode(name: string): string {
  const doc = readFileSync(join(PROJECT_ROOT, 'docs', 'webhooks.md'), 'utf8');
  const m = new RegExp(`<!-- receiver: ${name} -->\\n\`\`\`js\\n([\\s\\S]*?)^\`\`\`$`, 'm').exec(doc);
  if (!m) throw new Error(`docs/webhooks.md has no receiver ${name}`);
  return m[1]!;
}

/** POSTs bytes with headers; answers the status. */
function post(port: number, path: string, body: Buffer, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-length': String(body.length), ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end(body);
  });
}

interface RunningReceiver {
  child: ChildProcess;
  port: number;
  stderr: () => string;
}

/** Runs a doc receiver with its secret and port; resolves once it accepts connections. */
async function runReceiver(dir: string, name: string, secret: string, port: number): Promise<RunningReceiver> {
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, receiverCode(name));
  const child = spawn(process.execPath, [file], { cwd: dir, env: { ...process.env, ORDERS_SECRET: secret, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  await eventually(async () => {
    if (child.exitCode !== null) throw new Error(`receiver ${name} exited: ${stderr}`);
    return post(port, '/hooks', Buffer.from('{}'), { 'content-type': 'application/json' }).then(() => true, () => undefined);
  }, `receiver ${name} listening`);
  return { child, port, stderr: () => stderr };
}

const BODIES: Array<{ kind: string; body: Buffer; headers: Record<string, string> }> = [
  { kind: 'JSON', body: Buffer.from('{"type":"invoice.paid","note":"ünïcode"}'), headers: { 'content-type': 'application/json' } },
  { kind: 'form', body: Buffer.from('type=invoice.paid&name=J%C3%BCrgen&amount=42'), headers: { 'content-type': 'application/x-www-form-urlencoded' } },
  // Bytes that are not UTF-8 (0xff, 0xfe, a lone continuation byte) among others.
  { kind: 'binary', body: Buffer.concat([Buffer.from([0xff, 0xfe, 0x80, 0x00]), randomBytes(256)]), headers: { 'content-type': 'application/octet-stream' } },
  { kind: 'gzip', body: gzipSync(JSON.stringify({ type: 'invoice.paid', pad: 'x'.repeat(500) })), headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } },
];

for (const engine of engines()) {
  describe(`the receivers of docs/webhooks.md behind forwarding (${engine})`, function () {
    this.timeout(90_000);
    let svc: ListeningService;
    let http: ReturnType<typeof request>;
    let dir: string;
    const ports: Record<string, number> = {};
    const running: RunningReceiver[] = [];
    const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'switchyard-receivers-'));
      // The receivers import express and standardwebhooks as a user's project would.
      symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
      ports['raw-bytes'] = await freePort();
      ports['standardwebhooks'] = await freePort();
      svc = await startListeningService(engine, { webhooks: { forwarding: { allow: Object.values(ports).map((p) => `127.0.0.1:${p}`), pollMs: 20 } } });
      http = request(svc.switchyard.app);
    });
    after(async () => {
      for (const r of running) r.child.kill('SIGKILL');
      await svc?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    /** A webhook and a destination to the named receiver, started with that destination's secret. */
    async function behind(name: string): Promise<{ hook: string; dst: string; secret: string; receiver: RunningReceiver }> {
      const hook = (await owner(http.post('/api/objects/webhook')).send({ name }).expect(201)).body.id;
      const dst = (await owner(http.post(`/api/objects/webhook/${hook}/destinations`)).send({ url: `http://127.0.0.1:${ports[name]}/hooks`, retry: { max_attempts: 1 } }).expect(201)).body;
      const receiver = await runReceiver(dir, name, dst.secret, ports[name]!);
      running.push(receiver);
      return { hook, dst: dst.id, secret: dst.secret, receiver };
    }

    /** Delivers each body and answers how its forwarding ended: delivered, or dead with the receiver's status. */
    async function forwardEach(hook: string): Promise<Record<string, string>> {
      const out: Record<string, string> = {};
      for (const { kind, body, headers } of BODIES) {
        const entry = (await http.post(`/hook/${hook}`).set(headers).send(body).expect(200)).body.entry;
        const f = await eventually(async () => {
          const got = (await owner(http.get(`/api/ledger/${entry}`)).expect(200)).body.entry.forwarding[0];
          return got && ['delivered', 'dead'].includes(got.state) ? got : undefined;
        }, `${kind} forwarded`);
        out[kind] = `${f.state} ${f.last_status}`;
      }
      return out;
    }

    /** Requests sent straight to a receiver: forged, replayed, and one genuine for contrast. */
    async function direct(receiver: RunningReceiver, secret: string): Promise<Record<string, number>> {
      const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
      const sign = (id: string, ts: number, body: Buffer) => `v1,${createHmac('sha256', key).update(`${id}.${ts}.`).update(body).digest('base64')}`;
      const body = Buffer.from('{"type":"invoice.paid"}');
      const now = Math.floor(Date.now() / 1000);
      const headers = (id: string, ts: number, signature: string) => ({ 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': signature });
      return {
        genuine: await post(receiver.port, '/hooks', body, headers('msg_1', now, sign('msg_1', now, body))),
        // Any of several signatures (as during a rotation) is enough.
        rotated: await post(receiver.port, '/hooks', body, headers('msg_2', now, `v1,${Buffer.alloc(32).toString('base64')} ${sign('msg_2', now, body)}`)),
        altered: await post(receiver.port, '/hooks', Buffer.from('{"type":"invoice.void"}'), headers('msg_3', now, sign('msg_3', now, body))),
        wrongKey: await post(receiver.port, '/hooks', body, headers('msg_4', now, `v1,${createHmac('sha256', 'other').update(`msg_4.${now}.`).update(body).digest('base64')}`)),
        replayed: await post(receiver.port, '/hooks', body, headers('msg_5', now - 600, sign('msg_5', now - 600, body))),
        unsigned: await post(receiver.port, '/hooks', body, { 'content-type': 'application/json' }),
      };
    }

    it('raw bytes with node:crypto: verifies JSON, form, binary and gzip bodies; refuses forged and replayed ones', async () => {
      const { hook, secret, receiver } = await behind('raw-bytes');
      expect(await forwardEach(hook)).to.deep.equal({ JSON: 'delivered 204', form: 'delivered 204', binary: 'delivered 204', gzip: 'delivered 204' });
      expect(await direct(receiver, secret)).to.deep.equal({ genuine: 204, rotated: 204, altered: 400, wrongKey: 400, replayed: 400, unsigned: 400 });
      expect(receiver.stderr()).to.equal('');
    });

    it('standardwebhooks: verifies the text bodies (JSON, form), not binary or gzip ones; refuses forged and replayed ones', async () => {
      const { hook, secret, receiver } = await behind('standardwebhooks');
      expect(await forwardEach(hook)).to.deep.equal({ JSON: 'delivered 204', form: 'delivered 204', binary: 'dead 400', gzip: 'dead 415' });
      expect(await direct(receiver, secret)).to.deep.equal({ genuine: 204, rotated: 204, altered: 400, wrongKey: 400, replayed: 400, unsigned: 400 });
      // Express logs the refused gzip body (its 415), and nothing else.
      expect(receiver.stderr().split('\n').filter((line) => /^\S*Error/.test(line))).to.deep.equal(['UnsupportedMediaTypeError: content encoding unsupported']);
    });
  });
}
