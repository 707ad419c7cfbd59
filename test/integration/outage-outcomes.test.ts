// What an outage does to work in flight and to the answers given during it, on a throwaway
// PostgreSQL cluster of the test's own (never the machine's server). A forwarding attempt or a run
// that ends while the cluster is down (stopped `-m immediate`, every backend killed mid-statement)
// gets its true outcome in the ledger once the cluster is back, without a restart, and its
// reservation goes; nothing is sent twice. And a write whose commit landed as its connection died
// is answered as stored (a delivery 200, a run that runs), never an ambiguous 503; only a write
// known not to have landed is 503. The dying connection is made deterministic by a proxy between
// the service and the cluster (test/support/cutting-proxy.ts): it lets the INSERT run and commit,
// then drops the connection before the reply reaches the service, and takes no connection for a
// moment, so the service's own retry of the write fails too and only a lookup can tell.
import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { PROJECT_ROOT } from '@switchyard/app';
import { InterruptedRuns, PendingOutcomes, interruptedRecord, newInvocationId, systemClock, type InvocationRecord, type StoredInvocation } from '@switchyard/core';
import { KnexInvocationStore, KnexRunReservations, openDatabase } from '@switchyard/storage-knex';
import { TEST_API_KEY } from '../support/app.js';
import { startCuttingProxy, type CuttingProxy } from '../support/cutting-proxy.js';
import { startPgCluster, type PgCluster } from '../support/pg-cluster.js';
import { startServiceProcess, type Child } from '../support/processes.js';
import { eventually, startReceiver, type Receiver } from '../support/receiver.js';

const SIDE_EFFECT = join(PROJECT_ROOT, 'test', 'support', 'side-effect-mcp-server.mjs');
const owner = { 'x-sheets-key': TEST_API_KEY, 'content-type': 'application/json' };
const marksIn = (file: string): string[] => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

async function json(url: string, init: RequestInit = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, init);
  return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, unknown> };
}

const post = (url: string, body: unknown, headers: Record<string, string> = owner) => json(url, { method: 'POST', headers, body: JSON.stringify(body) });

const forwardAttempts = async (url: string): Promise<StoredInvocation[]> =>
  ((await json(`${url}/api/invocations?object_id=WEBHOOK_FORWARD&order=append&limit=100`, { headers: owner })).body['items'] as StoredInvocation[]) ?? [];

/** Waits until /healthz says the database is away: the service has met the outage. */
const untilNotReady = (url: string): Promise<true> => eventually(async () => ((await fetch(`${url}/healthz`)).status === 503 ? true : undefined), '/healthz to say not ready');

