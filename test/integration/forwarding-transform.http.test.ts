// Destination transforms through HTTP against the real app and storage, on both engines, to a real
// receiver on loopback: a JSONata expression rewrites a JSON body before it is signed and sent (the
// receiver verifies the new bytes with the standardwebhooks library, and the ledger keeps them);
// a transform that does not parse is a coded 400 with JSONata's full message and nothing stored;
// one that loops, recurses, throws, produces too much or meets a body that is not JSON fails its
// attempt as transform_failed, sends nothing, and is retried once the owner fixes it.
import { expect } from 'chai';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';
import { eventually, startReceiver, type Receiver } from '../support/receiver.js';

function deliver(server: Server, hook: string, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }): Promise<string> {
  const { port } = server.address() as AddressInfo;
  const bytes = Buffer.from(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: `/hook/${hook}`, method: 'POST', headers: { 'content-length': String(bytes.length), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(Buffer.concat(chunks).toString()).entry) : reject(new Error(`hook answered ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(bytes);
  });
}

for (const engine of engines()) {
  describe(`HTTP forwarding: transforms (${engine})`, function () {
    this.timeout(60_000);
    let svc: ListeningService;
    let http: ReturnType<typeof request>;
    let rx: Receiver;
    const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);
    const newHook = async (): Promise<string> => (await owner(http.post('/api/objects/webhook')).send({ name: 'shop' }).expect(201)).body.id;
    const addDestination = async (hook: string, settings: Record<string, unknown>) => (await owner(http.post(`/api/objects/webhook/${hook}/destinations`)).send(settings).expect(201)).body;
    const invocation = async (id: string) => (await owner(http.get(`/api/invocations/${id}`)).expect(200)).body.invocation;
    const forwardedTo = (entry: string, dst: string, state: string) =>
      eventually(async () => {
        const f = (await owner(http.get(`/api/ledger/${entry}`)).expect(200)).body.entry.forwarding.find((x: { destination: string }) => x.destination === dst);
        return f?.state === state ? f : undefined;
      }, `${entry} → ${dst} ${state}`);
    const receivedFor = (entry: string) => rx.received.filter((r) => r.headers['webhook-id'] === entry);
    /** A destination that gives up after one attempt, so a failing transform is a dead letter at once. */
    const once = { max_attempts: 1, initial_ms: 100, max_ms: 100 };

    before(async () => {
      rx = await startReceiver();
      svc = await startListeningService(engine, { webhooks: { forwarding: { allow: [`127.0.0.1:${rx.port}`], pollMs: 20, circuitFailures: 1000 } } });
      http = request(svc.switchyard.app);
    });
    after(async () => {
      await svc?.close();
      await rx?.close();
    });

    it('rewrites a JSON body before it is signed and sent, with the delivery headers as $headers; the ledger keeps what was sent', async () => {
      const hook = await newHook();
      const transform = '{"order": id, "total": $sum(lines.(qty * price)), "event": $headers."x-shop-topic"}';
      const dst = await addDestination(hook, { url: rx.url('/orders'), transform });
      expect(dst.transform).to.equal(transform);
      const entry = await deliver(svc.server, hook, JSON.stringify({ id: 'ord_1', lines: [{ qty: 2, price: 5 }, { qty: 1, price: 3 }] }), { 'content-type': 'application/json; charset=utf-8', 'x-shop-topic': 'orders/create' });
      const done = await forwardedTo(entry, dst.id, 'delivered');
      const [got] = receivedFor(entry);
      const sent = { order: 'ord_1', total: 13, event: 'orders/create' };
      expect(JSON.parse(got!.body.toString('utf8'))).to.deep.equal(sent);
      expect(got!.headers['content-type']).to.equal('application/json');
      expect(got!.headers['x-shop-topic']).to.equal('orders/create');
      // The signature covers the bytes sent, not the delivery's.
      expect(new Webhook(dst.secret).verify(got!.body.toString('utf8'), got!.headers as Record<string, string>)).to.deep.equal(sent);
      const inv = await invocation(done.invocations[0]);
      expect(inv.ok).to.equal(true);
      expect(inv.args.sent_body).to.equal(got!.body.toString('utf8'));
    });

    it('a transform that does not parse is a 400 naming the field with JSONata’s full message; nothing is stored', async () => {
      const hook = await newHook();
      const bad = await owner(http.post(`/api/objects/webhook/${hook}/destinations`)).send({ url: rx.url(), transform: '{"a": $sum(lines.(qty * }' }).expect(400);
      expect(bad.body.error.code).to.equal('invalid_request');
      expect(bad.body.error.field).to.equal('transform');
      expect(bad.body.error.message).to.match(/^transform: does not parse: S0\d{3} at position \d+: .+/);
      expect((await owner(http.get(`/api/objects/webhook/${hook}/destinations`)).expect(200)).body.items).to.deep.equal([]);

      const dst = await addDestination(hook, { url: rx.url(), transform: '$' });
      const path = `/api/objects/webhook/${hook}/destinations/${dst.id}`;
      const change = await owner(http.patch(path)).send({ transform: 'foo(' }).expect(400);
      expect(change.body.error.message).to.include('does not parse: S0');
      expect((await owner(http.patch(path)).send({ transform: 42 }).expect(400)).body.error.field).to.equal('transform');
      expect((await owner(http.get(path)).expect(200)).body.transform).to.equal('$');
      // null takes the transform away.
      expect((await owner(http.patch(path)).send({ transform: null }).expect(200)).body.transform).to.equal(null);
    });

    const failures: Array<[string, string, string | null, RegExp]> = [
      ['loops (stopped by its time limit)', '($f := function($x) { $f($x + 1) }; $f(0))', null, /D1012 .*Evaluation timeout after 500 milliseconds/],
      ['recurses without end (stopped by its depth limit)', '($f := function($x) { 1 + $f($x) }; $f(0))', null, /D1011 .*Stack overflow/],
      ['throws', '$error("no customer on " & id)', null, /D3137 .*no customer on ord_9/],
      ['returns a huge value', '{"a": $pad("", 200000, "x"), "b": $pad("", 200000, "y")}', null, /produced 400015 bytes of JSON; at most 262144 may be sent/],
      ['asks $pad for a huge string', '$pad("", 400000000, "x")', null, /\$pad: a width of 400000000 passes the 262144-byte bound/],
      ['produces nothing', 'missing.field', null, /produced nothing/],
      ['meets a body that is not JSON', '$', 'a=1&b=2', /body is not JSON/],
    ];
    for (const [what, transform, body, message] of failures) {
      it(`a transform that ${what} fails its attempt as transform_failed with the full message, sends nothing, and is retried once fixed`, async () => {
        const hook = await newHook();
        const dst = await addDestination(hook, { url: rx.url('/t'), transform, retry: once });
        const entry = await deliver(svc.server, hook, body ?? '{"id":"ord_9"}', { 'content-type': body ? 'application/x-www-form-urlencoded' : 'application/json' });
        const dead = await forwardedTo(entry, dst.id, 'dead');
        expect(dead.last_status).to.equal(null);
        const inv = await invocation(dead.invocations[0]);
        expect(inv).to.include({ ok: false, ran: false, status: 'failed' });
        expect(inv.error.code).to.equal('transform_failed');
        expect(inv.error.message).to.match(message);
        expect(receivedFor(entry)).to.deep.equal([]);
        // Visible where the owner looks for dead letters, and retryable once the transform is fixed.
        const dlq = (await owner(http.get(`/api/objects/webhook/${hook}/destinations/${dst.id}/dead`)).expect(200)).body.items;
        expect(dlq.map((d: { entry: string }) => d.entry)).to.deep.equal([entry]);
        // (A body that is not JSON is fixed by sending it as received.)
        await owner(http.patch(`/api/objects/webhook/${hook}/destinations/${dst.id}`)).send({ transform: body ? null : '{"fixed": true}' }).expect(200);
        expect((await owner(http.post(`/api/objects/webhook/${hook}/destinations/${dst.id}/retry`)).send({ entries: [entry] }).expect(200)).body.requeued).to.equal(1);
        const done = await forwardedTo(entry, dst.id, 'delivered');
        const got = receivedFor(entry)[0]!.body.toString('utf8');
        if (body) expect(got).to.equal(body);
        else expect(JSON.parse(got)).to.deep.equal({ fixed: true });
        expect(await invocation(done.invocations[1])).to.include({ ok: true, repairs: dead.invocations[0] });
        // A failing transform says nothing of the destination: its circuit stays closed.
        expect((await owner(http.get(`/api/objects/webhook/${hook}/destinations/${dst.id}`)).expect(200)).body.circuit.state).to.equal('closed');
      });
    }
  });
}
