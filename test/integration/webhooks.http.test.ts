// Webhooks through HTTP against the real app and storage, on SQLite and (in CI) PostgreSQL:
// management, byte-exact ingestion of any body, duplicates, on/off, action addresses, ledger reads.
import { expect } from 'chai';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';

interface Sent {
  status: number;
  body: Record<string, any>;
}

/** Sends raw bytes with raw headers (order, case and repeats exactly as given). */
function send(server: Server, path: string, headers: string[], body: Buffer): Promise<Sent> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', headers: ['Host', `127.0.0.1:${port}`, ...headers, 'Content-Length', String(body.length)] }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString() || '{}') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const bytesOf = (entry: { body: string; body_encoding: string }): Buffer => Buffer.from(entry.body, entry.body_encoding === 'base64' ? 'base64' : 'utf8');

for (const engine of engines()) {
  describe(`HTTP webhooks (${engine})`, function () {
    let svc: ListeningService;
    let http: ReturnType<typeof request>;
    let server: Server;
    let hookId: string;
    const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);
    const entry = async (id: string) => (await owner(http.get(`/api/ledger/${id}`)).expect(200)).body.entry;

    before(async function () {
      svc = await startListeningService(engine, { webhooks: { bodyLimitBytes: 4096 } });
      http = request(svc.switchyard.app);
      server = svc.server;
      const created = await owner(http.post('/api/objects/webhook')).send({ name: 'github' }).expect(201);
      hookId = created.body.id;
    });
    after(async () => {
      await svc?.close();
    });

    describe('management', () => {
      it('creates a webhook with an hk_ id, its address and how to read its deliveries', async () => {
        const res = await owner(http.post('/api/objects/webhook')).send({ name: 'stripe', delivery_id_path: 'data.object.id' }).expect(201);
        expect(res.body.id).to.match(/^hk_[A-Za-z0-9]{12}$/);
        expect(res.body).to.include({ name: 'stripe', on: true, delivery_id_path: 'data.object.id' });
        expect(res.body.address).to.match(new RegExp(`/hook/${res.body.id}$`));
        expect(res.body.created_at).to.be.a('string');
        expect(res.body.deliveries.http.url).to.contain(`/api/ledger?event=webhook%20delivery&hook=${res.body.id}`);
        expect(res.body.deliveries.http.headers).to.have.property('x-sheets-key');
        expect(res.body.deliveries.cli).to.equal(`switchyard hook deliveries ${res.body.id}`);
      });

      it('refuses without the key (401) or with bad input (400), creating nothing', async () => {
        const before = (await owner(http.get('/api/objects/webhook')).expect(200)).body.items.length;
        await http.post('/api/objects/webhook').send({ name: 'x' }).expect(401);
        await http.post('/api/objects/webhook').set('x-sheets-key', 'sy_wrong_key_000000000').send({ name: 'x' }).expect(401);
        await owner(http.post('/api/objects/webhook')).send({}).expect(400);
        await owner(http.post('/api/objects/webhook')).send({ name: 'x', extra: 1 }).expect(400);
        await owner(http.post('/api/objects/webhook')).send({ name: 'x', delivery_id_path: 'bad path!' }).expect(400);
        await owner(http.post('/api/objects/webhook')).set('content-type', 'application/json').send('{"name":').expect(400);
        expect((await owner(http.get('/api/objects/webhook')).expect(200)).body.items.length).to.equal(before);
      });

      it('shows only name and on/off publicly', async () => {
        const res = await http.get(`/hook/${hookId}`).expect(200);
        expect(res.body).to.deep.equal({ name: 'github', on: true });
        await http.get('/hook/hk_000000000000').expect(404);
        await http.get('/hook/not-an-id').expect(404);
      });

      it('changes name, id path and on/off with PATCH', async () => {
        const created = (await owner(http.post('/api/objects/webhook')).send({ name: 'tmp' }).expect(201)).body;
        const res = await owner(http.patch(`/api/objects/webhook/${created.id}`)).send({ name: 'renamed', delivery_id_path: 'header:x-my-id' }).expect(200);
        expect(res.body).to.include({ name: 'renamed', delivery_id_path: 'header:x-my-id' });
        await owner(http.patch(`/api/objects/webhook/${created.id}`)).send({ on: 'yes' }).expect(400);
        await owner(http.patch(`/api/objects/webhook/${created.id}`)).send({}).expect(400);
        await owner(http.patch('/api/objects/webhook/hk_000000000000')).send({ on: false }).expect(404);
        await http.patch(`/api/objects/webhook/${created.id}`).send({ on: false }).expect(401);
      });
    });

    describe('deliveries', () => {
      const bodies: Array<[string, string[], Buffer]> = [
        ['JSON', ['Content-Type', 'application/json'], Buffer.from('{"zeta":1,  "alpha":[1,2] }')],
        ['form', ['Content-Type', 'application/x-www-form-urlencoded'], Buffer.from('a=1&b=%C3%A9')],
        ['text', ['Content-Type', 'text/plain; charset=utf-8'], Buffer.from('héllo\r\nworld')],
        ['binary', ['Content-Type', 'application/octet-stream'], Buffer.from([0, 255, 1, 254, 0x80, 0x81])],
        ['gzip (kept compressed)', ['Content-Type', 'application/json', 'Content-Encoding', 'gzip'], gzipSync('{"a":1}')],
        ['multipart', ['Content-Type', 'multipart/form-data; boundary=XyZ'], Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="f"\r\n\r\nv\r\n--XyZ--\r\n')],
        ['empty', [], Buffer.alloc(0)],
        ['no content type, JSON-looking', [], Buffer.from('{"id":"x"}')],
      ];
      for (const [name, headers, body] of bodies) {
        it(`stores a ${name} body byte-exact`, async () => {
          const res = await send(server, `/hook/${hookId}?src=test&x=1`, headers, body);
          expect(res.status, JSON.stringify(res.body)).to.equal(200);
          const e = await entry(res.body.entry);
          expect(bytesOf(e).equals(body)).to.equal(true);
          expect(e).to.include({ method: 'POST', path: `/hook/${hookId}`, query: 'src=test&x=1', body_size: body.length, outcome: 'accepted' });
          expect(e.client_address).to.match(/127\.0\.0\.1/);
        });
      }

      it('keeps every header as received: order, case and repeated names', async () => {
        const res = await send(server, `/hook/${hookId}`, ['X-Trace', 'one', 'x-trace', 'two', 'X-MiXeD-CaSe', 'v', 'Content-Type', 'text/plain'], Buffer.from('h'));
        const e = await entry(res.body.entry);
        const sent = e.headers.filter(([n]: [string]) => /^x-/i.test(n));
        expect(sent).to.deep.equal([['X-Trace', 'one'], ['x-trace', 'two'], ['X-MiXeD-CaSe', 'v']]);
      });

      it('marks a retried delivery as a duplicate of the first, and keeps it whole', async () => {
        const headers = ['Content-Type', 'application/json', 'X-GitHub-Delivery', 'gh-72d3162e'];
        const first = await send(server, `/hook/${hookId}`, headers, Buffer.from('{"action":"opened"}'));
        const retry = await send(server, `/hook/${hookId}`, headers, Buffer.from('{"action":"opened","retry":true}'));
        expect(first.body).to.include({ ok: true, duplicate: false, delivery_id: 'gh-72d3162e', delivery_id_rule: 'header:x-github-delivery' });
        expect(retry.body).to.include({ ok: true, duplicate: true, duplicate_of: first.body.entry });
        expect(bytesOf(await entry(retry.body.entry)).toString()).to.equal('{"action":"opened","retry":true}');
      });

      it('uses the webhook id path', async () => {
        const hook = (await owner(http.post('/api/objects/webhook')).send({ name: 'stripe', delivery_id_path: 'data.object.id' }).expect(201)).body;
        const res = await send(server, `/hook/${hook.id}`, ['Content-Type', 'application/json'], Buffer.from('{"id":"evt_1","data":{"object":{"id":"pi_9"}}}'));
        expect(res.body).to.include({ delivery_id: 'pi_9', delivery_id_rule: 'path:data.object.id' });
      });

      it('refuses deliveries to an Off webhook (403 webhook_off), ledgers the refusal, and accepts again when On', async () => {
        const hook = (await owner(http.post('/api/objects/webhook')).send({ name: 'switch' }).expect(201)).body;
        await owner(http.patch(`/api/objects/webhook/${hook.id}`)).send({ on: false }).expect(200);
        expect((await http.get(`/hook/${hook.id}`)).body).to.deep.equal({ name: 'switch', on: false });
        const refused = await send(server, `/hook/${hook.id}`, ['Content-Type', 'application/json'], Buffer.from('{"n":1}'));
        expect(refused.status).to.equal(403);
        expect(refused.body.error.code).to.equal('webhook_off');
        const e = await entry(refused.body.entry);
        expect(e).to.include({ outcome: 'refused', body: '{"n":1}' });
        expect(e.refusal.code).to.equal('webhook_off');
        await owner(http.patch(`/api/objects/webhook/${hook.id}`)).send({ on: true }).expect(200);
        expect((await send(server, `/hook/${hook.id}`, ['Content-Type', 'application/json'], Buffer.from('{"n":2}'))).status).to.equal(200);
      });

      it('refuses an oversized delivery with 413 and a refusal entry, its id found in the headers', async () => {
        const res = await send(server, `/hook/${hookId}`, ['Content-Type', 'application/octet-stream', 'X-Delivery-Id', 'big-1'], Buffer.alloc(5000, 1));
        expect(res.status).to.equal(413);
        expect(res.body.error.code).to.equal('payload_too_large');
        expect(res.body.delivery_id).to.equal('big-1');
        const e = await entry(res.body.entry);
        expect(e).to.include({ outcome: 'refused', body: null, body_size: 5000, delivery_id: 'big-1', delivery_id_rule: 'header:x-delivery-id' });
        await http.get('/healthz').expect(200);
      });

      it('answers 404 webhook_not_found for an unknown hook and stores nothing', async () => {
        const res = await send(server, '/hook/hk_000000000000', ['Content-Type', 'application/json'], Buffer.from('{}'));
        expect(res.status).to.equal(404);
        expect(res.body.error.code).to.equal('webhook_not_found');
      });
    });

    describe('action addresses', () => {
      const LOOKUP = 'MESSAGING_BATCH_LOOKUP_PHONE_NUMBERS';

      it('runs the action with the body as inputs, as hook:<id>, and links delivery, invocation and answer', async () => {
        const res = await send(server, `/hook/${hookId}/${LOOKUP}`, ['Content-Type', 'application/json'], Buffer.from('{"numbers":["+14155552671"]}'));
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body.ok).to.equal(true);
        expect(res.body.result.count).to.equal(1);
        expect(res.body.invocation).to.include({ actor: `hook:${hookId}`, key: LOOKUP, ran: true });
        expect(res.body.invocation.source).to.equal(`hook:${hookId}/${res.body.delivery.entry}`);
        const e = await entry(res.body.delivery.entry);
        expect(e.action).to.equal(LOOKUP);
        expect(e.action_run).to.include({ invocation: res.body.invocation.id, ok: true, status: 'ok' });
        expect(e.action_run.answer.status).to.equal(200);
        const inv = await owner(http.get(`/api/invocations/${res.body.invocation.id}`)).expect(200);
        expect(inv.body.invocation.source).to.contain(res.body.delivery.entry);
      });

      it('refuses actions outside their limits (101 numbers) and auth-required ones, writing the refusals', async () => {
        const numbers = Array.from({ length: 101 }, (_, i) => `+1415555${String(1000 + i)}`);
        const tooMany = await send(server, `/hook/${hookId}/${LOOKUP}`, ['Content-Type', 'application/json'], Buffer.from(JSON.stringify({ numbers })));
        expect(tooMany.status).to.equal(422);
        expect(tooMany.body.invocation).to.include({ ran: false, ok: false });
        expect(tooMany.body.invocation.error.code).to.equal('invalid_arguments');
        expect((await entry(tooMany.body.delivery.entry)).action_run).to.include({ status: 'refused', ok: false });

        const paid = await send(server, `/hook/${hookId}/PAYMENTS_PROCESSOR_API_SEARCH`, ['Content-Type', 'application/json'], Buffer.from('{"query":"refund"}'));
        expect(paid.status).to.equal(401);
        expect(paid.body.invocation.error.code).to.equal('credential_required');
        expect(paid.body.invocation.status).to.equal('refused');
        const listed = await owner(http.get('/api/invocations?object_id=PAYMENTS_PROCESSOR_API_SEARCH')).expect(200);
        expect(listed.body.items.map((i: { id: string }) => i.id)).to.include(paid.body.invocation.id);
      });

      it('answers an unknown action with 404 did_you_mean and stores the delivery as a refusal', async () => {
        const res = await send(server, `/hook/${hookId}/MESSAGING_UPDATE_GRUOP`, ['Content-Type', 'application/json'], Buffer.from('{}'));
        expect(res.status).to.equal(404);
        expect(res.body.error.code).to.equal('unknown_capability');
        expect(res.body.error.did_you_mean.map((d: { key: string }) => d.key)).to.include('MESSAGING_UPDATE_GROUP');
        expect((await entry(res.body.entry)).refusal.code).to.equal('unknown_capability');
      });

      it('does not run the action again for a duplicate delivery', async () => {
        const headers = ['Content-Type', 'application/json', 'webhook-id', 'msg_action_once'];
        const first = await send(server, `/hook/${hookId}/MESSAGING_UPDATE_GROUP`, headers, Buffer.from('{"group_id":"grp_4f7c2a9d1e","name":"Once"}'));
        expect(first.status).to.equal(200);
        const again = await send(server, `/hook/${hookId}/MESSAGING_UPDATE_GROUP`, headers, Buffer.from('{"group_id":"grp_4f7c2a9d1e","name":"Once"}'));
        expect(again.status).to.equal(200);
        expect(again.body).to.include({ duplicate: true, duplicate_of: first.body.delivery.entry });
        // The receipt is also where a run's answer has it.
        expect(again.body.delivery).to.include({ entry: again.body.entry, duplicate: true, duplicate_of: first.body.delivery.entry });
        expect(again.body.action).to.include({ ran: false, reason: 'duplicate' });
        expect(again.body.action.first_run.invocation).to.equal(first.body.invocation.id);
      });
    });

    describe('ledger reads', () => {
      it('needs the API key and validates its parameters', async () => {
        await http.get('/api/ledger?event=webhook%20delivery').expect(401);
        await owner(http.get('/api/ledger')).expect(400);
        await owner(http.get('/api/ledger?event=other')).expect(400);
        for (const bad of ['0', '1001', 'abc', '-1', '2.5']) await owner(http.get(`/api/ledger?event=webhook%20delivery&limit=${bad}`)).expect(400);
        await owner(http.get('/api/ledger?event=webhook%20delivery&hook=nope')).expect(400);
        await owner(http.get('/api/ledger?event=webhook%20delivery&before=x')).expect(400);
      });

      it('answers 404 webhook_not_found for a hook that does not exist, rather than an empty page', async () => {
        const res = await owner(http.get('/api/ledger?event=webhook%20delivery&hook=hk_AAAAAAAAAAAA')).expect(404);
        expect(res.body.error.code).to.equal('webhook_not_found');
      });

      it('lists deliveries newest first, per hook, paged, with duplicates and refusals marked', async () => {
        const all = (await owner(http.get(`/api/ledger?event=webhook%20delivery&hook=${hookId}&limit=1000`)).expect(200)).body;
        expect(all.items.length).to.be.greaterThan(10);
        const seqs = all.items.map((d: { seq: number }) => d.seq);
        expect(seqs).to.deep.equal([...seqs].sort((a: number, b: number) => b - a));
        for (const d of all.items) expect(d.hook_id).to.equal(hookId);
        expect(all.items.some((d: { duplicate: boolean }) => d.duplicate)).to.equal(true);
        expect(all.items.some((d: { outcome: string }) => d.outcome === 'refused')).to.equal(true);
        const seen: string[] = [];
        let before: string | null = null;
        do {
          const page: request.Response = await owner(http.get(`/api/ledger?event=webhook%20delivery&hook=${hookId}&limit=4${before ? `&before=${before}` : ''}`)).expect(200);
          seen.push(...page.body.items.map((d: { id: string }) => d.id));
          before = page.body.next_cursor;
        } while (before);
        expect(seen).to.deep.equal(all.items.map((d: { id: string }) => d.id));
        const defaulted = (await owner(http.get('/api/ledger?event=webhook%20delivery')).expect(200)).body;
        expect(defaulted.items.length).to.be.at.most(50);
      });
    });
  });
}

