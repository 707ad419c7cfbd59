// The dashboard's Approvals page through HTTP: owner-only, lists what waits with the arguments,
// takes a decision only with the session's CSRF token and a known decision, and shows an expired
// request as expired with no buttons (deciding it anyway answers 410 approval_expired as a page).
import { expect } from 'chai';
import request from 'supertest';
import { TEST_API_KEY, engines, startTestService, type TestService } from '../support/app.js';

const PAYMENTS = 'PAYMENTS_PROCESSOR_API_SEARCH';

for (const engine of engines()) {
  describe(`dashboard approvals over HTTP (${engine})`, function () {
    this.timeout(30_000);
    let svc: TestService;
    let http: ReturnType<typeof request>;
    let cookie: string;

    /** A run of PAYMENTS by the owner: it waits for approval. */
    const ask = async (query: string): Promise<string> =>
      (await http.post('/api/dispatch').set('x-sheets-key', TEST_API_KEY).send({ key: PAYMENTS, body: { query } }).expect(202)).body.invocation.id;
    const pending = async (): Promise<Array<{ invocation: string; expired: boolean }>> => (await http.get('/api/approvals').set('x-sheets-key', TEST_API_KEY).expect(200)).body.items;
    const approvalsPage = async () => (await http.get('/dashboard/approvals').set('cookie', cookie).expect(200)).text;
    const csrfOf = (page: string) => /name="csrf" value="([^"]+)"/.exec(page)![1]!;

    before(async () => {
      svc = await startTestService(engine, { approvals: { ttlSeconds: 60 } });
      http = request(svc.switchyard.app);
      const signedIn = await http.post('/dashboard/login').type('form').send({ api_key: TEST_API_KEY }).expect(303);
      cookie = signedIn.headers['set-cookie']![0]!.split(';')[0]!;
    });
    after(async () => svc?.close());

    it('is the owner\'s: without a session it asks for sign-in', async () => {
      expect((await http.get('/dashboard/approvals').expect(303)).headers['location']).to.equal('/dashboard/login?next=%2Fdashboard%2Fapprovals');
    });

    it('refuses an unknown decision and a missing CSRF token, deciding nothing', async () => {
      const waiting = await ask('refund <b>now</b>');
      const page = await approvalsPage();
      expect(page).to.contain(`data-invocation="${waiting}"`).and.contain('refund &lt;b&gt;now&lt;/b&gt;');
      const csrf = csrfOf(page);
      const maybe = await http.post(`/dashboard/approvals/${waiting}`).set('cookie', cookie).type('form').send({ csrf, decision: 'maybe' }).expect(400);
      expect(maybe.text).to.contain('invalid_request');
      await http.post(`/dashboard/approvals/${waiting}`).set('cookie', cookie).type('form').send({ decision: 'approve' }).expect(403);
      await http.post(`/dashboard/approvals/${waiting}`).set('cookie', cookie).type('form').send({ csrf: `${csrf}x`, decision: 'approve' }).expect(403);
      expect((await pending()).map((p) => p.invocation)).to.include(waiting);
      const unknown = await http.post('/dashboard/approvals/inv_doesnotexist000000').set('cookie', cookie).type('form').send({ csrf, decision: 'approve' }).expect(404);
      expect(unknown.text).to.contain('invocation_not_found');
    });

    it('shows an expired request as expired, without buttons; deciding it anyway answers 410 approval_expired', async () => {
      const waiting = await ask('too late');
      const csrf = csrfOf(await approvalsPage());
      const clock = await svc.switchyard.container.getAsync<{ now(): Date }>(Symbol.for('switchyard.Clock'));
      const realNow = clock.now;
      try {
        // Past approvals.ttlSeconds through the Clock port (no sleeping), restored below.
        clock.now = () => new Date(realNow.call(clock).getTime() + 61_000);
        const page = await approvalsPage();
        const item = page.slice(page.indexOf(`data-invocation="${waiting}"`));
        const card = item.slice(0, item.indexOf('</li>'));
        expect(card).to.contain('expired: run it again to ask anew').and.not.contain('<form');
        const late = await http.post(`/dashboard/approvals/${waiting}`).set('cookie', cookie).type('form').send({ csrf, decision: 'approve' }).expect(410);
        expect(late.text).to.contain('approval_expired');
        expect((await pending()).find((p) => p.invocation === waiting)).to.include({ expired: true });
      } finally {
        clock.now = realNow;
      }
    });
  });
}
