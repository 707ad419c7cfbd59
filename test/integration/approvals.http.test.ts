// Approvals through HTTP on each engine: a run of PAYMENTS by the owner's token waits, the owner
// lists it, approves it once (it runs with exactly those arguments, linked both ways) or denies
// it; keyless tokens never get that far; an unanswered request expires. An approval whose run the
// database could not reserve stays undecided, to be approved again.
import { expect } from 'chai';
import request from 'supertest';
import type { Database } from '@switchyard/storage-knex';
import { TEST_API_KEY, engines, startTestService, type TestService } from '../support/app.js';

const PAYMENTS = 'PAYMENTS_PROCESSOR_API_SEARCH';

for (const engine of engines()) {
  describe(`HTTP approvals (${engine})`, function () {
    this.timeout(30_000);
    let svc: TestService;
    let http: ReturnType<typeof request>;
    let ownerToken: string;
    const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);
    const ask = async (query: string) =>
      (await http.post('/api/dispatch').set('authorization', `Bearer ${ownerToken}`).send({ key: PAYMENTS, body: { query } }).expect(202)).body;

    before(async () => {
      svc = await startTestService(engine, { ledger: { integrateIntervalMs: 50 } });
      http = request(svc.switchyard.app);
      ownerToken = (await owner(http.post('/api/tokens')).send({ moves: ['invoke:*', 'receipt:read'], keys: [PAYMENTS], actor: 'finance-bot' }).expect(201)).body.token;
    });
    after(async () => svc?.close());

    it('holds a run by an owner-issued token as awaiting_approval with the link to decide it', async () => {
      const res = await ask('refund a charge');
      expect(res.invocation).to.include({ status: 'awaiting_approval', ok: false, ran: false, actor: 'finance-bot' });
      expect(res.invocation.error).to.include({ code: 'approval_required', approvals: '/api/approvals' });
      expect(res.invocation.error.args_hash).to.match(/^sha256:[0-9a-f]{64}$/);
      const pending = (await owner(http.get('/api/approvals')).expect(200)).body.items;
      const mine = pending.find((p: { invocation: string }) => p.invocation === res.invocation.id);
      expect(mine).to.include({ key: PAYMENTS, actor: 'finance-bot', expired: false, args_hash: res.invocation.error.args_hash });
      expect(mine.args).to.deep.include({ query: 'refund a charge' });
    });

    it('approves once: runs the exact arguments as a new invocation linked both ways; a second decision is refused', async () => {
      const waiting = (await ask('list customers')).invocation;
      const approved = (await owner(http.post(`/api/approvals/${waiting.id}`)).send({ decision: 'approve' }).expect(200)).body;
      expect(approved.approval).to.include({ invocation: waiting.id, decision: 'approved', args_hash: waiting.error.args_hash });
      expect(approved.invocation).to.include({ ok: true, ran: true, key: PAYMENTS, source: `approval:${approved.approval.id}`, actor: 'finance-bot' });
      expect(approved.approval.run_invocation).to.equal(approved.invocation.id);
      expect(approved.invocation.args).to.deep.equal(waiting.args);
      expect(approved.result.operations.length).to.be.greaterThan(0);
      const again = await owner(http.post(`/api/approvals/${waiting.id}`)).send({ decision: 'approve' }).expect(409);
      expect(again.body.error.code).to.equal('already_decided');
      const pending = (await owner(http.get('/api/approvals')).expect(200)).body.items.map((p: { invocation: string }) => p.invocation);
      expect(pending).to.not.include(waiting.id);
      // The requester's receipt of the run: the run was made under its fingerprint.
      await http.get(`/api/dispatch?receipt=${approved.invocation.id}&share=${encodeURIComponent(ownerToken)}`).expect(200);
    });

    it('decides concurrent approvals atomically: exactly one runs', async () => {
      const waiting = (await ask('search payouts')).invocation;
      const results = await Promise.all(Array.from({ length: 5 }, () => owner(http.post(`/api/approvals/${waiting.id}`)).send({ decision: 'approve' })));
      expect(results.map((r) => r.status).sort()).to.deep.equal([200, 409, 409, 409, 409]);
      // The losers reserved a run too before their decision was refused: those reservations are
      // withdrawn (not left to lapse into interrupted records of runs that never happened).
      const knex = (await svc.switchyard.container.getAsync<Database>(Symbol.for('switchyard.Database'))).knex;
      const deadline = Date.now() + 5_000;
      const left = async () => Number(((await knex('run_reservations').count({ n: '*' })) as Array<{ n: number | string }>)[0]!.n);
      while ((await left()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      expect(await left()).to.equal(0);
      const runs = (await owner(http.get(`/api/invocations?object_id=${PAYMENTS}&limit=1000`)).expect(200)).body.items as Array<{ status: string }>;
      expect(runs.filter((r) => r.status === 'interrupted')).to.have.length(0);
    });

    it('an approval whose run the database will not reserve (503) is not used up: approved again, it runs once', async () => {
      const waiting = (await ask('search disputes')).invocation;
      const knex = (await svc.switchyard.container.getAsync<Database>(Symbol.for('switchyard.Database'))).knex;
      // The database refuses reservations only (the approvals table would take the decision).
      if (engine === 'sqlite') {
        await knex.raw("CREATE TRIGGER refuse_reservations BEFORE INSERT ON run_reservations BEGIN SELECT RAISE(ABORT, 'reservations refused by the test'); END");
      } else {
        await knex.raw("CREATE FUNCTION refuse_reservation() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'reservations refused by the test'; END $$ LANGUAGE plpgsql");
        await knex.raw('CREATE TRIGGER refuse_reservations BEFORE INSERT ON run_reservations FOR EACH ROW EXECUTE FUNCTION refuse_reservation()');
      }
      let refused: request.Response;
      try {
        refused = await owner(http.post(`/api/approvals/${waiting.id}`)).send({ decision: 'approve' });
      } finally {
        await knex.raw(engine === 'sqlite' ? 'DROP TRIGGER refuse_reservations' : 'DROP TRIGGER refuse_reservations ON run_reservations');
        if (engine !== 'sqlite') await knex.raw('DROP FUNCTION refuse_reservation()');
      }
      expect(refused.status, JSON.stringify(refused.body)).to.equal(503);
      expect(refused.body.error.code).to.equal('storage_unavailable');
      // Still waiting, undecided, and nothing ran under it.
      const pending = (await owner(http.get('/api/approvals')).expect(200)).body.items as Array<{ invocation: string }>;
      expect(pending.map((p) => p.invocation)).to.include(waiting.id);
      const runs = (await owner(http.get(`/api/invocations?object_id=${PAYMENTS}&limit=1000`)).expect(200)).body.items as Array<{ source: string; args: { query?: string } }>;
      const asked = runs.filter((r) => r.args.query === 'search disputes');
      expect(asked.map((r) => r.source)).to.deep.equal(['api']); // the waiting invocation only

      const approved = (await owner(http.post(`/api/approvals/${waiting.id}`)).send({ decision: 'approve' }).expect(200)).body;
      expect(approved.invocation).to.include({ ok: true, ran: true, source: `approval:${approved.approval.id}` });
      expect(approved.approval.run_invocation).to.equal(approved.invocation.id);
      await owner(http.post(`/api/approvals/${waiting.id}`)).send({ decision: 'approve' }).expect(409);
    });

    it('denies: nothing runs, the decision is in the ledger and the Merkle log', async () => {
      const waiting = (await ask('delete everything')).invocation;
      const denied = (await owner(http.post(`/api/approvals/${waiting.id}`)).send({ decision: 'deny' }).expect(200)).body;
      expect(denied).to.not.have.property('invocation');
      expect(denied.approval).to.include({ decision: 'denied', run_invocation: null });
      let leaf;
      for (let i = 0; i < 100 && !leaf; i++) {
        const page = (await http.get('/api/proven-work?limit=1000').expect(200)).body;
        leaf = page.leaves.find((l: { kind: string; id: string }) => l.kind === 'approval' && l.id === denied.approval.id);
        if (!leaf) await new Promise((r) => setTimeout(r, 50));
      }
      expect(JSON.parse(leaf.leaf)).to.include({ kind: 'approval', invocation: waiting.id, decision: 'denied' });
    });

    it('refuses bad decisions and strangers, changing nothing', async () => {
      const waiting = (await ask('charges over 100')).invocation;
      await owner(http.post(`/api/approvals/${waiting.id}`)).send({ decision: 'maybe' }).expect(400);
      await http.post(`/api/approvals/${waiting.id}`).send({ decision: 'approve' }).expect(401);
      const start = (await http.get('/start').expect(200)).body.token;
      expect((await http.post(`/api/approvals/${waiting.id}`).set('authorization', `Bearer ${start}`).send({ decision: 'approve' }).expect(403)).body.error.needed).to.equal('approval:decide');
      expect((await owner(http.post('/api/approvals/inv_doesnotexist000000')).send({ decision: 'approve' }).expect(404)).body.error.code).to.equal('invocation_not_found');
      const ran = (await owner(http.post('/api/dispatch')).send({ key: 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER', body: { workerId: '0123456789abcdef0123456789abcdef' } }).expect(200)).body.invocation.id;
      expect((await owner(http.post(`/api/approvals/${ran}`)).send({ decision: 'approve' }).expect(400)).body.error.code).to.equal('invalid_request');
      expect((await owner(http.get('/api/approvals')).expect(200)).body.items.map((p: { invocation: string }) => p.invocation)).to.include(waiting.id);
    });

    it('never lets a keyless token ask: auth-required capabilities are refused to it', async () => {
      const keyless = (await http.get(`/api/dispatch?self_scope=1&keys=WEB_FETCH`).expect(200)).body.token;
      const narrowedOwner = (await owner(http.post('/api/tokens')).send({ moves: ['explain'] }).expect(201)).body.token;
      expect(keyless).to.not.equal(narrowedOwner);
      const res = await http.post('/api/dispatch').set('authorization', `Bearer ${keyless}`).send({ key: PAYMENTS, body: { query: 'x' } }).expect(403);
      expect(res.body.error.code).to.equal('scope_denied');
    });
  });
}

describe('HTTP approvals: an unanswered request expires', function () {
  this.timeout(20_000);
  it('answers 410 approval_expired after approvals.ttlSeconds, running nothing', async () => {
    const svc = await startTestService('sqlite', { approvals: { ttlSeconds: 60 } });
    const clock = await svc.switchyard.container.getAsync<{ now(): Date }>(Symbol.for('switchyard.Clock'));
    const realNow = clock.now;
    try {
      const http = request(svc.switchyard.app);
      const waiting = (await http.post('/api/dispatch').set('x-sheets-key', TEST_API_KEY).send({ key: PAYMENTS, body: { query: 'late' } }).expect(202)).body.invocation;
      // Move the service's clock past the expiry (the Clock port; no sleeping), restored below.
      clock.now = () => new Date(realNow.call(clock).getTime() + 61_000);
      const res = await http.post(`/api/approvals/${waiting.id}`).set('x-sheets-key', TEST_API_KEY).send({ decision: 'approve' }).expect(410);
      expect(res.body.error.code).to.equal('approval_expired');
      expect((await http.get('/api/approvals').set('x-sheets-key', TEST_API_KEY).expect(200)).body.items[0]).to.include({ invocation: waiting.id, expired: true });
    } finally {
      clock.now = realNow;
      await svc.close();
    }
  });
});
