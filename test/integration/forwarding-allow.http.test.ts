// The owner's run-time allowlist of forwarding destinations, through HTTP against the real app and
// storage on both engines, to a real receiver on loopback: a loopback destination refused, admitted
// with POST /api/forwarding/allow (no restart), forwarded to, refused again once the entry is
// deleted; bad entries refused with the field named and nothing stored. On PostgreSQL, two service
// processes on one database agree: an entry one adds, the other admits.
import { expect } from 'chai';
import request from 'supertest';
import { TEST_API_KEY, engines, freshDatabase, startListeningService, type ListeningService } from '../support/app.js';
import { startServiceProcess, type Child } from '../support/processes.js';
import { eventually, startReceiver, type Receiver } from '../support/receiver.js';

for (const engine of engines()) {
  describe(`HTTP forwarding: the run-time allowlist (${engine})`, function () {
    this.timeout(60_000);
    let svc: ListeningService;
    let http: ReturnType<typeof request>;
    let rx: Receiver;
    const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);

    before(async () => {
      rx = await startReceiver();
      svc = await startListeningService(engine, { webhooks: { forwarding: { allow: ['orders.internal:8443'], pollMs: 20 } } });
      http = request(svc.switchyard.app);
    });
    after(async () => {
      await svc?.close();
      await rx?.close();
    });

    it('admits a loopback destination at run time, forwards to it, and refuses it again once the entry is deleted', async () => {
      const hook = (await owner(http.post('/api/objects/webhook')).send({ name: 'local' }).expect(201)).body.id;
      const refused = await owner(http.post(`/api/objects/webhook/${hook}/destinations`)).send({ url: rx.url() }).expect(403);
      expect(refused.body.error).to.include({ code: 'blocked_address', field: 'url' });
      expect(refused.body.error.message).to.contain('POST /api/forwarding/allow');

      const added = await owner(http.post('/api/forwarding/allow')).send({ host: `127.0.0.1:${rx.port}` }).expect(201);
      expect(added.body).to.include({ host: `127.0.0.1:${rx.port}`, added: true });
      expect((await owner(http.post('/api/forwarding/allow')).send({ host: `127.0.0.1:${rx.port}` }).expect(200)).body.added).to.equal(false);
      const listed = (await owner(http.get('/api/forwarding/allow')).expect(200)).body.items;
      expect(listed.map((i: { host: string; source: string }) => `${i.source} ${i.host}`)).to.deep.equal(['config orders.internal:8443', `database 127.0.0.1:${rx.port}`]);

      const dst = (await owner(http.post(`/api/objects/webhook/${hook}/destinations`)).send({ url: rx.url(), retry: { max_attempts: 1 } }).expect(201)).body;
      const state = async (entry: string) => (await owner(http.get(`/api/ledger/${entry}`)).expect(200)).body.entry.forwarding[0];
      const first = (await http.post(`/hook/${hook}`).send({ n: 1 }).expect(200)).body.entry;
      await eventually(async () => ((await state(first)).state === 'delivered' ? true : undefined), 'delivered while admitted');

      expect((await owner(http.delete('/api/forwarding/allow')).send({ host: `127.0.0.1:${rx.port}` }).expect(200)).body).to.include({ removed: true });
      const second = (await http.post(`/hook/${hook}`).send({ n: 2 }).expect(200)).body.entry;
      const dead = await eventually(async () => ((await state(second)).state === 'dead' ? state(second) : undefined), 'refused once taken away');
      const attempt = (await owner(http.get(`/api/invocations/${dead.invocations[0]}`)).expect(200)).body.invocation;
      expect(attempt.error.code).to.equal('blocked_address');
      expect(rx.received.map((r) => r.headers['webhook-id'])).to.deep.equal([first]);
      expect(dst.id).to.match(/^dst_/);
    });

    it('refuses bad entries naming the field, and deleting what is not there or is the configuration’s', async () => {
      for (const host of ['', 'not a host', 'a/b', 'host:0', 'host:65536', '[zz]:80', 'x'.repeat(301)]) {
        const res = await owner(http.post('/api/forwarding/allow')).send({ host }).expect(400);
        expect(res.body.error, host).to.include({ code: 'invalid_request', field: 'host' });
      }
      expect((await owner(http.post('/api/forwarding/allow')).send({ host: 'ok.internal', port: 1 }).expect(400)).body.error.field).to.equal('port');
      expect((await owner(http.post('/api/forwarding/allow')).send(['ok.internal']).expect(400)).body.error.code).to.equal('invalid_request');
      expect((await owner(http.delete('/api/forwarding/allow')).send({ host: 'never.added' }).expect(404)).body.error.code).to.equal('not_found');
      expect((await owner(http.delete('/api/forwarding/allow')).send({ host: 'orders.internal:8443' }).expect(400)).body.error.field).to.equal('host');
      const listed = (await owner(http.get('/api/forwarding/allow')).expect(200)).body.items;
      expect(listed.filter((i: { source: string }) => i.source === 'database')).to.deep.equal([]);
      // The owner's alone.
      await http.get('/api/forwarding/allow').expect(401);
      await http.post('/api/forwarding/allow').send({ host: 'x.internal' }).expect(401);
    });
  });
}

