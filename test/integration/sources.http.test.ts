// Inbound sources through HTTP against the real app and storage, on SQLite and (in CI) PostgreSQL:
// every signature scheme with deliveries signed as its sender signs them (vendor libraries where
// they sign), refusals of forged and unsigned ones, and event types stored, listed, filtered and
// counted through /api/ledger; bad settings and parameters refused with a coded error, nothing changed.
import { expect } from 'chai';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { SIGNATURE_SCHEMES } from '@switchyard/core';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';
import { SENDERS } from '../support/senders.js';

interface Sent {
  status: number;
  body: Record<string, any>;
}

/** Sends raw bytes with the given headers (as written), as a sender would. */
function send(server: Server, path: string, headers: Record<string, string>, body: Buffer): Promise<Sent> {
  const { port } = server.address() as AddressInfo;
  const raw = ['Host', `127.0.0.1:${port}`, ...Object.entries(headers).flat(), 'Content-Length', String(body.length)];
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', headers: raw }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString() || '{}') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Senders whose signature does not cover the body: a changed body is not a forgery for them. */
const BODY_UNSIGNED = new Set(['mailgun', 'gitlab', 'postmark']);
/** Headers that carry a signature, a token or its time: an unsigned delivery has none. */
const SIGNING = /signature|hmac|timestamp|token|authorization|^webhook-id$|^svix-id$|message-id/i;

for (const engine of engines()) {
  describe(`HTTP inbound sources: signatures and event types (${engine})`, function () {
    let svc: ListeningService;
    let http: ReturnType<typeof request>;
    const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);
    const entry = async (id: string) => (await owner(http.get(`/api/ledger/${id}`)).expect(200)).body.entry;
    const hooks = new Map<string, string>();

    before(async function () {
      svc = await startListeningService(engine);
      http = request(svc.switchyard.app);
    });
    after(async () => {
      await svc?.close();
    });

    it(`verifies a delivery of each of the ${SIGNATURE_SCHEMES.length} schemes as its sender signs it, with its event type, and refuses a forged or unsigned one`, async function () {
      expect(SENDERS.map((s) => s.scheme).sort()).to.deep.equal([...SIGNATURE_SCHEMES].sort());
      for (const sender of SENDERS) {
        const created = await owner(http.post('/api/objects/webhook')).send({ name: sender.scheme, signature: { scheme: sender.scheme, secret: sender.secret, require: true }, ...(sender.eventTypePath ? { event_type_path: sender.eventTypePath } : {}) }).expect(201);
        expect(created.body.signature, sender.scheme).to.deep.equal({ scheme: sender.scheme, header: null, require: true, tolerance_s: null, secret_set: true });
        expect(JSON.stringify(created.body)).not.to.contain(sender.secret);
        const id = created.body.id as string;
        hooks.set(sender.scheme, id);
        const path = `/hook/${id}`;
        const signed = await sender.sign(`${svc.url}${path}`);

        const good = await send(svc.server, path, signed.headers, signed.body);
        expect(good.status, `${sender.scheme}: ${JSON.stringify(good.body)}`).to.equal(200);
        expect(good.body, sender.scheme).to.include({ signature: 'verified', event_type: sender.eventType, outcome: 'accepted' });
        const stored = await entry(good.body.entry);
        expect(stored, sender.scheme).to.include({ signature: 'verified', event_type: sender.eventType });
        expect(Buffer.from(stored.body, stored.body_encoding === 'base64' ? 'base64' : 'utf8').equals(signed.body), `${sender.scheme}: the bytes as sent`).to.equal(true);

        if (!BODY_UNSIGNED.has(sender.scheme)) {
          const forged = await send(svc.server, path, signed.headers, Buffer.concat([signed.body, Buffer.from(' ')]));
          expect(forged.status, `${sender.scheme} forged`).to.equal(401);
          expect(forged.body.error.code).to.equal('signature_invalid');
          expect(forged.body.error.scheme).to.equal(sender.scheme);
          expect(await entry(forged.body.entry), `${sender.scheme} forged`).to.include({ outcome: 'refused', signature: 'invalid' });
        }
        const unsignedHeaders = Object.fromEntries(Object.entries(signed.headers).filter(([name]) => !SIGNING.test(name)));
        const unsigned = await send(svc.server, path, unsignedHeaders, sender.scheme === 'mailgun' ? Buffer.from('{"event-data":{"event":"delivered"}}') : signed.body);
        expect(unsigned.status, `${sender.scheme} unsigned`).to.equal(401);
        const refused = await entry(unsigned.body.entry);
        expect(refused, `${sender.scheme} unsigned`).to.include({ outcome: 'refused', signature: 'missing' });
        expect(refused.refusal.code).to.equal('signature_invalid');
      }
    });

    it('signs the address as the sender wrote it: a Twilio signature for another address is refused', async function () {
      const twilio = SENDERS.find((s) => s.scheme === 'twilio')!;
      const path = `/hook/${hooks.get('twilio')!}`;
      const elsewhere = await twilio.sign(`https://another.example.test${path}`);
      const answer = await send(svc.server, path, elsewhere.headers, elsewhere.body);
      expect(answer.status).to.equal(401);
      expect(answer.body).to.include({ signature: 'invalid', event_type: 'delivered' });
    });

    it('lists deliveries of one event type, per webhook or across them, and counts them per type', async function () {
      const github = hooks.get('github')!;
      const sender = SENDERS.find((s) => s.scheme === 'github')!;
      for (let i = 0; i < 2; i++) {
        const signed = await sender.sign('');
        expect((await send(svc.server, `/hook/${github}`, signed.headers, signed.body)).status).to.equal(200);
      }
      const issue = Buffer.from('{"action":"opened"}');
      const { sign } = await import('@octokit/webhooks-methods');
      await send(svc.server, `/hook/${github}`, { 'Content-Type': 'application/json', 'X-GitHub-Event': 'issues', 'X-Hub-Signature-256': await sign('github-webhook-secret', issue.toString()) }, issue);

      const pushes = (await owner(http.get(`/api/ledger?event=webhook%20delivery&hook=${github}&event_type=push`)).expect(200)).body;
      expect(pushes).to.include({ hook: github, event_type: 'push' });
      // The first accepted, the forged and the unsigned of the suite above, and two more.
      expect(pushes.items.map((d: { event_type: string }) => d.event_type)).to.deep.equal(['push', 'push', 'push', 'push', 'push']);
      expect(pushes.items.every((d: { event_type_rule: string }) => d.event_type_rule === 'header:x-github-event')).to.equal(true);
      const paged = (await owner(http.get(`/api/ledger?event=webhook%20delivery&hook=${github}&event_type=push&limit=2`)).expect(200)).body;
      const next = (await owner(http.get(`/api/ledger?event=webhook%20delivery&hook=${github}&event_type=push&limit=10&before=${paged.next_cursor}`)).expect(200)).body;
      expect([...paged.items, ...next.items].map((d: { id: string }) => d.id)).to.deep.equal(pushes.items.map((d: { id: string }) => d.id));

      const across = (await owner(http.get('/api/ledger?event=webhook%20delivery&event_type=invoice.paid')).expect(200)).body;
      expect(across.items.length).to.be.at.least(1);
      expect(across.items.every((d: { event_type: string; hook_id: string }) => d.event_type === 'invoice.paid' && d.hook_id === hooks.get('stripe'))).to.equal(true);
      expect((await owner(http.get('/api/ledger?event=webhook%20delivery&event_type=no.such.type')).expect(200)).body.items).to.deep.equal([]);

      const counts = (await owner(http.get(`/api/ledger/event-types?hook=${github}`)).expect(200)).body;
      expect(counts).to.deep.equal({ ok: true, event: 'webhook delivery', hook: github, items: [{ event_type: 'push', count: 5 }, { event_type: 'issues', count: 1 }], more: false });
      const all = (await owner(http.get('/api/ledger/event-types')).expect(200)).body;
      expect(all.items.find((c: { event_type: string }) => c.event_type === 'push').count).to.equal(5);
      expect(all.items.map((c: { event_type: string }) => c.event_type)).to.include.members(SENDERS.map((s) => s.eventType));
    });

    it('takes the type from the webhook’s event_type_path when set, a body path or a header', async function () {
      const created = await owner(http.post('/api/objects/webhook')).send({ name: 'custom', event_type_path: 'data.kind' }).expect(201);
      expect(created.body.event_type_path).to.equal('data.kind');
      const path = `/hook/${created.body.id}`;
      const byBody = await send(svc.server, path, { 'Content-Type': 'application/json' }, Buffer.from('{"type":"ignored","data":{"kind":"nightly.report"}}'));
      expect(byBody.body.event_type).to.equal('nightly.report');
      expect(await entry(byBody.body.entry)).to.include({ event_type: 'nightly.report', event_type_rule: 'path:data.kind' });
      const fallback = await send(svc.server, path, { 'Content-Type': 'application/json' }, Buffer.from('{"type":"order.paid"}'));
      expect(await entry(fallback.body.entry)).to.include({ event_type: 'order.paid', event_type_rule: 'body:type' });
      const patched = await owner(http.patch(`/api/objects/webhook/${created.body.id}`)).send({ event_type_path: 'header:X-Kind' }).expect(200);
      expect(patched.body.event_type_path).to.equal('header:X-Kind');
      const byHeader = await send(svc.server, path, { 'Content-Type': 'text/plain', 'X-Kind': 'backup.done' }, Buffer.from('binary-ish \u0000'));
      expect(await entry(byHeader.body.entry)).to.include({ event_type: 'backup.done', event_type_rule: 'path:header:X-Kind' });
      const none = await send(svc.server, path, { 'Content-Type': 'application/octet-stream' }, Buffer.from([0xff, 0x00, 0x10]));
      expect(await entry(none.body.entry)).to.include({ event_type: null, event_type_rule: null });
    });

    it('refuses bad settings and parameters with a coded error naming the field, and changes nothing', async function () {
      const before = (await owner(http.get('/api/objects/webhook')).expect(200)).body.items.length;
      const refuse = async (body: object, field: string) => {
        const res = await owner(http.post('/api/objects/webhook')).send({ name: 'bad', ...body }).expect(400);
        expect(res.body.error, JSON.stringify(body)).to.deep.include({ code: 'invalid_request', field });
        return res.body.error;
      };
      expect((await refuse({ signature: { scheme: 'nope', secret: 'long-enough-secret' } }, 'signature.scheme')).schemes).to.include.members(['slack', 'discord', 'sendgrid']);
      expect((await refuse({ signature: { scheme: 'discord', secret: 'not-a-public-key' } }, 'signature.secret')).message).to.contain('64 hex');
      await refuse({ signature: { scheme: 'sendgrid', secret: 'bm90IGEga2V5IGF0IGFsbA==' } }, 'signature.secret');
      await refuse({ signature: { scheme: 'standard-webhooks', secret: 'whsec_***not base64***' } }, 'signature.secret');
      await refuse({ signature: { scheme: 'stripe', secret: 'whsec_ok_secret', tolerance_s: 0 } }, 'signature.tolerance_s');
      await refuse({ signature: { scheme: 'stripe', secret: 'whsec_ok_secret', tolerance_s: 86_401 } }, 'signature.tolerance_s');
      await refuse({ signature: { scheme: 'stripe', secret: 'whsec_ok_secret', tolerance_s: 1.5 } }, 'signature.tolerance_s');
      await refuse({ event_type_path: 'bad path!' }, 'event_type_path');
      expect((await owner(http.get('/api/objects/webhook')).expect(200)).body.items.length).to.equal(before);
      const stripe = hooks.get('stripe')!;
      await owner(http.patch(`/api/objects/webhook/${stripe}`)).send({ event_type_path: 'a'.repeat(101) }).expect(400);
      await owner(http.patch(`/api/objects/webhook/${stripe}`)).send({ signature: { scheme: 'stripe', secret: 'short' } }).expect(400);
      const kept = (await owner(http.get(`/api/objects/webhook/${stripe}`)).expect(200)).body;
      expect(kept).to.deep.include({ event_type_path: null, signature: { scheme: 'stripe', header: null, require: true, tolerance_s: null, secret_set: true } });
      const windowed = await owner(http.patch(`/api/objects/webhook/${stripe}`)).send({ signature: { scheme: 'stripe', secret: 'whsec_stripe_test_0123456789', require: true, tolerance_s: 60 } }).expect(200);
      expect(windowed.body.signature.tolerance_s).to.equal(60);

      await owner(http.get(`/api/ledger?event=webhook%20delivery&event_type=${'x'.repeat(201)}`)).expect(400);
      await owner(http.get('/api/ledger?event=webhook%20delivery&event_type=')).expect(400);
      await owner(http.get('/api/ledger?event=webhook%20delivery&event_type=a&event_type=b')).expect(400);
      await owner(http.get('/api/ledger?event=invocation&key=WEB_FETCH&event_type=push')).expect(400);
      await owner(http.get('/api/ledger/event-types?hook=hk_000000000000')).expect(404);
      await owner(http.get('/api/ledger/event-types?hook=nope')).expect(400);
      await owner(http.get('/api/ledger/event-types?limit=5')).expect(400);
      await http.get('/api/ledger/event-types').expect(401);
      await http.get('/api/ledger?event=webhook%20delivery&event_type=push').expect(401);
    });
  });
}
