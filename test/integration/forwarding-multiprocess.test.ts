// Forwarding across processes: the schedule is in the database, so a kill -9 with retries pending
// or attempts under way loses none of them (both engines), and two service processes on one
// PostgreSQL database make each attempt once (leases claimed with FOR UPDATE SKIP LOCKED).
import { expect } from 'chai';
import { DEFAULT_FORWARDING_OPTIONS } from '@switchyard/core';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_API_KEY, engines, freshDatabase } from '../support/app.js';
import { startServiceProcess, type Child } from '../support/processes.js';
import { eventually, startReceiver, type Receiver } from '../support/receiver.js';

const owner = { 'content-type': 'application/json', 'x-sheets-key': TEST_API_KEY };

/** A config file that tunes forwarding for a test: fast polling, short leases, the receiver allowed. */
function forwardingConfig(rx: Receiver): { env: NodeJS.ProcessEnv; drop(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-forward-'));
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify({ webhooks: { forwarding: { allow: [`127.0.0.1:${rx.port}`], pollMs: 50, leaseMs: 3000, circuitFailures: 1000 } } }));
  return { env: { SWITCHYARD_API_KEY: TEST_API_KEY, SWITCHYARD_CONFIG: file }, drop: () => rmSync(dir, { recursive: true, force: true }) };
}

async function setUp(url: string, rx: Receiver, retry: Record<string, number>, timeoutMs = 1000): Promise<{ hook: string; dst: string }> {
  const hook = (await (await fetch(`${url}/api/objects/webhook`, { method: 'POST', headers: owner, body: JSON.stringify({ name: 'forwarded' }) })).json()) as { id: string };
  const dst = (await (await fetch(`${url}/api/objects/webhook/${hook.id}/destinations`, { method: 'POST', headers: owner, body: JSON.stringify({ url: rx.url(), timeout_ms: timeoutMs, retry }) })).json()) as { id: string };
  expect(dst.id).to.match(/^dst_/);
  return { hook: hook.id, dst: dst.id };
}

