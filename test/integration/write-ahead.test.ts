// Write-ahead: a run is reserved in the database before its runner is called. No reservation, no
// run (503 storage_unavailable with Retry-After, the upstream never reached); a run whose process
// died between the upstream call and its outcome ends `interrupted` on its own, listed and
// repairable; a lapsed reservation is ended by another process too. On SQLite and PostgreSQL.
import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { Knex } from 'knex';
import { InterruptedRuns, newInvocationId, interruptedRecord, systemClock, type StoredInvocation } from '@switchyard/core';
import { KnexInvocationStore, KnexRunReservations, openDatabase, type Database } from '@switchyard/storage-knex';
import { PROJECT_ROOT } from '@switchyard/app';
import { TEST_API_KEY, engines, freshDatabase, startListeningService, type ListeningService } from '../support/app.js';
import { startServiceProcess, type Child } from '../support/processes.js';
import { eventually, startReceiver } from '../support/receiver.js';

const SIDE_EFFECT = join(PROJECT_ROOT, 'test', 'support', 'side-effect-mcp-server.mjs');
const OPEN = { auth: 'none', risk: 'low', approval: false };
const sideEffectUpstream = (marks: string) => ({ servers: { side: { system: 'SIDE', transport: 'stdio', command: process.execPath, args: [SIDE_EFFECT, marks], defaults: OPEN } } });
const marksIn = (file: string): string[] => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);
const owner = { 'x-sheets-key': TEST_API_KEY, 'content-type': 'application/json' };

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

