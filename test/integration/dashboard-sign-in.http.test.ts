// Dashboard sign-in through HTTP on each engine: `next=` lands only on a dashboard page of this
// service (never an open redirect), and sign-in attempts are rate limited per client like keyless
// minting, in a budget of their own: 429 rate_limited with Retry-After, and no session past it.
import { expect } from 'chai';
import request from 'supertest';
import { TEST_API_KEY, engines, startTestService, type TestService } from '../support/app.js';

/** `next=` as sent → where sign-in goes. */
const NEXT_CASES: Array<[string, string]> = [
  ['/dashboard', '/dashboard'],
  ['/dashboard/ledger?key=WEB_FETCH', '/dashboard/ledger?key=WEB_FETCH'],
  ['/dashboard/webhooks/hk_0123456789abcdef', '/dashboard/webhooks/hk_0123456789abcdef'],
  ['/dashboard?q=rename%20a%20group', '/dashboard?q=rename%20a%20group'],
  ['/dashboard/./approvals', '/dashboard/approvals'],
  ['https://evil.example/dashboard', '/dashboard'],
  ['http:/evil.example/dashboard', '/dashboard'],
  ['//evil.example/dashboard', '/dashboard'],
  ['///evil.example', '/dashboard'],
  ['/\\evil.example', '/dashboard'],
  ['\\\\evil.example', '/dashboard'],
  ['/dashboard\\..\\..\\api', '/dashboard'],
  ['/\t/evil.example', '/dashboard'],
  ['javascript:alert(1)', '/dashboard'],
  ['evil.example', '/dashboard'],
  ['/api/objects/webhook', '/dashboard'],
  ['/dashboardx', '/dashboard'],
  ['/dashboard/../api/objects/webhook', '/dashboard'],
  ['/dashboard/%2e%2e/api/objects/webhook', '/dashboard'],
  ['/dashboard//evil.example', '/dashboard'],
  ['/dashboard/login?next=//evil.example', '/dashboard'],
  ['/dashboard/logout', '/dashboard'],
  ['/', '/dashboard'],
  ['', '/dashboard'],
];

for (const engine of engines()) {
  describe(`dashboard sign-in over HTTP (${engine})`, function () {
    this.timeout(30_000);

    describe('next=', () => {
      let svc: TestService;
      let http: ReturnType<typeof request>;
      before(async () => {
        svc = await startTestService(engine, { tokens: { mintPerMinute: 1000 } });
        http = request(svc.switchyard.app);
      });
      after(async () => svc?.close());

      for (const [sent, expected] of NEXT_CASES) {
        it(`goes to ${expected} for next=${JSON.stringify(sent)}, in the form and after signing in`, async () => {
          const form = await http.get(`/dashboard/login?next=${encodeURIComponent(sent)}`).expect(200);
          expect(form.text).to.contain(`<input type="hidden" name="next" value="${expected}">`);
          const res = await http.post('/dashboard/login').type('form').send({ api_key: TEST_API_KEY, next: sent }).expect(303);
          expect(res.headers['location']).to.equal(expected);
          expect(res.headers['set-cookie']?.[0]).to.match(/^sy_dashboard=/);
        });
      }

      it('goes home when next is missing or sent twice, and keeps a normalised next through a wrong key', async () => {
        expect((await http.post('/dashboard/login').type('form').send({ api_key: TEST_API_KEY }).expect(303)).headers['location']).to.equal('/dashboard');
        expect((await http.post('/dashboard/login').type('form').send(`api_key=${TEST_API_KEY}&next=%2Fdashboard%2Fledger&next=%2Fdashboard%2Fwebhooks`).expect(303)).headers['location']).to.equal('/dashboard');
        const refused = await http.post('/dashboard/login').type('form').send({ api_key: 'sy_wrong', next: '//evil.example' }).expect(401);
        expect(refused.headers['set-cookie']).to.equal(undefined);
        expect(refused.text).to.contain('<input type="hidden" name="next" value="/dashboard">').and.contain('not a valid API key');
      });

      it('sends an owner page without a session to sign-in with that page as next, and back there after', async () => {
        const asked = await http.get('/dashboard/ledger?key=WEB_FETCH').expect(303);
        expect(asked.headers['location']).to.equal('/dashboard/login?next=%2Fdashboard%2Fledger%3Fkey%3DWEB_FETCH');
        const next = new URL(asked.headers['location']!, 'http://x').searchParams.get('next');
        expect((await http.post('/dashboard/login').type('form').send({ api_key: TEST_API_KEY, next }).expect(303)).headers['location']).to.equal('/dashboard/ledger?key=WEB_FETCH');
      });
    });

    describe('rate limit', () => {
      let svc: TestService;
      let http: ReturnType<typeof request>;
      before(async () => {
        svc = await startTestService(engine, { tokens: { mintPerMinute: 3 } });
        http = request(svc.switchyard.app);
      });
      after(async () => svc?.close());

      it('answers 429 rate_limited with Retry-After past tokens.mintPerMinute attempts, and signs nobody in past it', async () => {
        // Minting uses its own budget: three tokens leave the sign-in attempts untouched.
        for (let i = 0; i < 3; i++) await http.get('/start').expect(200);
        await http.get('/start').expect(429);
        await http.post('/dashboard/login').type('form').send({ api_key: TEST_API_KEY }).expect(303);
        await http.post('/dashboard/login').type('form').send({ api_key: 'sy_wrong_1' }).expect(401);
        await http.post('/dashboard/login').type('form').send({ api_key: 'sy_wrong_2' }).expect(401);

        const limited = await http.post('/dashboard/login').type('form').send({ api_key: TEST_API_KEY, next: '/dashboard/ledger' }).expect(429);
        const retryAfter = Number(limited.headers['retry-after']);
        expect(retryAfter).to.be.within(1, 60);
        expect(limited.headers['set-cookie']).to.equal(undefined);
        expect(limited.headers['content-type']).to.match(/^text\/html/);
        expect(limited.text).to.contain('rate_limited').and.contain('at most 3 sign-in attempts per minute per client');
        // The form itself still shows; only attempts are counted.
        await http.get('/dashboard/login').expect(200);
      });
    });
  });
}
