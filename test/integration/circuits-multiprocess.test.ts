// Destinations' circuits and `rate_per_s` across processes on one PostgreSQL database: both are in
// a table (migration 025), so a circuit opened by failures that either process saw holds back the
// other's attempts too, every process answers the same circuit, and one pace holds for all.
import { expect } from 'chai';
import { CLOSED_CIRCUIT, admit, afterOutcome } from '@switchyard/core';
import { KnexCircuitStore, openDatabase } from '@switchyard/storage-knex';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_API_KEY, engines, freshDatabase } from '../support/app.js';
import { startServiceProcess, type Child } from '../support/processes.js';
import { eventually, startReceiver, type Receiver } from '../support/receiver.js';

const owner = { 'content-type': 'application/json', 'x-sheets-key': TEST_API_KEY };

function config(rx: Receiver): { env: NodeJS.ProcessEnv; drop(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-circuits-'));
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify({ webhooks: { forwarding: { allow: [`127.0.0.1:${rx.port}`], pollMs: 50, leaseMs: 3000, circuitFailures: 2, circuitCooldownMs: 120_000 } } }));
  return { env: { SWITCHYARD_API_KEY: TEST_API_KEY, SWITCHYARD_CONFIG: file }, drop: () => rmSync(dir, { recursive: true, force: true }) };
}

async function json<T>(res: Promise<Response>): Promise<T> {
  const r = await res;
  expect(r.status, r.url).to.be.oneOf([200, 201]);
  return (await r.json()) as T;
}

