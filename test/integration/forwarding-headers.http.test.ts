// What a destination receives of a delivery's headers, through HTTP against the real app and
// storage on both engines, to a real receiver on loopback: by default every header but hop-by-hop
// ones, Host, Content-Length and credentials; "none"; a list; the body's Content-Type and
// Content-Encoding as received (a gzip body stays gzip, labelled so); a list naming a header that
// is never forwarded refused, naming it, with nothing stored.
import { expect } from 'chai';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync, gzipSync } from 'node:zlib';
import request from 'supertest';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';
import { eventually, startReceiver, type Receiver } from '../support/receiver.js';

/** Posts raw bytes with exactly these headers (a GitHub-like sender behind a proxy). */
function deliver(server: Server, hook: string, body: Buffer, headers: Record<string, string>): Promise<{ status: number; entry: string }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: `/hook/${hook}`, method: 'POST', headers: { 'content-length': String(body.length), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, entry: JSON.parse(Buffer.concat(chunks).toString() || '{}').entry }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const SENDER_HEADERS = {
  'content-type': 'application/json',
  'user-agent': 'GitHub-Hookshot/abc123',
  'x-github-event': 'push',
  'x-github-delivery': '72d3162e-cc78-11e3-81ab-4c9367dc0958',
  'x-hub-signature-256': 'sha256=7d38cdd689735b008b3c702edd92eea23791c5f6',
  cookie: 'session=the-senders',
  authorization: 'Bearer the-senders-token',
  'x-sheets-key': 'not-a-key-for-anyone',
  connection: 'keep-alive, x-per-hop',
  'x-per-hop': 'for this connection only',
  'keep-alive': 'timeout=5',
};