for (const engine of engines()) {
  describe(`HTTP webhook signatures (${engine})`, function () {
    let svc: ListeningService;
    let server: Server;
    let http: ReturnType<typeof request>;
    const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);

    before(async function () {
      svc = await startListeningService(engine);
      http = request(svc.switchyard.app);
      server = svc.server;
    });
    after(async () => {
      await svc?.close();
    });

    it('marks, and with require refuses, deliveries by their signature; the secret is never shown', async function () {
      const { sign } = await import('@octokit/webhooks-methods');
      const created = await owner(http.post('/api/objects/webhook')).send({ name: 'gh', signature: { scheme: 'github', secret: 'gh-secret-value', require: true } }).expect(201);
      expect(created.body.signature).to.deep.equal({ scheme: 'github', header: null, require: true, tolerance_s: null, secret_set: true });
      expect(JSON.stringify(created.body)).not.to.contain('gh-secret-value');
      const payload = '{"zen":"Keep it logically awesome."}';
      const good = await send(server, `/hook/${created.body.id}`, ['Content-Type', 'application/json', 'X-Hub-Signature-256', await sign('gh-secret-value', payload)], Buffer.from(payload));
      expect(good.status).to.equal(200);
      expect(good.body.signature).to.equal('verified');
      const bad = await send(server, `/hook/${created.body.id}`, ['Content-Type', 'application/json', 'X-Hub-Signature-256', await sign('wrong-secret', payload)], Buffer.from(payload));
      expect(bad.status).to.equal(401);
      expect(bad.body.error.code).to.equal('signature_invalid');
      const stored = (await owner(http.get(`/api/ledger/${bad.body.entry}`)).expect(200)).body.entry;
      expect(stored).to.include({ outcome: 'refused', signature: 'invalid', body: payload });

      await owner(http.patch(`/api/objects/webhook/${created.body.id}`)).send({ signature: { scheme: 'github', secret: 'gh-secret-value', require: false } }).expect(200);
      const marked = await send(server, `/hook/${created.body.id}`, ['Content-Type', 'application/json'], Buffer.from(payload));
      expect(marked.status).to.equal(200);
      expect(marked.body.signature).to.equal('missing');
      await owner(http.post('/api/objects/webhook')).send({ name: 'x', signature: { scheme: 'nope', secret: 'longenough' } }).expect(400);
      await owner(http.post('/api/objects/webhook')).send({ name: 'x', signature: { scheme: 'github', secret: 'short' } }).expect(400);
    });
  });
}
