// Forwarding isolation through HTTP against the real app and storage, on both engines, with real
// receivers on loopback: a destination that never answers holds at most its share of the send
// slots (webhooks.forwarding.perDestinationConcurrency, or its own lower `concurrency`), so a
// healthy destination of another webhook is served meanwhile; the held-back work goes on once the
// hanging destination answers.
import { expect } from 'chai';
import request from 'supertest';
import { coreServices } from '@switchyard/core';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';
import { eventually, startReceiver, type Receiver } from '../support/receiver.js';

const SLOTS = 6;
const SHARE = 2;

for (const engine of engines()) {
  describe(`HTTP forwarding: each destination's share of the send slots (${engine})`, function () {
    this.timeout(60_000);
    let svc: ListeningService;
    let http: ReturnType<typeof request>;
    let hangingRx: Receiver;
    let healthyRx: Receiver;
    const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);
    const newHook = async (name: string): Promise<string> => (await owner(http.post('/api/objects/webhook')).send({ name }).expect(201)).body.id;
    const addDestination = async (hook: string, settings: Record<string, unknown>) => (await owner(http.post(`/api/objects/webhook/${hook}/destinations`)).send(settings).expect(201)).body;
    const deliver = async (hook: string, n: number): Promise<string> => (await http.post(`/hook/${hook}`).set('content-type', 'application/json').send({ n }).expect(200)).body.entry;
    const forwarding = async (entry: string) => (await owner(http.get(`/api/ledger/${entry}`)).expect(200)).body.entry.forwarding[0];
    const allIn = (entries: string[], state: string) =>
      eventually(async () => ((await Promise.all(entries.map(forwarding))).every((f) => f.state === state) ? true : undefined), `${entries.length} forwarded ${state}`);

    before(async () => {
      hangingRx = await startReceiver();
      healthyRx = await startReceiver();
      svc = await startListeningService(engine, {
        webhooks: { forwarding: { allow: [`127.0.0.1:${hangingRx.port}`, `127.0.0.1:${healthyRx.port}`], pollMs: 20, concurrency: SLOTS, perDestinationConcurrency: SHARE, circuitFailures: 1000 } },
      });
      http = request(svc.switchyard.app);
    });
    after(async () => {
      await svc?.close();
      await hangingRx?.close();
      await healthyRx?.close();
    });
    beforeEach(() => {
      hangingRx.release();
      hangingRx.received.length = 0;
      hangingRx.peakHanging = 0;
      healthyRx.received.length = 0;
    });

    it('a hanging destination holds its share, another webhook’s destination gets every delivery meanwhile, and the rest follows once it answers', async () => {
      const stuckHook = await newHook('stuck');
      const healthyHook = await newHook('healthy');
      const stuck = await addDestination(stuckHook, { url: hangingRx.url('/stuck'), timeout_ms: 60_000 });
      await addDestination(healthyHook, { url: healthyRx.url('/ok') });
      hangingRx.answer = () => 'hang';
      // More work for the hanging destination than there are send slots in all.
      const held: string[] = [];
      for (let n = 0; n < SLOTS * 3; n++) held.push(await deliver(stuckHook, n));
      await eventually(async () => (hangingRx.hanging() === SHARE ? true : undefined), 'the hanging destination at its share');
      const healthy: string[] = [];
      for (let n = 0; n < SLOTS * 2; n++) healthy.push(await deliver(healthyHook, n));
      await allIn(healthy, 'delivered');
      expect(healthyRx.received).to.have.length(SLOTS * 2);
      // Never more than its share at once; the others wait in the schedule, not attempted.
      expect(hangingRx.peakHanging).to.equal(SHARE);
      expect(hangingRx.received).to.have.length(SHARE);
      const waiting = await Promise.all(held.map(forwarding));
      expect(waiting.filter((f) => f.state === 'pending' && f.attempts === 0)).to.have.length(held.length);
      expect(waiting.every((f) => f.destination === stuck.id)).to.equal(true);
      // Once it answers, the held-back deliveries go on, still at most its share at a time.
      hangingRx.answer = () => ({ status: 200, body: 'ok' });
      hangingRx.release();
      await allIn(held, 'delivered');
      expect(hangingRx.received).to.have.length(held.length);
      expect(hangingRx.peakHanging).to.equal(SHARE);
    });

    it('a destination’s own concurrency lowers its share, and is checked like every setting', async () => {
      const hook = await newHook('one-at-a-time');
      const dst = await addDestination(hook, { url: hangingRx.url('/one'), timeout_ms: 60_000, concurrency: 1 });
      expect(dst.concurrency).to.equal(1);
      hangingRx.answer = () => 'hang';
      const held: string[] = [];
      for (let n = 0; n < 5; n++) held.push(await deliver(hook, n));
      await eventually(async () => (hangingRx.hanging() === 1 ? true : undefined), 'one request open');
      // A second destination of the same webhook is not held up by the first.
      const beside = await addDestination(hook, { url: healthyRx.url('/beside') });
      const after = await deliver(hook, 99);
      await eventually(async () => {
        const f = (await owner(http.get(`/api/ledger/${after}`)).expect(200)).body.entry.forwarding.find((x: { destination: string }) => x.destination === beside.id);
        return f?.state === 'delivered' ? true : undefined;
      }, 'the other destination served');
      expect(hangingRx.received).to.have.length(1);
      for (const bad of [0, 1025, 1.5, '2']) {
        const res = await owner(http.patch(`/api/objects/webhook/${hook}/destinations/${dst.id}`)).send({ concurrency: bad }).expect(400);
        expect(res.body.error).to.include({ code: 'invalid_request', field: 'concurrency' });
      }
      const unchanged = (await owner(http.get(`/api/objects/webhook/${hook}/destinations`)).expect(200)).body.items.find((d: { id: string }) => d.id === dst.id);
      expect(unchanged.concurrency).to.equal(1);
      // Back to the service's share: null.
      const reset = await owner(http.patch(`/api/objects/webhook/${hook}/destinations/${dst.id}`)).send({ concurrency: null }).expect(200);
      expect(reset.body.concurrency).to.equal(null);
      hangingRx.answer = () => ({ status: 200, body: 'ok' });
      hangingRx.release();
      await allIn(held, 'delivered');
      expect(hangingRx.peakHanging).to.equal(1);
    });

    it('a claim that ran while intake could lease nothing takes no more of a destination than its room: a hanging one never holds the slots another needs', async () => {
      const stuckHook = await newHook('stuck-race');
      const healthyHook = await newHook('healthy-race');
      await addDestination(stuckHook, { url: hangingRx.url('/stuck-race'), timeout_ms: 60_000 });
      await addDestination(healthyHook, { url: healthyRx.url('/ok-race') });
      hangingRx.answer = () => 'hang';
      // Two jobs leased at intake and sent: the destination holds two of the four (twice its share) it may.
      const held = [await deliver(stuckHook, 0), await deliver(stuckHook, 1)];
      await eventually(async () => (hangingRx.hanging() === SHARE ? true : undefined), 'the hanging destination at its share');
      // The next claim is slow (as a busy database makes it) and holds the free slots meanwhile, so
      // intake leases none of what arrives; then the claim finds all of it due.
      const forwarding = await svc.switchyard.container.getAsync<typeof coreServices.forwarding.T>(coreServices.forwarding.token);
      const jobs = (forwarding as unknown as { jobs: { claimDue: (...args: unknown[]) => Promise<unknown> } }).jobs;
      const claimDue = jobs.claimDue;
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      let claiming = false;
      jobs.claimDue = async (...args: unknown[]) => {
        if (!claiming) {
          claiming = true;
          await gate;
        }
        return claimDue.apply(jobs, args);
      };
      try {
        forwarding.kick();
        await eventually(async () => (claiming ? true : undefined), 'a claim under way');
        for (let n = 2; n < SLOTS * 2; n++) held.push(await deliver(stuckHook, n));
        open();
        // The other webhook's destination is served: the hanging one did not take every slot.
        const healthy: string[] = [];
        for (let n = 0; n < SLOTS; n++) healthy.push(await deliver(healthyHook, n));
        await allIn(healthy, 'delivered');
        expect(healthyRx.received).to.have.length(SLOTS);
        expect(hangingRx.peakHanging).to.equal(SHARE);
      } finally {
        jobs.claimDue = claimDue;
      }
      hangingRx.answer = () => ({ status: 200, body: 'ok' });
      hangingRx.release();
      await allIn(held, 'delivered');
      expect(hangingRx.peakHanging).to.equal(SHARE);
    });
  });
}
