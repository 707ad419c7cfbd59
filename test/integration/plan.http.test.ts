// The upstream account's plan (plugins.messaging.plan): phone lookups need enterprise. On another
// plan the run is refused plan_required (403) before the upstream is called, ledgered as a refused
// invocation; capabilities that need no plan run as before. Through HTTP on SQLite and (in CI) PostgreSQL.
import { expect } from 'chai';
import request from 'supertest';
import { ConfigError } from '@switchyard/app';
import { TEST_API_KEY, engines, startTestService, type TestService } from '../support/app.js';

const LOOKUP = 'MESSAGING_BATCH_LOOKUP_PHONE_NUMBERS';
const GROUP = 'MESSAGING_UPDATE_GROUP';
const NUMBERS = { numbers: ['+14155552671'] };

for (const engine of engines()) {
  describe(`the upstream account's plan (${engine})`, function () {
    this.timeout(30_000);
    let svc: TestService | undefined;
    afterEach(async () => {
      await svc?.close();
      svc = undefined;
    });
    const start = async (messaging: Record<string, unknown>) => {
      svc = await startTestService(engine, { plugins: { messaging } });
      return request(svc.switchyard.app);
    };
    const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);
    const listed = async (http: ReturnType<typeof request>) => (await owner(http.get(`/api/invocations?object_id=${LOOKUP}&limit=1000`)).expect(200)).body.items as Array<{ id: string; status: string }>;

    for (const plan of ['free', 'pro']) {
      it(`refuses phone lookups on the ${plan} plan: 403 plan_required, not run, ledgered as refused`, async () => {
        const http = await start({ plan });
        const res = await owner(http.post('/api/dispatch')).send({ key: LOOKUP, body: NUMBERS }).expect(403);
        expect(res.body.ok).to.equal(false);
        expect(res.body.error).to.include({ code: 'plan_required', plan, needed: 'enterprise' });
        expect(res.body.invocation).to.include({ status: 'refused', ran: false, ok: false, key: LOOKUP });
        expect(res.body.yield.cost).to.equal(0);
        const stored = (await owner(http.get(`/api/invocations/${res.body.invocation.id}`)).expect(200)).body.invocation;
        expect(stored).to.include({ status: 'refused', ran: false });
        expect(stored.error.code).to.equal('plan_required');
        expect((await listed(http)).map((i) => i.id)).to.deep.equal([res.body.invocation.id]);
        // A capability that needs no plan runs as before.
        await owner(http.post('/api/dispatch')).send({ key: GROUP, body: { group_id: 'grp_4f7c2a9d1e', name: 'Night shift' } }).expect(200);
      });
    }

    it('refuses a hook action on a free plan the same way, the delivery kept and the refusal ledgered', async () => {
      const http = await start({ plan: 'free' });
      const hook = (await owner(http.post('/api/objects/webhook')).send({ name: 'lookups' }).expect(201)).body;
      const res = await http.post(`/hook/${hook.id}/${LOOKUP}`).set('content-type', 'application/json').send(JSON.stringify(NUMBERS)).expect(403);
      expect(res.body.error.code).to.equal('plan_required');
      expect(res.body.invocation).to.include({ status: 'refused', ran: false });
      const entry = (await owner(http.get(`/api/ledger/${res.body.delivery.entry}`)).expect(200)).body.entry;
      expect(entry.action_run).to.include({ invocation: res.body.invocation.id, ok: false, status: 'refused' });
    });

    it('runs phone lookups on the enterprise plan (the default)', async () => {
      for (const messaging of [{ plan: 'enterprise' }, {}]) {
        const http = await start(messaging);
        const res = await owner(http.post('/api/dispatch')).send({ key: LOOKUP, body: NUMBERS }).expect(200);
        expect(res.body.invocation).to.include({ status: 'ok', ran: true });
        expect(res.body.result.count).to.equal(1);
        await svc!.close();
        svc = undefined;
      }
    });

    it('still maps an upstream that refuses on its own plan to plan_required (the run reached it)', async () => {
      const http = await start({ plan: 'enterprise', simulator: { plan: 'free' } });
      const res = await owner(http.post('/api/dispatch')).send({ key: LOOKUP, body: NUMBERS }).expect(403);
      expect(res.body.error.code).to.equal('plan_required');
      expect(res.body.invocation).to.include({ status: 'refused', ran: true });
    });
  });
}

describe("the upstream account's plan in config", function () {
  it('refuses an unknown plan name at start, naming the setting', async () => {
    const err = await startTestService('sqlite', { plugins: { messaging: { plan: 'gold' } } }).then(
      async (s) => {
        await s.close();
        return undefined;
      },
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(ConfigError);
    expect((err as ConfigError).message).to.contain('plugins.messaging.plan');
  });
});
