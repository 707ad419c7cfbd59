// Runaway transforms and filters, through HTTP against the service in its own process (so that a
// transform that makes V8 abort would take down that process, not the test's), on both engines:
// a transform whose regular expression backtracks is stopped at its deadline while /healthz goes
// on answering; one that builds a string past V8's limits kills its evaluator, not the service,
// once per attempt, and the job ends a dead letter after its attempts; a filter pattern that
// backtracks in JavaScript runs on RE2 at intake, so the delivery is answered and filtered.
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_API_KEY, engines, freshDatabase, type TestDatabase } from '../support/app.js';
import { startServiceProcess, type Child } from '../support/processes.js';
import { eventually, startReceiver, type Receiver } from '../support/receiver.js';

const owner = { 'content-type': 'application/json', 'x-sheets-key': TEST_API_KEY };
/** JavaScript's RegExp takes seconds on 27 characters against ^(a+)+$, twice as long with each one more: this is hours. */
const HOSTILE = JSON.stringify({ s: `${'a'.repeat(40)}!` });
/** 64 characters doubled 22 times, then $length (Array.from over 268 M characters): V8 aborts the process it runs in. */
const SIZE_BOMB = '$length($reduce([1..22], function($a, $b){ $a & $a }, "0123456789012345678901234567890123456789012345678901234567890123"))';

interface Forwarding {
  destination: string;
  state: string;
  attempts: number;
  invocations: string[];
}

for (const engine of engines()) {
  describe(`HTTP forwarding: runaway transforms and filters (${engine})`, function () {
    this.timeout(60_000);
    let db: TestDatabase;
    let rx: Receiver;
    let dir: string;
    let service: { child: Child; url: string };
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${service.url}${path}`, { method, headers: owner, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };
    const setUp = async (settings: Record<string, unknown>): Promise<{ hook: string; dst: string }> => {
      const hook = (await api('POST', '/api/objects/webhook', { name: 'runaway' })).body['id'] as string;
      const dst = await api('POST', `/api/objects/webhook/${hook}/destinations`, { url: rx.url('/in'), ...settings });
      expect(dst.status).to.equal(201);
      return { hook, dst: dst.body['id'] as string };
    };
    const deliver = async (hook: string, body: string): Promise<string> => {
      const res = await fetch(`${service.url}/hook/${hook}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(res.status).to.equal(200);
      return ((await res.json()) as { entry: string }).entry;
    };
    const forwarding = async (entry: string, dst: string): Promise<Forwarding | undefined> =>
      ((await api('GET', `/api/ledger/${entry}`)).body['entry'].forwarding as Forwarding[]).find((f) => f.destination === dst);
    const healthz = async (): Promise<number> => (await fetch(`${service.url}/healthz`)).status;
    const failures = async (f: Forwarding) => Promise.all(f.invocations.map(async (id) => (await api('GET', `/api/invocations/${id}`)).body['invocation']));

    before(async () => {
      db = await freshDatabase(engine);
      rx = await startReceiver();
      dir = mkdtempSync(join(tmpdir(), 'switchyard-sandbox-'));
      const file = join(dir, 'config.json');
      writeFileSync(file, JSON.stringify({ webhooks: { forwarding: { allow: [`127.0.0.1:${rx.port}`], pollMs: 50, circuitFailures: 1000 } } }));
      service = await startServiceProcess({ SWITCHYARD_API_KEY: TEST_API_KEY, SWITCHYARD_CONFIG: file, DATABASE_URL: db.url });
    });
    after(async () => {
      await service?.child.stop();
      await rx?.close();
      rmSync(dir, { recursive: true, force: true });
      await db?.drop();
    });

    it('a transform whose regular expression backtracks is stopped at its deadline, once per attempt, while /healthz answers; then a dead letter', async () => {
      const { hook, dst } = await setUp({ transform: '{"all_a": $contains(s, /^(a+)+$/)}', retry: { max_attempts: 2, initial_ms: 100, max_ms: 100 } });
      const entry = await deliver(hook, HOSTILE);
      // The service answers its health check again and again while the attempts run elsewhere.
      let answeredMeanwhile = 0;
      for (;;) {
        expect(await healthz()).to.equal(200);
        const f = await forwarding(entry, dst);
        if (f?.state === 'dead') break;
        answeredMeanwhile++;
      }
      expect(answeredMeanwhile).to.be.above(0);
      const dead = (await forwarding(entry, dst))!;
      expect(dead).to.include({ state: 'dead', attempts: 2 });
      for (const inv of await failures(dead)) {
        expect(inv).to.include({ ok: false, ran: false, status: 'failed' });
        expect(inv.error.code).to.equal('transform_failed');
        expect(inv.error.message).to.match(/: the transform was stopped after 2000 ms \(its hard deadline/);
      }
      expect(rx.received.filter((r) => r.headers['webhook-id'] === entry)).to.deep.equal([]);
      // The same transform on a body it does not backtrack on is sent.
      const fine = await deliver(hook, JSON.stringify({ s: 'aaaa' }));
      await eventually(async () => ((await forwarding(fine, dst))?.state === 'delivered' ? true : undefined), 'the fine body delivered');
      expect(JSON.parse(rx.received.find((r) => r.headers['webhook-id'] === fine)!.body.toString('utf8'))).to.deep.equal({ all_a: true });
    });

    it('a transform that builds a string past V8’s limits kills its evaluator, not the service: each attempt fails with why, and the job ends dead', async () => {
      const pid = service.child.process.pid;
      const { hook, dst } = await setUp({ transform: SIZE_BOMB, retry: { max_attempts: 3, initial_ms: 100, max_ms: 100 } });
      const entry = await deliver(hook, '{"id": "ord_1"}');
      const dead = await eventually(async () => {
        const f = await forwarding(entry, dst);
        return f?.state === 'dead' ? f : undefined;
      }, 'the size bomb a dead letter', 45_000);
      expect(dead.attempts).to.equal(3);
      const attempts = await failures(dead);
      expect(attempts).to.have.length(3);
      for (const inv of attempts) {
        expect(inv.error.code).to.equal('transform_failed');
        expect(inv.error.message).to.match(/: the transform was stopped: its evaluator died \(.*(heap|invalid size).*\); at most 256 MiB/);
      }
      // The same process, still serving.
      expect(service.child.process.exitCode).to.equal(null);
      expect(service.child.process.pid).to.equal(pid);
      expect(await healthz()).to.equal(200);
      expect(rx.received.filter((r) => r.headers['webhook-id'] === entry)).to.deep.equal([]);
    });

    it('a filter pattern that backtracks in JavaScript runs on RE2 at intake: the delivery is answered and turned away, a matching one forwarded', async () => {
      const { hook, dst } = await setUp({ filter: 'body.s ~= "^(a+)+$"' });
      const hostile = await deliver(hook, HOSTILE);
      expect(await healthz()).to.equal(200);
      expect(await forwarding(hostile, dst)).to.include({ state: 'skipped', attempts: 0 });
      const matching = await deliver(hook, JSON.stringify({ s: 'aaaaaaaa' }));
      await eventually(async () => ((await forwarding(matching, dst))?.state === 'delivered' ? true : undefined), 'the matching delivery forwarded');
    });
  });
}
