// Idempotency-Key on POST /api/dispatch, through the real app on each engine: the same key from
// the same credential answers the first run's record and never runs again; another request under
// the key is 422; a run still going under it is 409; another credential's key is its own; a first
// attempt that never ran (the database refused it) does not hold the key. Keys past 24 h are
// deleted by the run sweeper, a bounded number per sweep (a clock the test moves, and the app's own).
import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { KnexIdempotencyKeyStore, KnexInvocationStore, KnexRunReservations, openDatabase, type Database } from '@switchyard/storage-knex';
import { IDEMPOTENCY_SWEEP_LIMIT, IDEMPOTENCY_WINDOW_MS, IdempotentRuns, requestHash, type Clock } from '@switchyard/core';
import { PROJECT_ROOT } from '@switchyard/app';
import { TEST_API_KEY, engines, freshDatabase, startListeningService, type ListeningService } from '../support/app.js';

const SIDE_EFFECT = join(PROJECT_ROOT, 'test', 'support', 'side-effect-mcp-server.mjs');
const OPEN = { auth: 'none', risk: 'low', approval: false };

for (const engine of engines()) {
  describe(`Idempotency-Key on POST /api/dispatch (${engine})`, function () {
    this.timeout(60_000);
    let svc: ListeningService;
    let dir: string;
    let marks: string;

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'switchyard-idempotency-'));
      marks = join(dir, 'marks');
      // A short run lease: the run sweeper (which also forgets expired keys) runs every 200 ms.
      svc = await startListeningService(engine, { dispatch: { timeoutMs: 3000, runLeaseMs: 400 }, upstreams: { servers: { side: { system: 'SIDE', transport: 'stdio', command: process.execPath, args: [SIDE_EFFECT, marks], defaults: OPEN } } } });
    });
    after(async () => {
      await svc?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const timesRun = (label: string): number => (existsSync(marks) ? readFileSync(marks, 'utf8').split('\n').filter((m) => m === label).length : 0);
    const dispatch = (key: string, body: unknown, credential: Record<string, string> = { 'x-sheets-key': TEST_API_KEY }) =>
      request(svc.switchyard.app).post('/api/dispatch').set(credential).set('idempotency-key', key).send({ key: 'SIDE_MARK', body });

    it('a retry with the same key and body answers the first run, which ran once', async () => {
      const first = await dispatch('order-1', { label: 'once' }).expect(200);
      const again = await dispatch('order-1', { label: 'once' }).expect(200);
      expect(first.headers['idempotent-replayed']).to.equal(undefined);
      expect(again.headers['idempotent-replayed']).to.equal('true');
      expect(again.body.invocation.id).to.equal(first.body.invocation.id);
      expect(again.body.result).to.deep.equal(first.body.result);
      expect(timesRun('once')).to.equal(1);
    });

    it('the same key with another body is 422 idempotency_key_reused, and nothing runs', async () => {
      await dispatch('order-2', { label: 'first-body' }).expect(200);
      const reused = await dispatch('order-2', { label: 'second-body' }).expect(422);
      expect(reused.body.error).to.include({ code: 'idempotency_key_reused', idempotency_key: 'order-2' });
      expect(timesRun('second-body')).to.equal(0);
    });

    it('while the first run is still going, 409 idempotency_key_in_progress; once it ends, its record', async () => {
      const pending = dispatch('order-3', { label: 'slow', block: true }).then((r) => r);
      const deadline = Date.now() + 20_000;
      while (timesRun('slow') === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      const busy = await dispatch('order-3', { label: 'slow', block: true }).expect(409);
      expect(busy.body.error.code).to.equal('idempotency_key_in_progress');
      const first = await pending;
      // The upstream never answers: the run times out, and that failure is what the key answers.
      expect(first.body.invocation.error.code).to.equal('upstream_timeout');
      const after = await dispatch('order-3', { label: 'slow', block: true });
      expect(after.status).to.equal(first.status);
      expect(after.body.invocation.id).to.equal(first.body.invocation.id);
      expect(timesRun('slow')).to.equal(1);
    });

    it("another credential's key of the same name is its own", async () => {
      const minted = await request(svc.switchyard.app).post('/api/tokens').set('x-sheets-key', TEST_API_KEY).send({ moves: ['invoke:SIDE_MARK'] }).expect(201);
      const bearer = { authorization: `Bearer ${minted.body.token}` };
      const owners = await dispatch('order-4', { label: 'shared-name' }).expect(200);
      const tokens = await dispatch('order-4', { label: 'shared-name' }, bearer).expect(200);
      expect(tokens.body.invocation.id).to.not.equal(owners.body.invocation.id);
      expect((await dispatch('order-4', { label: 'shared-name' }, bearer).expect(200)).body.invocation.id).to.equal(tokens.body.invocation.id);
      expect(timesRun('shared-name')).to.equal(2);
    });

    it('a key that is not 1–255 printable ASCII characters is 400, and nothing runs', async () => {
      for (const bad of ['x'.repeat(256), 'caf\u00e9']) {
        const res = await request(svc.switchyard.app).post('/api/dispatch').set('x-sheets-key', TEST_API_KEY).set('idempotency-key', Buffer.from(bad).toString('latin1')).send({ key: 'SIDE_MARK', body: { label: 'bad-key' } });
        expect(res.status).to.equal(400);
        expect(res.body.error.code).to.equal('invalid_request');
      }
      expect(timesRun('bad-key')).to.equal(0);
    });

    it('a key claimed by a process that died before its run began is taken over once the claim lapses: the retry runs, once', async () => {
      const db = (await svc.switchyard.container.getAsync<Database>(Symbol.for('switchyard.Database'))).knex;
      const body = { label: 'claimed-then-died' };
      // What such a process leaves: the claim, naming a run that is neither reserved nor in the ledger.
      await db('idempotency_keys').insert({ scope: 'owner', key: 'order-6', request_hash: requestHash({ key: 'SIDE_MARK', body }), invocation: 'inv_neverreserved000000', lease_until: Date.now() - 1, created_at: Date.now() - 60_000 });
      const retried = await dispatch('order-6', body).expect(200);
      expect(retried.body.invocation.id).to.not.equal('inv_neverreserved000000');
      expect((await dispatch('order-6', body).expect(200)).body.invocation.id).to.equal(retried.body.invocation.id);
      expect(timesRun('claimed-then-died')).to.equal(1);
      // Another request under that key is still refused: the key now names the retry's run.
      expect((await dispatch('order-6', { label: 'other' }).expect(422)).body.error.code).to.equal('idempotency_key_reused');
    });

    it('a first attempt refused before it became a run (404) lets go of the key: the retry is answered afresh, not 409', async () => {
      const unknown = () => request(svc.switchyard.app).post('/api/dispatch').set('x-sheets-key', TEST_API_KEY).set('idempotency-key', 'order-7').send({ key: 'SIDE_MRK', body: {} });
      expect((await unknown().expect(404)).body.error.code).to.equal('unknown_capability');
      expect((await unknown().expect(404)).body.error.code).to.equal('unknown_capability');
    });

    it('the run sweeper deletes keys first used over 24 h ago in the background, and keeps younger ones', async () => {
      const db = (await svc.switchyard.container.getAsync<Database>(Symbol.for('switchyard.Database'))).knex;
      const claim = (key: string, ageMs: number) => ({ scope: 'owner', key, request_hash: requestHash({ key }), invocation: `inv_${key.replace(/-/g, '')}0000000000`, lease_until: 0, created_at: Date.now() - ageMs });
      await db('idempotency_keys').insert([claim('expired-1', IDEMPOTENCY_WINDOW_MS + 60_000), claim('young-1', IDEMPOTENCY_WINDOW_MS - 3_600_000)]);
      const deadline = Date.now() + 20_000;
      const left = async () => ((await db('idempotency_keys').whereIn('key', ['expired-1', 'young-1']).select('key')) as Array<{ key: string }>).map((r) => r.key);
      while ((await left()).includes('expired-1') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(await left()).to.deep.equal(['young-1']);
    });

    /** tools/call on /mcp as a client sends it, the idempotency key in params._meta. */
    const callTool = async (key: string | undefined, args: Record<string, unknown>, face: { path: string; tool: string } = { path: '/mcp', tool: 'SIDE_MARK' }) => {
      const res = await fetch(`${svc.url}${face.path}`, {
        method: 'POST',
        headers: { 'x-sheets-key': TEST_API_KEY, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: face.tool, arguments: args, ...(key ? { _meta: { 'io.switchyard/idempotency-key': key } } : {}) } }),
      });
      const text = await res.text();
      const json = text.startsWith('{') ? text : text.split('\n').find((l) => l.startsWith('data:'))!.slice(5);
      return JSON.parse(json) as { result?: { _meta: { 'switchyard/run': { invocation: string; ok: boolean } } }; error?: { code: number; data: { code: string } } };
    };

    it('on /mcp, _meta io.switchyard/idempotency-key: a retry answers the first call, other arguments are refused', async () => {
      const first = await callTool('mcp-1', { label: 'mcp-once' });
      const again = await callTool('mcp-1', { label: 'mcp-once' });
      expect(first.result!._meta['switchyard/run'].ok).to.equal(true);
      expect(again.result!._meta['switchyard/run'].invocation).to.equal(first.result!._meta['switchyard/run'].invocation);
      expect(timesRun('mcp-once')).to.equal(1);
      const reused = await callTool('mcp-1', { label: 'mcp-other' });
      expect(reused.error!.data.code).to.equal('idempotency_key_reused');
      expect(timesRun('mcp-other')).to.equal(0);
      // The HTTP face and the MCP face share the credential's keys: the same key is the same run.
      const viaHttp = await dispatch('mcp-1', { label: 'mcp-once' }).expect(200);
      expect(viaHttp.body.invocation.id).to.equal(first.result!._meta['switchyard/run'].invocation);
      // Without a key, every call runs.
      await callTool(undefined, { label: 'mcp-keyless' });
      await callTool(undefined, { label: 'mcp-keyless' });
      expect(timesRun('mcp-keyless')).to.equal(2);
    });

    it('on /mcp/servers/<name> too (the server face keeps the key): a retry answers the first call', async () => {
      const face = { path: '/mcp/servers/side', tool: 'mark' };
      const first = await callTool('server-1', { label: 'server-once' }, face);
      const again = await callTool('server-1', { label: 'server-once' }, face);
      expect(first.result, JSON.stringify(first)).to.not.equal(undefined);
      expect(again.result!._meta['switchyard/run'].invocation).to.equal(first.result!._meta['switchyard/run'].invocation);
      expect(timesRun('server-once')).to.equal(1);
      const reused = await callTool('server-1', { label: 'server-other' }, face);
      expect(reused.error!.data.code).to.equal('idempotency_key_reused');
      expect(timesRun('server-other')).to.equal(0);
    });

    it('on /mcp at 2026-07-28 (no session, the envelope in _meta): the same key is the same run', async () => {
      const call = async (key: string, label: string) => {
        const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' }, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.switchyard/idempotency-key': key };
        const res = await fetch(`${svc.url}/mcp`, {
          method: 'POST',
          headers: { 'x-sheets-key': TEST_API_KEY, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'SIDE_MARK' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'SIDE_MARK', arguments: { label }, _meta: meta } }),
        });
        const text = await res.text();
        const json = text.startsWith('{') ? text : text.split('\n').find((l) => l.startsWith('data:'))!.slice(5);
        return JSON.parse(json) as { result?: { _meta: { 'switchyard/run': { invocation: string; ok: boolean } } }; error?: { code: number; data: { code: string } } };
      };
      const first = await call('modern-1', 'modern-once');
      const again = await call('modern-1', 'modern-once');
      expect(first.result, JSON.stringify(first)).to.not.equal(undefined);
      expect(again.result!._meta['switchyard/run'].invocation).to.equal(first.result!._meta['switchyard/run'].invocation);
      expect(timesRun('modern-once')).to.equal(1);
      const reused = await call('modern-1', 'modern-other');
      expect(reused.error!.data.code).to.equal('idempotency_key_reused');
      expect(timesRun('modern-other')).to.equal(0);
    });

    if (engine === 'sqlite') {
      it('a first attempt the database refused (503) does not hold the key: the retry runs, once', async () => {
        const writer = (await svc.switchyard.container.getAsync<Database>(Symbol.for('switchyard.Database'))).knex;
        // The database is read-only: neither the key's claim nor the run goes in.
        await writer.raw('PRAGMA query_only = 1');
        let refused: request.Response;
        try {
          refused = await dispatch('order-5', { label: 'after-outage' });
        } finally {
          await writer.raw('PRAGMA query_only = 0');
        }
        expect(refused.status).to.equal(503);
        expect(refused.body.error.code).to.equal('storage_unavailable');
        const retried = await dispatch('order-5', { label: 'after-outage' }).expect(200);
        expect(retried.headers['idempotent-replayed']).to.equal(undefined);
        expect((await dispatch('order-5', { label: 'after-outage' }).expect(200)).body.invocation.id).to.equal(retried.body.invocation.id);
        expect(timesRun('after-outage')).to.equal(1);
      });
    }
  });
}

