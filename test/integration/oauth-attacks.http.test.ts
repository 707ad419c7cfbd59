// Attacks on the OAuth authorization server found in review, each refused, on each engine:
// a flood of dynamic registrations (bounded in storage, and never hiding the clients the owner
// consented to from the owner's list).
import { expect } from 'chai';
import request from 'supertest';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';
import { REDIRECT, consentPage, decide, pkce, registerClient, signIn } from '../support/oauth.js';

const EDGE = 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER';
const MAX_UNCONSENTED = 20;

for (const engine of engines()) {
  describe(`OAuth attacks over HTTP (${engine})`, function () {
    this.timeout(120_000);
    let svc: ListeningService;
    let http: ReturnType<typeof request>;
    let cookie: string;
    const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);
    const listed = async () => (await owner(http.get('/api/oauth/clients')).expect(200)).body as { count: number; clients: Array<{ id: string; grants: unknown[] }> };

    before(async () => {
      svc = await startListeningService(engine, { tokens: { mintPerMinute: 100_000 }, oauth: { maxUnconsentedClients: MAX_UNCONSENTED } });
      http = request(svc.url);
      cookie = await signIn(http);
    });
    after(async () => svc?.close());

    it('a registration flood keeps at most oauth.maxUnconsentedClients clients without a grant, and never evicts or hides a consented one', async () => {
      const consented = await registerClient(http);
      const { challenge } = pkce();
      const params = { response_type: 'code', client_id: consented.client_id, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256' };
      const { csrf } = await consentPage(http, cookie, params);
      expect((await decide(http, cookie, params, csrf, 'allow', [EDGE])).searchParams.get('code')).to.be.a('string');

      const flood: string[] = [];
      for (let i = 0; i < MAX_UNCONSENTED * 3; i++) flood.push((await registerClient(http)).client_id);
      const list = await listed();
      // Stored: the consented client and the newest unconsented ones, no more.
      expect(list.count).to.equal(MAX_UNCONSENTED + 1);
      expect(list.clients[0]!.id, 'the consented client is listed first').to.equal(consented.client_id);
      expect(list.clients.slice(1).map((c) => c.id)).to.deep.equal(flood.slice(-MAX_UNCONSENTED).reverse());
      // The oldest flood registrations are gone: an authorization request naming one is an error page.
      const gone = await http.get(`/dashboard/oauth/authorize?${new URLSearchParams({ ...params, client_id: flood[0]! })}`).set('cookie', cookie).expect(400);
      expect(gone.text).to.contain('invalid_client');
      // The consented client still authorizes.
      await consentPage(http, cookie, params);
    });
  });
}