async function deliver(url: string, hook: string, n: number): Promise<string> {
  const res = await fetch(`${url}/hook/${hook}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ n }) });
  expect(res.status).to.equal(200);
  return ((await res.json()) as { entry: string }).entry;
}

interface Forwarding {
  state: string;
  attempts: number;
  invocations: string[];
}

/** Every delivery of the webhook with its forwarding (one destination). */
async function forwardingOf(url: string, hook: string): Promise<Map<string, Forwarding>> {
  const out = new Map<string, Forwarding>();
  let before: string | null = null;
  do {
    const page = (await (await fetch(`${url}/api/ledger?event=webhook%20delivery&hook=${hook}&limit=1000${before ? `&before=${before}` : ''}`, { headers: owner })).json()) as {
      items: Array<{ id: string; forwarding: Forwarding[] }>;
      next_cursor: string | null;
    };
    for (const item of page.items) if (item.forwarding[0]) out.set(item.id, item.forwarding[0]);
    before = page.next_cursor;
  } while (before);
  return out;
}

for (const engine of engines()) {
  describe(`forwarding: kill -9 with retries pending (${engine})`, function () {
    this.timeout(120_000);

    it('loses no pending retry: after a restart on the same database every delivery is forwarded', async () => {
      const db = await freshDatabase(engine);
      const rx = await startReceiver();
      const config = forwardingConfig(rx);
      let healthy = false;
      rx.answer = () => (healthy ? { status: 200 } : { status: 503 });
      let service: { child: Child; url: string } | undefined;
      try {
        service = await startServiceProcess({ ...config.env, DATABASE_URL: db.url });
        const { hook } = await setUp(service.url, rx, { max_attempts: 50, initial_ms: 300, max_ms: 600 });
        const entries: string[] = [];
        for (let n = 0; n < 20; n++) entries.push(await deliver(service.url, hook, n));
        // Every delivery has failed at least once and waits for its next attempt.
        await eventually(async () => {
          const states = await forwardingOf(service!.url, hook);
          return entries.every((e) => states.get(e)?.state === 'retrying') ? true : undefined;
        }, 'every delivery retrying', 30_000);
        await service.child.kill();

        healthy = true;
        service = await startServiceProcess({ ...config.env, DATABASE_URL: db.url });
        const done = await eventually(async () => {
          const states = await forwardingOf(service!.url, hook);
          return entries.every((e) => states.get(e)?.state === 'delivered') ? states : undefined;
        }, 'every delivery delivered after the restart', 60_000);
        for (const e of entries) expect(done.get(e)!.invocations.length, e).to.equal(done.get(e)!.attempts);
        const deliveredIds = new Set(rx.received.map((r) => r.headers['webhook-id']));
        for (const e of entries) expect(deliveredIds.has(e), e).to.equal(true);
      } finally {
        await service?.child.stop();
        await rx.close();
        config.drop();
        await db.drop();
      }
    });
  });
}

for (const engine of engines()) {
  describe(`forwarding: kill -9 with attempts in flight (${engine})`, function () {
    this.timeout(120_000);

    // A new delivery is written already leased to the process that accepts it and attempted at
    // once: a process killed in the middle of those attempts leaves leases that run out, and the
    // next process makes each attempt again.
    it('loses no attempt that was under way: after a restart every delivery is forwarded', async () => {
      const db = await freshDatabase(engine);
      const rx = await startReceiver();
      const config = forwardingConfig(rx);
      let hang = true;
      rx.answer = () => (hang ? 'hang' : { status: 200 });
      let service: { child: Child; url: string } | undefined;
      try {
        service = await startServiceProcess({ ...config.env, DATABASE_URL: db.url });
        const { hook } = await setUp(service.url, rx, { max_attempts: 5, initial_ms: 100 }, 30_000);
        const entries: string[] = [];
        for (let n = 0; n < 10; n++) entries.push(await deliver(service.url, hook, n));
        // As many attempts as the destination's share of the send slots (the default, 4) have
        // reached the receiver, which holds them unanswered; the other deliveries wait their turn.
        await eventually(async () => (rx.hanging() === DEFAULT_FORWARDING_OPTIONS.perDestinationConcurrency ? true : undefined), 'the share of attempts under way');
        expect(rx.received).to.have.length(DEFAULT_FORWARDING_OPTIONS.perDestinationConcurrency);
        await service.child.kill();

        hang = false;
        const before = rx.received.length;
        service = await startServiceProcess({ ...config.env, DATABASE_URL: db.url });
        const done = await eventually(async () => {
          const states = await forwardingOf(service!.url, hook);
          return entries.every((e) => states.get(e)?.state === 'delivered') ? states : undefined;
        }, 'every delivery delivered after the restart', 60_000);
        // The killed process recorded nothing: each delivery's one recorded attempt is the new one.
        for (const e of entries) expect(done.get(e), e).to.deep.include({ attempts: 1 });
        for (const e of entries) expect(done.get(e)!.invocations, e).to.have.length(1);
        const again = new Set(rx.received.slice(before).map((r) => r.headers['webhook-id']));
        for (const e of entries) expect(again.has(e), e).to.equal(true);
      } finally {
        await service?.child.stop();
        await rx.close();
        config.drop();
        await db.drop();
      }
    });
  });
}

if (engines().includes('postgres')) {
  describe('forwarding: two processes on one PostgreSQL database', function () {
    this.timeout(120_000);

    it('forward each delivery exactly once', async () => {
      const db = await freshDatabase('postgres');
      const rx = await startReceiver();
      const config = forwardingConfig(rx);
      let a: { child: Child; url: string } | undefined;
      let b: { child: Child; url: string } | undefined;
      try {
        a = await startServiceProcess({ ...config.env, DATABASE_URL: db.url });
        b = await startServiceProcess({ ...config.env, DATABASE_URL: db.url });
        const { hook } = await setUp(a.url, rx, { max_attempts: 3, initial_ms: 100 });
        // Both processes take deliveries (and both claim from the schedule), 8 senders at once.
        const entries: string[] = [];
        let n = 0;
        await Promise.all(
          Array.from({ length: 8 }, async (_, s) => {
            while (n < 200) entries.push(await deliver((s % 2 ? a : b)!.url, hook, n++));
          }),
        );
        const done = await eventually(async () => {
          const states = await forwardingOf(a!.url, hook);
          return entries.every((e) => states.get(e)?.state === 'delivered') ? states : undefined;
        }, 'every delivery delivered', 60_000);
        const counts = new Map<string, number>();
        for (const r of rx.received) counts.set(r.headers['webhook-id'] as string, (counts.get(r.headers['webhook-id'] as string) ?? 0) + 1);
        expect(rx.received.length).to.equal(entries.length);
        expect([...counts.values()].every((c) => c === 1)).to.equal(true);
        expect(new Set(counts.keys())).to.deep.equal(new Set(entries));
        for (const e of entries) expect(done.get(e)).to.deep.include({ attempts: 1 });
      } finally {
        await a?.child.stop();
        await b?.child.stop();
        await rx.close();
        config.drop();
        await db.drop();
      }
    });
  });
}
