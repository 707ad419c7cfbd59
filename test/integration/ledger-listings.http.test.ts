// Ledger listings bounded by bytes: large delivery bodies are left out of /api/ledger (size, SHA-256
// and a URL that streams them instead), a page never passes the byte budget, and invocations are
// listed in /api/ledger by the same order and cursor rule as deliveries and /api/invocations.
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import request from 'supertest';
import { TEST_API_KEY, engines, startTestService, type TestService } from '../support/app.js';

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');
const MiB = 1024 * 1024;

/** Reads an answer as raw bytes, whatever its content type. */
const raw = (res: request.Response, done: (err: Error | null, body: Buffer) => void) => {
  const parts: Buffer[] = [];
  res.on('data', (c: Buffer) => parts.push(c));
  res.on('end', () => done(null, Buffer.concat(parts)));
};

interface Listed {
  id: string;
  seq: number;
  body: string | null;
  body_encoding: string | null;
  body_size: number;
  body_omitted: boolean;
  body_sha256: string | null;
  body_url: string | null;
}

for (const engine of engines()) {
  describe(`ledger listings bounded by bytes (${engine})`, function () {
    this.timeout(240_000);

    describe('fifty deliveries of 9 MiB', function () {
      let svc: TestService;
      let http: ReturnType<typeof request>;
      let hook: string;
      const bodies: Buffer[] = [];

      before(async function () {
        svc = await startTestService(engine);
        http = request(svc.switchyard.app);
        hook = (await http.post('/api/objects/webhook').set('x-sheets-key', TEST_API_KEY).send({ name: 'big bodies' }).expect(201)).body.id;
        // One 9 MiB buffer, its first bytes made unique per delivery.
        const base = Buffer.alloc(9 * MiB, 'abcdefghij');
        for (let i = 0; i < 50; i++) {
          const body = Buffer.from(base);
          body.write(`{"n":${i}}`, 0);
          bodies.push(body);
          await http.post(`/hook/${hook}`).set('content-type', 'application/x-big; charset=utf-8').send(body).expect(200);
        }
      });
      after(async () => svc?.close());

      it('answers a 50-item page in well under 32 MB: each body left out, with its size, SHA-256 and a URL', async () => {
        const res = await http.get(`/api/ledger?event=webhook%20delivery&hook=${hook}&limit=50`).set('x-sheets-key', TEST_API_KEY).expect(200);
        expect(Buffer.byteLength(res.text)).to.be.at.most(32 * MiB);
        // Left out, the bodies take nothing: the page is the entries' metadata alone.
        expect(Buffer.byteLength(res.text)).to.be.below(64 * 1024);
        expect(res.body.items).to.have.length(50);
        expect(res.body.next_cursor).to.equal(null);
        const newestFirst = [...bodies].reverse();
        res.body.items.forEach((d: Listed, i: number) => {
          expect(d).to.include({ body: null, body_encoding: null, body_omitted: true, body_size: 9 * MiB, body_sha256: sha256(newestFirst[i]!) });
          expect(d.body_url).to.match(new RegExp(`/api/ledger/${d.id}/body$`));
        });
      });

      it('streams a body from its body_url byte for byte, with its original content type and digest', async () => {
        const [d] = (await http.get(`/api/ledger?event=webhook%20delivery&hook=${hook}&limit=1&order=append`).set('x-sheets-key', TEST_API_KEY).expect(200)).body.items as Listed[];
        const path = new URL(d!.body_url!).pathname;
        await http.get(path).expect(401);
        const res = await http.get(path).set('x-sheets-key', TEST_API_KEY).buffer(true).parse(raw).expect(200);
        expect(res.headers['content-type']).to.equal('application/x-big; charset=utf-8');
        expect(res.headers['x-content-type-options']).to.equal('nosniff');
        expect(res.headers['content-security-policy']).to.match(/sandbox/);
        expect(res.headers['repr-digest']).to.equal(`sha-256=:${Buffer.from(d!.body_sha256!, 'hex').toString('base64')}:`);
        expect((res.body as Buffer).equals(bodies[0]!)).to.equal(true);
      });

      it('shows a large body on the dashboard by its hash and a link that streams it', async () => {
        const agent = request.agent(svc.switchyard.app);
        await agent.post('/dashboard/login').type('form').send({ api_key: TEST_API_KEY, next: '/dashboard' }).expect(303);
        const [d] = (await http.get(`/api/ledger?event=webhook%20delivery&hook=${hook}&limit=1`).set('x-sheets-key', TEST_API_KEY).expect(200)).body.items as Listed[];
        const page = await agent.get(`/dashboard/deliveries/${d!.id}`).expect(200);
        expect(Buffer.byteLength(page.text)).to.be.below(64 * 1024);
        expect(page.text).to.include(d!.body_sha256!).and.include(`/dashboard/deliveries/${d!.id}/body`);
        expect(page.text).not.to.include('abcdefghijabcdefghij');
        const list = await agent.get(`/dashboard/webhooks/${hook}`).expect(200);
        expect(Buffer.byteLength(list.text)).to.be.below(128 * 1024);
        const body = await agent.get(`/dashboard/deliveries/${d!.id}/body`).buffer(true).parse(raw).expect(200);
        expect(body.headers['content-type']).to.equal('application/x-big; charset=utf-8');
        expect((body.body as Buffer).equals(bodies[49]!)).to.equal(true);
        await request(svc.switchyard.app).get(`/dashboard/deliveries/${d!.id}/body`).expect(303);
      });
    });

    describe('pages within the byte budget', function () {
      let svc: TestService;
      let http: ReturnType<typeof request>;
      let hook: string;
      const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);
      const PAGE_BYTES = 65_536;

      before(async function () {
        svc = await startTestService(engine, { ledger: { inlineBodyBytes: 20_000, pageBytes: PAGE_BYTES }, webhooks: { bodyLimitBytes: 40_000 } });
        http = request(svc.switchyard.app);
        hook = (await owner(http.post('/api/objects/webhook')).send({ name: 'budget' }).expect(201)).body.id;
        for (let i = 0; i < 12; i++) await http.post(`/hook/${hook}`).set('content-type', 'text/plain').send(`${i}:${'x'.repeat(12_000)}`).expect(200);
        // Over the inline threshold: left out. Under it, but six bytes a byte as JSON: too large alone.
        await http.post(`/hook/${hook}`).set('content-type', 'text/plain').send('y'.repeat(30_000)).expect(200);
        await http.post(`/hook/${hook}`).set('content-type', 'application/octet-stream').send(Buffer.alloc(15_000, 1)).expect(200);
        // Over the webhook's size limit: refused, no body stored.
        await http.post(`/hook/${hook}`).set('content-type', 'text/plain').send('z'.repeat(50_000)).expect(413);
      });
      after(async () => svc?.close());

      it('ends a page early, with a cursor, before the next item would pass the budget; the pages together are the whole listing', async () => {
        for (const [first, param] of [['order=newest', 'before'], ['order=append', 'after']] as const) {
          const seen: Listed[] = [];
          const sizes: number[] = [];
          let cursor: string | null = null;
          do {
            const res: request.Response = await owner(http.get(`/api/ledger?event=webhook%20delivery&hook=${hook}&limit=1000&${cursor ? `${param}=${cursor}` : first}`)).expect(200);
            sizes.push(Buffer.byteLength(res.text));
            seen.push(...res.body.items);
            cursor = res.body.next_cursor;
          } while (cursor);
          expect(Math.max(...sizes), `${param}: no page passes the budget`).to.be.at.most(PAGE_BYTES);
          expect(sizes.length, `${param}: the budget, not the limit, ended the pages`).to.be.greaterThan(2);
          expect(seen).to.have.length(15);
          const seqs = seen.map((d) => d.seq);
          expect(seqs).to.deep.equal([...seqs].sort((a, b) => (param === 'before' ? b - a : a - b)));
        }
      });

      it('leaves out a body over the threshold, and one that alone would pass the budget; a refused body has no URL', async () => {
        // The binary body does not fit beside the refusal: the first page ends after it.
        const page1 = (await owner(http.get(`/api/ledger?event=webhook%20delivery&hook=${hook}&limit=3`)).expect(200)).body;
        expect(page1.items).to.have.length(1);
        const page2 = (await owner(http.get(`/api/ledger?event=webhook%20delivery&hook=${hook}&limit=2&before=${page1.next_cursor}`)).expect(200)).body;
        const [refused, binary, long] = [...page1.items, ...page2.items] as Listed[];
        expect(refused).to.include({ body: null, body_omitted: false, body_sha256: null, body_url: null, body_size: 50_000 });
        expect(binary).to.include({ body: null, body_omitted: true, body_size: 15_000, body_sha256: sha256(Buffer.alloc(15_000, 1)) });
        expect(long).to.include({ body: null, body_omitted: true, body_size: 30_000, body_sha256: sha256('y'.repeat(30_000)) });
        const err = await owner(http.get(`/api/ledger/${refused!.id}/body`)).expect(404);
        expect(err.body.error.code).to.equal('not_found');
        expect((await owner(http.get('/api/ledger/dlv_doesnotexist/body')).expect(404)).body.error.code).to.equal('not_found');
        // A body under the threshold is inline, and its URL gives the same bytes.
        const small = (await owner(http.get(`/api/ledger?event=webhook%20delivery&hook=${hook}&order=append&limit=1`)).expect(200)).body.items[0] as Listed;
        expect(small).to.include({ body_omitted: false, body_encoding: 'utf8', body_sha256: sha256(small.body!) });
        const bytes = await owner(http.get(new URL(small.body_url!).pathname)).buffer(true).parse(raw).expect(200);
        expect(bytes.headers['content-type']).to.equal('text/plain');
        expect((bytes.body as Buffer).toString()).to.equal(small.body);
      });

      it('refuses filters and cursors that do not belong, changing nothing', async () => {
        for (const q of ['event=webhook%20delivery&key=EDGE_X', 'event=invocation&hook=hk_000000000000', 'event=webhook%20delivery&before=1&after=1', 'event=invocation&order=up', 'event=invocation&key=not-a-key', 'event=nothing']) {
          expect((await owner(http.get(`/api/ledger?${q}`)).expect(400)).body.error.code, q).to.equal('invalid_request');
        }
        await http.get('/api/ledger?event=invocation').expect(401);
      });
    });

    describe('invocations in /api/ledger', function () {
      let svc: TestService;
      let http: ReturnType<typeof request>;
      const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);
      const GROUP = 'MESSAGING_UPDATE_GROUP';
      const ids: string[] = [];

      before(async function () {
        svc = await startTestService(engine);
        http = request(svc.switchyard.app);
        for (let i = 0; i < 5; i++) {
          const run = await owner(http.post('/api/dispatch')).send({ key: GROUP, body: { group_id: 'grp_4f7c2a9d1e', name: `Name ${i}` } });
          ids.push(run.body.invocation.id);
          const bad = await owner(http.post('/api/dispatch')).send({ key: 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER', body: { nonsense: true } });
          ids.push(bad.body.invocation.id);
        }
      });
      after(async () => svc?.close());

      it('pages every invocation newest first, whole, as event "invocation"', async () => {
        const seen: Array<{ id: string; event: string; args: unknown; result: unknown; actor: string }> = [];
        let cursor: string | null = null;
        do {
          const res: request.Response = await owner(http.get(`/api/ledger?event=invocation&limit=3${cursor ? `&before=${cursor}` : ''}`)).expect(200);
          expect(res.body).to.include({ ok: true, event: 'invocation', order: 'newest first' });
          seen.push(...res.body.items);
          cursor = res.body.next_cursor;
        } while (cursor);
        expect(seen.map((i) => i.id)).to.deep.equal([...ids].reverse());
        for (const item of seen) expect(item).to.include({ event: 'invocation', actor: 'owner' }).and.to.have.property('args');
        expect(seen[1]).to.deep.include({ args: { group_id: 'grp_4f7c2a9d1e', name: 'Name 4' } });
      });

      it('filters by key and shares the order and cursor of /api/invocations', async () => {
        for (const [first, param] of [['order=newest', 'before'], ['order=append', 'after']] as const) {
          const walk = async (path: string) => {
            const out: string[] = [];
            let cursor: string | null = null;
            do {
              const res: request.Response = await owner(http.get(`${path}&limit=2&${cursor ? `${param}=${cursor}` : first}`)).expect(200);
              out.push(...res.body.items.map((i: { id: string }) => i.id));
              cursor = res.body.next_cursor;
            } while (cursor);
            return out;
          };
          const viaLedger = await walk(`/api/ledger?event=invocation&key=${GROUP}`);
          const viaInvocations = await walk(`/api/invocations?object_id=${GROUP}`);
          const expected = ids.filter((_, i) => i % 2 === 0);
          expect(viaLedger).to.deep.equal(param === 'before' ? [...expected].reverse() : expected);
          expect(viaInvocations).to.deep.equal(viaLedger);
          // A key matches in any letter case, as everywhere else; the answer names the ledger's key.
          expect(await walk(`/api/ledger?event=invocation&key=${GROUP.toLowerCase()}`)).to.deep.equal(viaLedger);
        }
        const named = await owner(http.get(`/api/ledger?event=invocation&key=${GROUP.toLowerCase()}&limit=1`)).expect(200);
        expect(named.body.key).to.equal(GROUP);
      });
    });
  });
}