async function deliver(url: string, hook: string, n: number): Promise<string> {
  return (await json<{ entry: string }>(fetch(`${url}/hook/${hook}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ n }) }))).entry;
}

interface Forwarding {
  state: string;
  attempts: number;
  next_attempt_at: string | null;
}

const forwardingOf = async (url: string, entry: string): Promise<Forwarding> => (await json<{ entry: { forwarding: Forwarding[] } }>(fetch(`${url}/api/ledger/${entry}`, { headers: owner }))).entry.forwarding[0]!;

interface CircuitView {
  state: string;
  until: string | null;
  failures: number;
}

if (engines().includes('postgres')) {
  describe('forwarding circuits in PostgreSQL (KnexCircuitStore)', function () {
    this.timeout(30_000);

    it('two database handles racing on one destination: one slot, one probe, one count of failures', async () => {
      const fresh = await freshDatabase('postgres');
      const a = await openDatabase(fresh.url, { leafWorker: false });
      const b = await openDatabase(fresh.url, { leafWorker: false });
      try {
        const stores = [new KnexCircuitStore(a.knex), new KnexCircuitStore(b.knex)];
        const rules = { openAfter: 3, cooldownMs: 1000, probeMs: 5000 };
        const t0 = Date.now();
        const slots = await Promise.all(Array.from({ length: 20 }, (_, i) => stores[i % 2]!.change('dst_paced', (c) => admit(c, t0, rules, 1))));
        expect(slots.filter((r) => r.send)).to.have.length(1);
        expect((await stores[1]!.read(['dst_paced'])).get('dst_paced')!.nextSlot).to.equal(t0 + 1000);
        // Ten failures counted from both handles at once: none lost.
        await Promise.all(Array.from({ length: 10 }, (_, i) => stores[i % 2]!.change('dst_flaky', (c) => afterOutcome(c, false, t0, rules))));
        const open = (await stores[0]!.read(['dst_flaky', 'dst_never'])) ;
        expect(open.get('dst_flaky')).to.deep.include({ failures: 10, openUntil: t0 + 1000 });
        expect(open.get('dst_never')).to.deep.equal(CLOSED_CIRCUIT);
        // Once the cool-down ends, exactly one of many racing attempts is the probe.
        const probes = await Promise.all(Array.from({ length: 20 }, (_, i) => stores[i % 2]!.change('dst_flaky', (c) => admit(c, t0 + 1000, rules, null))));
        expect(probes.filter((r) => r.send)).to.deep.equal([{ send: true, probe: true }]);
      } finally {
        await a.close();
        await b.close();
        await fresh.drop();
      }
    });
  });

  describe('forwarding: circuits and rate_per_s shared by two processes on one PostgreSQL database', function () {
    this.timeout(120_000);
    let rx: Receiver;
    let cfg: { env: NodeJS.ProcessEnv; drop(): void };
    let db: { url: string; drop(): Promise<void> };
    let a: { child: Child; url: string } | undefined;
    let b: { child: Child; url: string } | undefined;

    beforeEach(async () => {
      db = await freshDatabase('postgres');
      rx = await startReceiver();
      cfg = config(rx);
      a = await startServiceProcess({ ...cfg.env, DATABASE_URL: db.url });
      b = await startServiceProcess({ ...cfg.env, DATABASE_URL: db.url });
    });
    afterEach(async () => {
      await a?.child.stop();
      await b?.child.stop();
      await rx.close();
      cfg.drop();
      await db.drop();
    });

    async function destination(settings: Record<string, unknown>): Promise<{ hook: string; dst: string }> {
      const hook = (await json<{ id: string }>(fetch(`${a!.url}/api/objects/webhook`, { method: 'POST', headers: owner, body: JSON.stringify({ name: 'shared' }) }))).id;
      const dst = (await json<{ id: string }>(fetch(`${a!.url}/api/objects/webhook/${hook}/destinations`, { method: 'POST', headers: owner, body: JSON.stringify({ url: rx.url(), ...settings }) }))).id;
      return { hook, dst };
    }

    it('a circuit opened by failures either process saw holds back both, and both answer it alike', async () => {
      const { hook, dst } = await destination({ retry: { max_attempts: 1 } });
      rx.answer = () => ({ status: 503 });
      // Two failures, whichever process made them (with a circuit per process, one each would open none).
      for (const [n, via] of [a!, b!].entries()) {
        const entry = await deliver(via.url, hook, n);
        await eventually(async () => ((await forwardingOf(via.url, entry)).state === 'dead' ? true : undefined), 'dead');
      }
      const circuitFrom = async (url: string) => (await json<{ circuit: CircuitView }>(fetch(`${url}/api/objects/webhook/${hook}/destinations/${dst}`, { headers: owner }))).circuit;
      const fromA = await circuitFrom(a!.url);
      expect(fromA).to.include({ state: 'open', failures: 2 });
      expect(await circuitFrom(b!.url)).to.deep.equal(fromA);
      const listed = await json<{ items: Array<{ circuit: CircuitView }> }>(fetch(`${b!.url}/api/objects/webhook/${hook}/destinations`, { headers: owner }));
      expect(listed.items[0]!.circuit).to.deep.equal(fromA);

      // Deliveries taken by either process wait for the cool-down's end, with no attempt.
      const held = [await deliver(a!.url, hook, 10), await deliver(b!.url, hook, 11), await deliver(a!.url, hook, 12), await deliver(b!.url, hook, 13)];
      for (const entry of held) {
        const f = await eventually(async () => {
          const s = await forwardingOf(b!.url, entry);
          return s.next_attempt_at === fromA.until ? s : undefined;
        }, 'postponed to the end of the shared cool-down');
        expect(f).to.include({ state: 'pending', attempts: 0 });
      }
      expect(rx.received).to.have.length(2);
    });

    it('rate_per_s is one pace for both processes', async () => {
      // One attempt per 100 s: after the first, every other delivery waits for the next slot.
      const { hook } = await destination({ rate_per_s: 0.01 });
      const first = await deliver(a!.url, hook, 0);
      await eventually(async () => ((await forwardingOf(a!.url, first)).state === 'delivered' ? true : undefined), 'first delivered');
      const sentAt = Date.now();
      const later = [await deliver(a!.url, hook, 1), await deliver(b!.url, hook, 2), await deliver(a!.url, hook, 3), await deliver(b!.url, hook, 4)];
      for (const entry of later) {
        const f = await eventually(async () => {
          const s = await forwardingOf(a!.url, entry);
          return s.next_attempt_at && Date.parse(s.next_attempt_at) - sentAt > 50_000 ? s : undefined;
        }, 'held back by the shared pace');
        expect(f).to.include({ state: 'pending', attempts: 0 });
      }
      expect(rx.received).to.have.length(1);
    });
  });
}