describe('outage: work in flight when PostgreSQL stops, and writes whose commit fate is unknown', function () {
  this.timeout(120_000);
  let cluster: PgCluster;
  let dir: string;
  let rx: Receiver;
  let marks: string;
  let service: { child: Child; url: string } | undefined;
  let direct: Knex | undefined;

  before(async () => {
    cluster = await startPgCluster();
    dir = mkdtempSync(join(tmpdir(), 'switchyard-outage-outcomes-'));
    rx = await startReceiver();
    marks = join(dir, 'marks');
  });
  afterEach(async () => {
    await service?.child.stop();
    service = undefined;
    await direct?.destroy();
    direct = undefined;
  });
  after(async () => {
    await rx.close();
    cluster.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  const urlOf = (database: string): string => cluster.url.replace(/\/postgres$/, `/${database}`);

  /** A database of its own in the cluster, and a connection of the test's to it. */
  async function createDatabase(database: string): Promise<void> {
    direct = knexFactory({ client: 'pg', connection: cluster.url, pool: { min: 0, max: 1 } });
    await direct.raw(`CREATE DATABASE ${database}`);
    await direct.destroy();
    direct = knexFactory({ client: 'pg', connection: urlOf(database), pool: { min: 0, max: 1 } });
  }

  /** A service on a database of its own in the cluster (through `port`, the cluster's or a proxy's). */
  async function startOn(database: string, port = cluster.port): Promise<string> {
    await createDatabase(database);
    const config = join(dir, `${database}.json`);
    writeFileSync(config, JSON.stringify({
      // Short run leases, so that an outage outlasts them; long job leases, so a job is never sent
      // again by a claim while its attempt's outcome is still on its way.
      dispatch: { runLeaseMs: 1000, timeoutMs: 60_000 },
      webhooks: { forwarding: { allow: [`127.0.0.1:${rx.port}`], pollMs: 50, leaseMs: 90_000 } },
      upstreams: { servers: { side: { system: 'SIDE', transport: 'stdio', command: process.execPath, args: [SIDE_EFFECT, marks], defaults: { auth: 'none', risk: 'low', approval: false } } } },
    }));
    service = await startServiceProcess({ SWITCHYARD_API_KEY: TEST_API_KEY, DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/${database}`, SWITCHYARD_CONFIG: config });
    return service.url;
  }

  const reservationsLeft = async (): Promise<number> => Number(((await direct!('run_reservations').count({ n: '*' })) as Array<{ n: string }>)[0]!.n);

  it('forwarding attempts and a run that end while the cluster is down get their true outcomes once it is back: each sent once, recorded once, their reservations gone', async () => {
    const url = await startOn('work_in_flight');
    const hook = (await post(`${url}/api/objects/webhook`, { name: 'outage' })).body['id'] as string;
    expect((await post(`${url}/api/objects/webhook/${hook}/destinations`, { url: rx.url(), timeout_ms: 60_000 })).status).to.equal(201);
    // As many attempts as one destination takes at once (forwarding.perDestinationConcurrency), each held.
    rx.answer = () => 'hang';
    const deliveries: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await post(`${url}/hook/${hook}`, { n: i }, { 'content-type': 'application/json' });
      expect(res.status).to.equal(200);
      deliveries.push(res.body['entry'] as string);
    }
    const pending = post(`${url}/api/dispatch`, { key: 'SIDE_MARK', body: { label: 'held-run', hold: true } });
    await eventually(async () => (rx.hanging() === 4 && marksIn(marks).includes('held-run') ? true : undefined), 'the receiver and the upstream to hold their calls');

    cluster.stop('immediate');
    await untilNotReady(url);
    // Every attempt and the run end while nothing can be written: circuits, outcomes, jobs all fail.
    rx.answer = () => ({ status: 200, body: 'ok' });
    rx.release(200);
    writeFileSync(`${marks}.release`, '');
    const answer = await pending;
    const error = answer.body['error'] as { code?: string; invocation?: string; ran?: boolean } | undefined;
    expect({ status: answer.status, code: error?.code, ran: error?.ran }).to.deep.equal({ status: 503, code: 'storage_unavailable', ran: true });
    const runId = error!.invocation!;
    expect(runId).to.match(/^inv_/);
    // Longer than the run lease: the reservations lapse in the database's time while it is down.
    await new Promise((r) => setTimeout(r, 1500));
    cluster.start();

    const attempts = await eventually(async () => {
      const items = await forwardAttempts(url);
      return items.length >= 4 ? items : undefined;
    }, 'every attempt recorded after the outage', 30_000);
    expect(attempts.map((a) => a.status)).to.deep.equal(Array(4).fill('ok'));
    expect(attempts.map((a) => (a.args as { delivery: string }).delivery).sort()).to.deep.equal([...deliveries].sort());
    const run = await eventually(async () => {
      const got = await json(`${url}/api/invocations/${runId}`, { headers: owner });
      return got.status === 200 ? (got.body['invocation'] as StoredInvocation) : undefined;
    }, 'the run recorded after the outage', 30_000);
    expect(run).to.deep.include({ key: 'SIDE_MARK', status: 'ok', ok: true, ran: true });
    // No reservation is left renewed: every one went with its outcome.
    await eventually(async () => ((await reservationsLeft()) === 0 ? true : undefined), 'the reservations of the ended work to go');
    const ledger = (await json(`${url}/api/ledger?event=webhook%20delivery&hook=${hook}&limit=100`, { headers: owner })).body['items'] as Array<{ forwarding: Array<{ state: string; attempts: number }> }>;
    expect(ledger.flatMap((d) => d.forwarding.map((f) => ({ state: f.state, attempts: f.attempts })))).to.deep.equal(Array(4).fill({ state: 'delivered', attempts: 1 }));
    expect(rx.received).to.have.length(4);
  });

  it('an outcome kept past its bounds (in number, in time) lets its reservation lapse, and the sweep records it interrupted', async () => {
    await createDatabase('pending_bounds');
    const db = await openDatabase(urlOf('pending_bounds'), { leafWorker: false });
    try {
      // Leases are read against a clock the test moves, so a slow machine cannot lapse one early.
      let now = Date.now();
      const reservations = new KnexRunReservations(db.knex, { leaseMs: 300 }, () => now);
      const store = new KnexInvocationStore(db.knex);
      const outcomes = new PendingOutcomes(store, reservations, { maxHeld: 1, maxMs: 400, firstDelayMs: 50, maxDelayMs: 100 });
      const run = (): InvocationRecord => interruptedRecord({
        id: newInvocationId(),
        capability: { key: 'SIDE_MARK', path: ['OIP', 'SIDE', 'SIDE_MARK'], cost: undefined },
        caller: { actor: 'owner', fingerprint: null },
        bodyText: '{"label":"x"}',
        args: { label: 'x' },
        links: { repairs: null, replays: null, source: 'api' },
        createdAt: new Date(),
        requestId: null,
      });
      const [kept, refused] = [run(), run()];
      await reservations.begin(kept);
      await reservations.begin(refused);

      cluster.stop('immediate');
      const ended = (r: InvocationRecord): InvocationRecord => ({ ...r, status: 'ok', ok: true, error: null, result: { done: true } });
      // The first is kept (and tried again until maxMs); the second finds the one place taken and is let go at once.
      await outcomes.record(ended(kept)).then(() => expect.fail('recorded while the cluster is down'), () => undefined);
      expect(outcomes.size).to.equal(1);
      await outcomes.record(ended(refused)).then(() => expect.fail('recorded while the cluster is down'), () => undefined);
      expect(outcomes.size).to.equal(1);
      await eventually(async () => (outcomes.size === 0 ? true : undefined), 'the kept outcome to be given up');
      cluster.start();

      // Neither reservation is renewed any more: once their leases pass, the sweep records both interrupted.
      now += 1000;
      await eventually(async () => (await reservations.renew().then(() => true, () => undefined)), 'the cluster to take writes again');
      const swept = await new InterruptedRuns(reservations, store, systemClock).sweep();
      expect([...swept].sort()).to.deep.equal([kept.id, refused.id].sort());
      for (const r of [kept, refused]) expect(await store.get(r.id)).to.deep.include({ status: 'interrupted', ran: true });
    } finally {
      await db.close();
    }
  });

  describe('a commit whose connection died', () => {
    let proxy: CuttingProxy;
    beforeEach(async () => {
      proxy = await startCuttingProxy(cluster.port);
    });
    afterEach(() => proxy.close());

    const deliveriesOf = async (url: string, hook: string): Promise<string[]> =>
      ((await json(`${url}/api/ledger?event=webhook%20delivery&hook=${hook}&limit=100`, { headers: owner })).body['items'] as Array<{ id: string }>).map((d) => d.id);

    it('a delivery that landed is answered 200 with its entry, and forwarded once; one that did not is 503 and nothing is stored', async () => {
      const url = await startOn('unknown_fate_delivery', proxy.port);
      // A webhook without destinations: its delivery is one statement, committed alone.
      const plain = (await post(`${url}/api/objects/webhook`, { name: 'plain' })).body['id'] as string;
      const cut = proxy.cutAfterReply('INSERT INTO deliveries', 300);
      const landed = await post(`${url}/hook/${plain}`, { n: 'landed' }, { 'content-type': 'application/json' });
      await cut;
      expect({ status: landed.status, outcome: landed.body['outcome'] }).to.deep.equal({ status: 200, outcome: 'accepted' });
      expect(await deliveriesOf(url, plain)).to.deep.equal([landed.body['entry']]);

      const refusedCut = proxy.cutBefore('INSERT INTO deliveries', 300);
      const lost = await post(`${url}/hook/${plain}`, { n: 'lost' }, { 'content-type': 'application/json' });
      await refusedCut;
      expect({ status: lost.status, code: (lost.body['error'] as { code?: string } | undefined)?.code }).to.deep.equal({ status: 503, code: 'storage_unavailable' });
      expect(await deliveriesOf(url, plain)).to.deep.equal([landed.body['entry']]);

      // With a destination, the delivery and its forwarding jobs are one transaction.
      const hook = (await post(`${url}/api/objects/webhook`, { name: 'cut' })).body['id'] as string;
      expect((await post(`${url}/api/objects/webhook/${hook}/destinations`, { url: rx.url('/cut'), timeout_ms: 5000 })).status).to.equal(201);
      rx.answer = () => ({ status: 200, body: 'ok' });
      const forwardedOf = (n: string): number => rx.received.filter((r) => r.path === '/cut' && r.body.toString() === JSON.stringify({ n })).length;

      // Cut between the delivery's INSERT and its jobs': the transaction never commits, so the 503 stores neither.
      const halfCut = proxy.cutBefore('INSERT INTO forward_jobs', 300);
      const half = await post(`${url}/hook/${hook}`, { n: 'half' }, { 'content-type': 'application/json' });
      await halfCut;
      expect({ status: half.status, code: (half.body['error'] as { code?: string } | undefined)?.code }).to.deep.equal({ status: 503, code: 'storage_unavailable' });
      expect(await deliveriesOf(url, hook)).to.deep.equal([]);

      // Cut as the transaction's COMMIT is answered: it landed, so still its 2xx, and forwarded once.
      const jobsCut = proxy.cutAfterReply('INSERT INTO forward_jobs', 300);
      const scheduled = await post(`${url}/hook/${hook}`, { n: 'scheduled' }, { 'content-type': 'application/json' });
      await jobsCut;
      expect({ status: scheduled.status, outcome: scheduled.body['outcome'] }).to.deep.equal({ status: 200, outcome: 'accepted' });
      // Bounded by the test's own timeout, not a time of its own: on a loaded machine (the suite's
      // files in parallel) the new connection the attempt's reads wait for can take many seconds.
      await eventually(async () => (forwardedOf('scheduled') === 1 ? true : undefined), 'the stored delivery forwarded', 100_000);
      expect(await deliveriesOf(url, hook)).to.deep.equal([scheduled.body['entry']]);
      expect([forwardedOf('half'), forwardedOf('scheduled')]).to.deep.equal([0, 1]);
    });

    it('a run whose reservation landed runs, once, and is recorded as it ended', async () => {
      const url = await startOn('unknown_fate_reservation', proxy.port);
      const cut = proxy.cutAfterReply('INSERT INTO run_reservations', 300);
      const answer = await post(`${url}/api/dispatch`, { key: 'SIDE_MARK', body: { label: 'reserved-as-cut' } });
      await cut;
      expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
      const id = (answer.body['invocation'] as { id: string }).id;
      expect(marksIn(marks).filter((m) => m === 'reserved-as-cut')).to.have.length(1);
      const run = (await json(`${url}/api/invocations/${id}`, { headers: owner })).body['invocation'];
      expect(run).to.deep.include({ status: 'ok', ok: true, ran: true });
      await eventually(async () => ((await reservationsLeft()) === 0 ? true : undefined), 'the run\'s reservation to go');
    });
  });
});