for (const engine of engines()) {
  describe(`write-ahead: a run killed between the upstream call and its outcome (${engine})`, function () {
    this.timeout(120_000);

    it('is recorded interrupted at the next start, listed, counted as waste and repairable', async () => {
      const db = await freshDatabase(engine);
      const dir = mkdtempSync(join(tmpdir(), 'switchyard-write-ahead-'));
      const marks = join(dir, 'marks');
      const configFile = join(dir, 'config.json');
      writeFileSync(configFile, JSON.stringify({ dispatch: { timeoutMs: 60_000, runLeaseMs: 500 }, upstreams: sideEffectUpstream(marks) }));
      const env = { SWITCHYARD_API_KEY: TEST_API_KEY, DATABASE_URL: db.url, SWITCHYARD_CONFIG: configFile };
      let service: { child: Child; url: string } | undefined;
      try {
        service = await startServiceProcess(env);
        const url = service.url;
        // The upstream takes the call (its mark is the side effect) and never answers.
        const pending = fetch(`${url}/api/dispatch`, { method: 'POST', headers: owner, body: JSON.stringify({ key: 'SIDE_MARK', body: { label: 'first', block: true } }) }).catch((e: Error) => e);
        await until('the upstream to take the call', () => marksIn(marks).includes('first'));
        await service.child.kill();
        expect(await pending).to.be.instanceOf(Error);

        service = await startServiceProcess(env);
        const listed = await fetch(`${service.url}/api/invocations?object_id=SIDE_MARK`, { headers: owner });
        const items = ((await listed.json()) as { items: StoredInvocation[] }).items;
        expect(items).to.have.length(1);
        const [run] = items;
        expect(run).to.deep.include({ key: 'SIDE_MARK', status: 'interrupted', ok: false, ran: true, result: null, source: 'api', actor: 'owner' });
        expect(run!.error).to.include({ code: 'interrupted' });
        expect(run!.args).to.deep.equal({ label: 'first', block: true });
        expect(run!.yield.waste.bytes).to.be.greaterThan(0);

        // Repairable like any failure; the upstream was called once for the first run, once for the repair.
        const repair = await fetch(`${service.url}/api/dispatch`, { method: 'POST', headers: owner, body: JSON.stringify({ key: 'SIDE_MARK', body: { label: 'repair' }, repairs: run!.id }) });
        const repaired = (await repair.json()) as { ok: boolean; invocation: { repairs: string } };
        expect(repair.status).to.equal(200);
        expect(repaired).to.deep.include({ ok: true });
        expect(repaired.invocation.repairs).to.equal(run!.id);
        expect(marksIn(marks)).to.deep.equal(['first', 'repair']);
        // Its public leaf proves like any other entry once integrated.
        await until('the interrupted run to be proven', async () => (await fetch(`${service!.url}/api/dispatch?receipt=${run!.id}`, { headers: owner })).status === 200);
      } finally {
        await service?.child.stop();
        await db.drop();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe(`write-ahead: a forwarding attempt killed while its destination holds it (${engine})`, function () {
    this.timeout(120_000);

    it('is recorded interrupted at the next start, and the delivery is forwarded again', async () => {
      const db = await freshDatabase(engine);
      const rx = await startReceiver();
      const dir = mkdtempSync(join(tmpdir(), 'switchyard-write-ahead-'));
      const configFile = join(dir, 'config.json');
      writeFileSync(configFile, JSON.stringify({ dispatch: { runLeaseMs: 500 }, webhooks: { forwarding: { allow: [`127.0.0.1:${rx.port}`], pollMs: 50, leaseMs: 1000 } } }));
      const env = { SWITCHYARD_API_KEY: TEST_API_KEY, DATABASE_URL: db.url, SWITCHYARD_CONFIG: configFile };
      let service: { child: Child; url: string } | undefined;
      // The first attempt is held and never answered; later ones are taken.
      rx.answer = (_req, index) => (index === 0 ? 'hang' : { status: 200, body: 'ok' });
      try {
        service = await startServiceProcess(env);
        const hook = (await (await fetch(`${service.url}/api/objects/webhook`, { method: 'POST', headers: owner, body: JSON.stringify({ name: 'held' }) })).json()) as { id: string };
        const created = await fetch(`${service.url}/api/objects/webhook/${hook.id}/destinations`, { method: 'POST', headers: owner, body: JSON.stringify({ url: rx.url(), timeout_ms: 60_000 }) });
        expect(created.status).to.equal(201);
        expect((await fetch(`${service.url}/hook/${hook.id}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n":1}' })).status).to.equal(200);
        await until('the destination to hold the first attempt', () => rx.received.length === 1);
        await service.child.kill();

        service = await startServiceProcess(env);
        const url = service.url;
        const attempts = await eventually(async () => {
          const page = (await (await fetch(`${url}/api/invocations?object_id=WEBHOOK_FORWARD&order=append`, { headers: owner })).json()) as { items: StoredInvocation[] };
          return page.items.some((i) => i.ok) ? page.items : undefined;
        }, 'the delivery forwarded again');
        expect(attempts.map((a) => a.status)).to.deep.equal(['interrupted', 'ok']);
        expect(attempts[0]).to.deep.include({ ok: false, ran: true, actor: `hook:${hook.id}` });
        expect(rx.received).to.have.length(2);
      } finally {
        await service?.child.stop();
        await rx.close();
        await db.drop();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe(`write-ahead: reservations across processes (${engine})`, function () {
    this.timeout(60_000);
    let db: Awaited<ReturnType<typeof freshDatabase>>;
    let one: Database;
    let other: Database;

    beforeEach(async () => {
      db = await freshDatabase(engine);
      one = await openDatabase(db.url, { leafWorker: false });
      other = await openDatabase(db.url, { leafWorker: false });
    });
    afterEach(async () => {
      await one.close();
      await other.close();
      await db.drop();
    });

    const begun = () =>
      interruptedRecord({
        id: newInvocationId(),
        capability: { key: 'SIDE_MARK', path: ['OIP', 'SIDE', 'SIDE_MARK'], cost: undefined },
        caller: { actor: 'owner', fingerprint: null },
        bodyText: '{"label":"x"}',
        args: { label: 'x' },
        links: { repairs: null, replays: null, source: 'api' },
        createdAt: new Date(),
        requestId: 'req-1',
      });

    // Leases are read against a clock the test moves, so a slow machine cannot lapse one early.
    let now = Date.now();
    const clock = () => now;
    const pass = (ms: number) => void (now += ms);

    it('another process ends a run whose holder stopped renewing, once; a renewed one it leaves alone', async () => {
      const holder = new KnexRunReservations(one.knex, { leaseMs: 300 }, clock);
      const sweeper = new InterruptedRuns(new KnexRunReservations(other.knex, { leaseMs: 300 }, clock), new KnexInvocationStore(other.knex), systemClock);
      const renewed = begun();
      const dead = begun();
      await holder.begin(renewed);
      await holder.begin(dead);
      holder.abandon(dead.id); // as a process that died would: no renewal
      expect(await sweeper.sweep()).to.deep.equal([]);
      pass(200);
      await holder.renew();
      pass(200);
      expect(await sweeper.sweep()).to.deep.equal([dead.id]);
      expect(await sweeper.sweep()).to.deep.equal([]);
      const store = new KnexInvocationStore(one.knex);
      expect(await store.get(dead.id)).to.deep.include({ status: 'interrupted', ok: false, ran: true, request_id: 'req-1' });
      expect(await store.get(renewed.id)).to.equal(undefined);
      // The holder's run ends normally: its outcome goes in, the reservation goes, nothing is swept.
      await store.append({ ...renewed, status: 'ok', ok: true, error: null, result: { done: true } });
      holder.end(renewed.id);
      await until('the ended reservation to go', async () => Number((await one.knex('run_reservations').count({ n: '*' }))[0]!['n']) === 0);
      pass(1000);
      expect(await sweeper.sweep()).to.deep.equal([]);
      expect(await store.get(renewed.id)).to.deep.include({ status: 'ok' });
    });

    it('a reservation whose outcome is in the ledger is dropped, not recorded twice', async () => {
      const holder = new KnexRunReservations(one.knex, { leaseMs: 100 }, clock);
      const store = new KnexInvocationStore(one.knex);
      const run = begun();
      await holder.begin(run);
      await store.append({ ...run, status: 'ok', ok: true, error: null, result: 1 });
      holder.abandon(run.id); // the outcome went in, the delete did not
      pass(150);
      expect(await new InterruptedRuns(holder, store, systemClock).sweep()).to.deep.equal([]);
      expect(await store.get(run.id)).to.deep.include({ status: 'ok' });
      expect(Number((await one.knex('run_reservations').count({ n: '*' }))[0]!['n'])).to.equal(0);
    });
  });
}

describe('write-ahead: no reservation, no run (sqlite)', function () {
  this.timeout(60_000);
  let svc: ListeningService;
  let dir: string;
  let marks: string;
  let writer: Knex;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'switchyard-write-ahead-'));
    marks = join(dir, 'marks');
    svc = await startListeningService('sqlite', { upstreams: sideEffectUpstream(marks) });
    writer = (await svc.switchyard.container.getAsync<Database>(Symbol.for('switchyard.Database'))).knex;
  });
  after(async () => {
    await svc?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const dispatch = (label: string) => request(svc.switchyard.app).post('/api/dispatch').set(owner).send({ key: 'SIDE_MARK', body: { label } });
  const runs = async () => (await request(svc.switchyard.app).get('/api/invocations?object_id=SIDE_MARK&limit=1000').set(owner)).body.items as StoredInvocation[];

  // Real SQLite faults on the service's one writer connection: a read-only database, and a full one.
  const faults: Array<[string, string, string]> = [
    ['read-only', 'PRAGMA query_only = 1', 'PRAGMA query_only = 0'],
    // max_page_count below the file's size holds it at its size: SQLITE_FULL, as on a full disk.
    ['full', 'PRAGMA max_page_count = 1', 'PRAGMA max_page_count = 1073741823'],
  ];
  for (const [kind, breakIt, mendIt] of faults) {
    it(`a ${kind} database: 503 storage_unavailable with Retry-After, the upstream never called, nothing stored; then it runs again`, async () => {
      const before = await runs();
      await writer.raw(breakIt);
      let refused: request.Response;
      try {
        // Large enough to need new pages, which a full database has none of.
        refused = await dispatch(`${kind}-refused:${'x'.repeat(200_000)}`);
      } finally {
        await writer.raw(mendIt);
      }
      expect(refused.status).to.equal(503);
      expect(refused.headers['retry-after']).to.match(/^\d+$/);
      expect(refused.body.error).to.include({ code: 'storage_unavailable', ran: false });
      expect(marksIn(marks).filter((m) => m.startsWith(`${kind}-refused`))).to.deep.equal([]);
      expect((await runs()).length).to.equal(before.length);
      // Recovery needs nobody: the same request runs once the database takes writes again.
      const ran = await dispatch(`${kind}-after`).expect(200);
      expect(ran.body.ok).to.equal(true);
      expect(marksIn(marks)).to.include(`${kind}-after`);
      // Its reservation goes once its outcome is in.
      await until('the reservation to go', async () => Number((await writer('run_reservations').count({ n: '*' }))[0]!['n']) === 0);
    });
  }
});