if (engines().includes('postgres')) {
  describe('HTTP forwarding: the run-time allowlist across two processes on one PostgreSQL database', function () {
    this.timeout(120_000);

    it('an entry added through one process admits the destination in the other, and its deletion refuses it there', async () => {
      const db = await freshDatabase('postgres');
      const rx = await startReceiver();
      const owner = { 'content-type': 'application/json', 'x-sheets-key': TEST_API_KEY };
      const services: Array<{ child: Child; url: string }> = [];
      try {
        for (let i = 0; i < 2; i++) services.push(await startServiceProcess({ DATABASE_URL: db.url, SWITCHYARD_API_KEY: TEST_API_KEY }));
        const [a, b] = services as [{ child: Child; url: string }, { child: Child; url: string }];
        const call = async (base: string, method: string, path: string, body?: unknown) => {
          const res = await fetch(`${base}${path}`, { method, headers: owner, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
          return { status: res.status, body: (await res.json()) as Record<string, any> };
        };
        const hook = (await call(a.url, 'POST', '/api/objects/webhook', { name: 'shared' })).body.id as string;
        expect((await call(b.url, 'POST', `/api/objects/webhook/${hook}/destinations`, { url: rx.url() })).status).to.equal(403);
        expect((await call(a.url, 'POST', '/api/forwarding/allow', { host: `127.0.0.1:${rx.port}` })).status).to.equal(201);
        // B reads the database: it lists A's entry and admits the destination at once.
        expect((await call(b.url, 'GET', '/api/forwarding/allow')).body.items.map((i: { host: string }) => i.host)).to.deep.equal([`127.0.0.1:${rx.port}`]);
        const dst = await call(b.url, 'POST', `/api/objects/webhook/${hook}/destinations`, { url: rx.url(), retry: { max_attempts: 1 } });
        expect(dst.status).to.equal(201);
        // Deliveries through either process are forwarded (whichever process attempts them).
        const entries: string[] = [];
        for (let n = 0; n < 4; n++) entries.push((await call(n % 2 ? b.url : a.url, 'POST', `/hook/${hook}`, { n })).body.entry);
        await eventually(async () => (entries.every((e) => rx.received.some((r) => r.headers['webhook-id'] === e)) ? true : undefined), 'all forwarded');
        // Taken away through B: A refuses a new destination to it at once.
        expect((await call(b.url, 'DELETE', '/api/forwarding/allow', { host: `127.0.0.1:${rx.port}` })).status).to.equal(200);
        expect((await call(a.url, 'POST', `/api/objects/webhook/${hook}/destinations`, { url: rx.url('/again') })).status).to.equal(403);
      } finally {
        for (const s of services) await s.child.stop();
        await rx.close();
        await db.drop();
      }
    });
  });
}