for (const engine of engines()) {
  describe(`idempotency keys expire: the sweep with a clock the test moves (${engine})`, function () {
    this.timeout(60_000);
    let db: Awaited<ReturnType<typeof freshDatabase>>;
    let opened: Database;
    let now: number;
    let runs: IdempotentRuns;
    let keys: KnexIdempotencyKeyStore;
    const clock: Clock = { now: () => new Date(now) };

    beforeEach(async () => {
      db = await freshDatabase(engine);
      opened = await openDatabase(db.url, { leafWorker: false });
      now = Date.parse('2026-01-01T00:00:00Z');
      keys = new KnexIdempotencyKeyStore(opened.knex);
      runs = new IdempotentRuns(keys, new KnexInvocationStore(opened.knex), new KnexRunReservations(opened.knex, { leaseMs: 1000 }), clock);
    });
    afterEach(async () => {
      await opened.close();
      await db.drop();
    });

    const claimAt = async (key: string, at: number) =>
      expect(await keys.claim({ scope: 'owner', key, request_hash: requestHash({ key }), invocation: `inv_${key.replace(/-/g, '')}000000000000`, lease_until: at, created_at: at })).to.equal(null);
    const stored = async (): Promise<number> => Number(((await opened.knex('idempotency_keys').count({ n: '*' })) as Array<{ n: number | string }>)[0]!.n);

    it('forgets nothing inside 24 h, then the expired ones oldest first, at most IDEMPOTENCY_SWEEP_LIMIT per sweep', async () => {
      const start = now;
      const expiring = IDEMPOTENCY_SWEEP_LIMIT + 20;
      for (let i = 0; i < expiring; i++) await claimAt(`old-${i}`, start + i);
      await claimAt('half-day', start + IDEMPOTENCY_WINDOW_MS / 2);

      now = start + IDEMPOTENCY_WINDOW_MS - 1;
      expect(await runs.forgetExpired()).to.equal(0);
      expect(await stored()).to.equal(expiring + 1);

      now = start + IDEMPOTENCY_WINDOW_MS + expiring;
      expect(await runs.forgetExpired()).to.equal(IDEMPOTENCY_SWEEP_LIMIT);
      // Oldest first: the ones left are the youngest of the expired.
      const left = ((await opened.knex('idempotency_keys').select('key')) as Array<{ key: string }>).map((r) => r.key).sort();
      expect(left).to.deep.equal([...Array.from({ length: 20 }, (_, i) => `old-${IDEMPOTENCY_SWEEP_LIMIT + i}`), 'half-day'].sort());
      expect(await runs.forgetExpired()).to.equal(20);
      expect(await runs.forgetExpired()).to.equal(0);
      expect(await stored()).to.equal(1);

      now = start + IDEMPOTENCY_WINDOW_MS * 1.5;
      expect(await runs.forgetExpired(10)).to.equal(1);
      expect(await stored()).to.equal(0);
    });

    it('a key forgotten and deleted is claimed afresh by its next use', async () => {
      await claimAt('order-x', now);
      now += IDEMPOTENCY_WINDOW_MS;
      expect(await runs.forgetExpired()).to.equal(1);
      const answer = await runs.run({ actor: 'owner', fingerprint: null, mayRunAuthRequired: true, principal: { kind: 'owner' } }, 'order-x', { key: 'another' }, async (id) => {
        throw Object.assign(new Error(`refused before running ${id}`), { id });
      }).then(() => null, (e: Error & { id?: string }) => e);
      // The new request took the key (its run was then refused, which lets go of it again).
      expect(answer!.message).to.match(/^refused before running inv_/);
      const row = (await opened.knex('idempotency_keys').where({ key: 'order-x' }).first()) as { request_hash: string; created_at: number | string };
      expect(row.request_hash).to.equal(requestHash({ key: 'another' }));
      expect(Number(row.created_at)).to.equal(now);
    });
  });
}
