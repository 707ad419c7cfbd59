// Roles on one PostgreSQL database (SWITCHYARD_ROLE): an api process serves HTTP and only writes
// what the background work works (forwarding jobs, queued ledger entries); a worker process, which
// serves no HTTP, forwards and integrates them. A worker killed with kill -9 leaves its leases to
// the next worker and loses nothing.
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_API_KEY, engines, freshDatabase } from '../support/app.js';
import { startServiceProcess, startWorkerProcess, type Child } from '../support/processes.js';
import { eventually, startReceiver, type Receiver } from '../support/receiver.js';

const owner = { 'content-type': 'application/json', 'x-sheets-key': TEST_API_KEY };

/** A config file shared by every process of a test: fast polling, short leases, the receiver allowed. */
// perDestinationConcurrency 16: one destination may hold every attempt of these tests at once (the
// kill -9 test wants all ten under way when the worker dies; the share itself is tested elsewhere).
function fleetConfig(rx: Receiver): { env: NodeJS.ProcessEnv; drop(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-roles-'));
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify({ webhooks: { forwarding: { allow: [`127.0.0.1:${rx.port}`], pollMs: 50, leaseMs: 3000, circuitFailures: 1000, perDestinationConcurrency: 16 } }, ledger: { integrateIntervalMs: 50 } }));
  return { env: { SWITCHYARD_API_KEY: TEST_API_KEY, SWITCHYARD_CONFIG: file }, drop: () => rmSync(dir, { recursive: true, force: true }) };
}

async function setUp(url: string, rx: Receiver, timeoutMs: number): Promise<string> {
  const hook = (await (await fetch(`${url}/api/objects/webhook`, { method: 'POST', headers: owner, body: JSON.stringify({ name: 'fleet' }) })).json()) as { id: string };
  const dst = (await (await fetch(`${url}/api/objects/webhook/${hook.id}/destinations`, { method: 'POST', headers: owner, body: JSON.stringify({ url: rx.url(), timeout_ms: timeoutMs, retry: { max_attempts: 5, initial_ms: 100 } }) })).json()) as { id: string };
  expect(dst.id).to.match(/^dst_/);
  return hook.id;
}