for (const engine of engines()) {
  describe(`HTTP forwarding: the delivery's headers and bytes, whole (${engine})`, function () {
    this.timeout(60_000);
    let svc: ListeningService;
    let http: ReturnType<typeof request>;
    let rx: Receiver;
    const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);
    const newHook = async (): Promise<string> => (await owner(http.post('/api/objects/webhook')).send({ name: 'github' }).expect(201)).body.id;
    const addDestination = async (hook: string, settings: Record<string, unknown>) => (await owner(http.post(`/api/objects/webhook/${hook}/destinations`)).send(settings).expect(201)).body;
    const delivered = (entry: string) =>
      eventually(async () => ((await owner(http.get(`/api/ledger/${entry}`)).expect(200)).body.entry.forwarding[0]?.state === 'delivered' ? true : undefined), `${entry} delivered`);
    const receivedFor = (entry: string) => rx.received.find((r) => r.headers['webhook-id'] === entry)!;

    before(async () => {
      rx = await startReceiver();
      svc = await startListeningService(engine, { webhooks: { forwarding: { allow: [`127.0.0.1:${rx.port}`], pollMs: 20 } } });
      http = request(svc.switchyard.app);
    });
    after(async () => {
      await svc?.close();
      await rx?.close();
    });

    it('by default passes on every header but hop-by-hop ones, Host, Content-Length and credentials', async () => {
      const hook = await newHook();
      const dst = await addDestination(hook, { url: rx.url('/github'), headers: { 'x-team': 'ci' } });
      expect(dst.forward_headers).to.equal('all');
      const body = Buffer.from('{"ref":"refs/heads/main"}');
      const sent = await deliver(svc.server, hook, body, SENDER_HEADERS);
      expect(sent.status).to.equal(200);
      await delivered(sent.entry);
      const got = receivedFor(sent.entry);
      expect(got.body.equals(body)).to.equal(true);
      expect(got.headers).to.include({
        'content-type': 'application/json',
        'user-agent': 'GitHub-Hookshot/abc123',
        'x-github-event': 'push',
        'x-github-delivery': '72d3162e-cc78-11e3-81ab-4c9367dc0958',
        'x-hub-signature-256': 'sha256=7d38cdd689735b008b3c702edd92eea23791c5f6',
        'x-team': 'ci',
        'webhook-id': sent.entry,
      });
      for (const never of ['cookie', 'authorization', 'x-sheets-key', 'x-per-hop', 'keep-alive']) expect(got.headers, never).not.to.have.property(never);
      // The framing is the forwarder's own request's: its length, its host.
      expect(got.headers['content-length']).to.equal(String(body.length));
      expect(got.headers['host']).to.equal(`127.0.0.1:${rx.port}`);
      expect(got.headers['webhook-signature']).to.match(/^v1,/);
    });

    it('a gzip body goes on as the same bytes with its Content-Encoding', async () => {
      const hook = await newHook();
      await addDestination(hook, { url: rx.url('/gz') });
      const json = JSON.stringify({ action: 'opened', pad: 'x'.repeat(2000) });
      const gz = gzipSync(json);
      const sent = await deliver(svc.server, hook, gz, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      await delivered(sent.entry);
      const got = receivedFor(sent.entry);
      expect(got.headers['content-encoding']).to.equal('gzip');
      expect(got.headers['content-type']).to.equal('application/json');
      expect(got.body.equals(gz)).to.equal(true);
      expect(gunzipSync(got.body).toString()).to.equal(json);
    });

    it('"none" sends only the body’s own headers; a list only the names it gives', async () => {
      const hook = await newHook();
      const none = await addDestination(hook, { url: rx.url('/none'), forward_headers: 'none' });
      const listed = await addDestination(hook, { url: rx.url('/listed'), forward_headers: ['X-GitHub-Event', 'x-hub-signature-256'] });
      expect(listed.forward_headers).to.deep.equal(['x-github-event', 'x-hub-signature-256']);
      const sent = await deliver(svc.server, hook, Buffer.from('{}'), SENDER_HEADERS);
      await eventually(async () => (rx.received.filter((r) => r.headers['webhook-id'] === sent.entry).length === 2 ? true : undefined), 'both destinations');
      const at = (path: string) => rx.received.find((r) => r.headers['webhook-id'] === sent.entry && r.path === path)!;
      const others = (headers: Record<string, unknown>) => Object.keys(headers).filter((h) => !h.startsWith('webhook-') && !['host', 'content-length', 'connection'].includes(h)).sort();
      expect(others(at('/none').headers)).to.deep.equal(['content-type']);
      expect(others(at('/listed').headers)).to.deep.equal(['content-type', 'x-github-event', 'x-hub-signature-256']);
      expect(at('/listed').headers['x-github-event']).to.equal('push');
      const dsts = (await owner(http.get(`/api/objects/webhook/${hook}/destinations`)).expect(200)).body.items;
      expect(dsts.find((d: { id: string }) => d.id === none.id).forward_headers).to.equal('none');
    });

    it('refuses a list naming a header that is never forwarded, naming it, and changes nothing', async () => {
      const hook = await newHook();
      const dst = await addDestination(hook, { url: rx.url('/x'), forward_headers: ['x-github-event'] });
      for (const name of ['Connection', 'Transfer-Encoding', 'Upgrade', 'Host', 'Content-Length', 'Cookie', 'Authorization', 'x-sheets-key']) {
        const res = await owner(http.patch(`/api/objects/webhook/${hook}/destinations/${dst.id}`)).send({ forward_headers: ['x-github-event', name] }).expect(400);
        expect(res.body.error, name).to.include({ code: 'invalid_request', field: `forward_headers.${name}` });
        expect(res.body.error.message).to.contain('never forwarded');
      }
      const created = await owner(http.post(`/api/objects/webhook/${hook}/destinations`)).send({ url: rx.url('/y'), forward_headers: ['keep-alive'] }).expect(400);
      expect(created.body.error).to.include({ code: 'invalid_request', field: 'forward_headers.keep-alive' });
      const bad = await owner(http.patch(`/api/objects/webhook/${hook}/destinations/${dst.id}`)).send({ forward_headers: 'some' }).expect(400);
      expect(bad.body.error).to.include({ field: 'forward_headers' });
      const items = (await owner(http.get(`/api/objects/webhook/${hook}/destinations`)).expect(200)).body.items;
      expect(items).to.have.length(1);
      expect(items[0].forward_headers).to.deep.equal(['x-github-event']);
    });
  });
}