async function deliverMany(url: string, hook: string, count: number): Promise<string[]> {
  const entries: string[] = [];
  for (let n = 0; n < count; n++) {
    const res = await fetch(`${url}/hook/${hook}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ n }) });
    expect(res.status).to.equal(200);
    entries.push(((await res.json()) as { entry: string }).entry);
  }
  return entries;
}

interface Forwarding {
  state: string;
  attempts: number;
  invocations: string[];
}

/** Every delivery of the webhook with its forwarding to the one destination. */
async function forwardingOf(url: string, hook: string): Promise<Map<string, Forwarding>> {
  const page = (await (await fetch(`${url}/api/ledger?event=webhook%20delivery&hook=${hook}&limit=1000`, { headers: owner })).json()) as { items: Array<{ id: string; forwarding: Forwarding[] }> };
  return new Map(page.items.filter((i) => i.forwarding[0]).map((i) => [i.id, i.forwarding[0]!]));
}

const allIn = async (url: string, hook: string, entries: string[], state: string): Promise<Map<string, Forwarding> | undefined> => {
  const states = await forwardingOf(url, hook);
  return entries.every((e) => states.get(e)?.state === state) ? states : undefined;
};

/** The ledger state of an entry as the api process reports it (pending or integrated). */
const ledgerStatus = async (url: string, id: string): Promise<string> => ((await (await fetch(`${url}/api/dispatch?confirm=${id}`, { headers: owner })).json()) as { status: string }).status;

if (engines().includes('postgres')) {
  describe('roles: an api process and worker processes on one PostgreSQL database', function () {
    this.timeout(120_000);

    it('the api process takes deliveries and works none of them; a worker forwards each once and integrates every entry', async () => {
      const db = await freshDatabase('postgres');
      const rx = await startReceiver();
      const config = fleetConfig(rx);
      let api: { child: Child; url: string } | undefined;
      let worker: Child | undefined;
      try {
        api = await startServiceProcess({ ...config.env, DATABASE_URL: db.url, SWITCHYARD_ROLE: 'api' });
        const hook = await setUp(api.url, rx, 5000);
        const entries = await deliverMany(api.url, hook, 20);

        // Alone, the api process forwards nothing and integrates nothing: the work waits in the database.
        await new Promise((r) => setTimeout(r, 1500));
        expect(rx.received).to.have.length(0);
        expect(await allIn(api.url, hook, entries, 'pending'), 'every job still pending').to.not.equal(undefined);
        for (const e of entries.slice(0, 3)) expect(await ledgerStatus(api.url, e), e).to.equal('pending');

        worker = await startWorkerProcess({ ...config.env, DATABASE_URL: db.url });
        const done = await eventually(() => allIn(api!.url, hook, entries, 'delivered'), 'every delivery forwarded by the worker', 60_000);
        const counts = new Map<string, number>();
        for (const r of rx.received) counts.set(r.headers['webhook-id'] as string, (counts.get(r.headers['webhook-id'] as string) ?? 0) + 1);
        expect(new Set(counts.keys())).to.deep.equal(new Set(entries));
        expect([...counts.values()].every((c) => c === 1), 'each delivery sent once').to.equal(true);

        // The worker's integrator put every delivery and every attempt in the tree; the api process proves them.
        const attempts = entries.map((e) => done.get(e)!.invocations[0]!);
        await eventually(async () => ((await Promise.all([...entries, ...attempts].map((id) => ledgerStatus(api!.url, id)))).every((s) => s === 'integrated') ? true : undefined), 'every entry integrated', 30_000);

        // SIGTERM (what a container stop sends) ends a worker cleanly: exit code 0.
        await worker.stop();
        expect(worker.process.exitCode, 'the worker exits 0 on SIGTERM').to.equal(0);
      } finally {
        await worker?.stop();
        await api?.child.stop();
        await rx.close();
        config.drop();
        await db.drop();
      }
    });

    it('a worker killed with kill -9 mid-attempt leaves its leases to another worker, and nothing is lost', async () => {
      const db = await freshDatabase('postgres');
      const rx = await startReceiver();
      const config = fleetConfig(rx);
      let hang = true;
      rx.answer = () => (hang ? 'hang' : { status: 200 });
      let api: { child: Child; url: string } | undefined;
      let first: Child | undefined;
      let second: Child | undefined;
      try {
        api = await startServiceProcess({ ...config.env, DATABASE_URL: db.url, SWITCHYARD_ROLE: 'api' });
        first = await startWorkerProcess({ ...config.env, DATABASE_URL: db.url });
        const hook = await setUp(api.url, rx, 2500);
        const entries = await deliverMany(api.url, hook, 10);
        // The first worker has claimed every job and sent every attempt; the receiver holds them unanswered.
        await eventually(async () => (entries.every((e) => rx.received.some((r) => r.headers['webhook-id'] === e)) ? true : undefined), 'every attempt under way');
        await first.kill();

        hang = false;
        const before = rx.received.length;
        second = await startWorkerProcess({ ...config.env, DATABASE_URL: db.url });
        const done = await eventually(() => allIn(api!.url, hook, entries, 'delivered'), 'every delivery delivered by the second worker', 60_000);
        // The killed worker recorded nothing: each delivery's one recorded attempt is the second worker's.
        for (const e of entries) expect(done.get(e), e).to.deep.include({ attempts: 1 });
        const again = new Set(rx.received.slice(before).map((r) => r.headers['webhook-id']));
        for (const e of entries) expect(again.has(e), e).to.equal(true);
        const attempts = entries.map((e) => done.get(e)!.invocations[0]!);
        await eventually(async () => ((await Promise.all([...entries, ...attempts].map((id) => ledgerStatus(api!.url, id)))).every((s) => s === 'integrated') ? true : undefined), 'every entry integrated', 30_000);
      } finally {
        await second?.stop();
        await first?.kill();
        await api?.child.stop();
        await rx.close();
        config.drop();
        await db.drop();
      }
    });
  });
}
