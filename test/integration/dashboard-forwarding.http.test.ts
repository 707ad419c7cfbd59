// The dashboard's forwarding views through HTTP: a webhook's destinations on its page, each
// delivery's forwarding state on the delivery's page, and the retry button for a dead letter.
import { expect } from 'chai';
import request from 'supertest';
import { TEST_API_KEY, engines, startTestService, type TestService } from '../support/app.js';
import { eventually, startReceiver, type Receiver } from '../support/receiver.js';

for (const engine of engines()) {
  describe(`dashboard forwarding over HTTP (${engine})`, function () {
    this.timeout(30_000);
    let svc: TestService;
    let rx: Receiver;
    let http: ReturnType<typeof request>;
    let cookie: string;
    const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);
    const csrfOf = (page: string) => /name="csrf" value="([^"]+)"/.exec(page)![1]!;

    before(async () => {
      rx = await startReceiver();
      svc = await startTestService(engine, { webhooks: { forwarding: { allow: [`127.0.0.1:${rx.port}`], pollMs: 20 } } });
      http = request(svc.switchyard.app);
      const signedIn = await http.post('/dashboard/login').type('form').send({ api_key: TEST_API_KEY }).expect(303);
      cookie = signedIn.headers['set-cookie']![0]!.split(';')[0]!;
    });
    after(async () => {
      await svc?.close();
      await rx?.close();
    });

    it('shows destinations, a dead letter with its attempts, and re-forwards it from the retry button', async () => {
      const hook = (await owner(http.post('/api/objects/webhook')).send({ name: 'shop' }).expect(201)).body.id;
      const dst = (await owner(http.post(`/api/objects/webhook/${hook}/destinations`)).send({ url: rx.url(), name: 'orders <svc>', retry: { max_attempts: 1 } }).expect(201)).body;
      const hookPage = (await http.get(`/dashboard/webhooks/${hook}`).set('cookie', cookie).expect(200)).text;
      expect(hookPage).to.contain(`data-destination="${dst.id}"`).and.contain('orders &lt;svc&gt;').and.contain(rx.url());

      rx.answer = () => ({ status: 500 });
      const entry = (await http.post(`/hook/${hook}`).set('content-type', 'application/json').send('{"n":1}').expect(200)).body.entry;
      const deliveryPage = () => http.get(`/dashboard/deliveries/${entry}`).set('cookie', cookie).expect(200);
      const dead = await eventually(async () => {
        const page = (await deliveryPage()).text;
        return page.includes('data-state="dead"') ? page : undefined;
      }, 'dead on the delivery page');
      const attempt = /<a href="(\/dashboard\/invocations\/inv_\w+)">/.exec(dead)![1]!;
      // The attempt's own page, as for any run.
      expect((await http.get(attempt).set('cookie', cookie).expect(200)).text).to.contain('WEBHOOK_FORWARD');
      expect(dead).to.contain(`action="/dashboard/webhooks/${hook}/destinations/${dst.id}/retry"`);

      // Without the CSRF token nothing is re-forwarded.
      await http.post(`/dashboard/webhooks/${hook}/destinations/${dst.id}/retry`).set('cookie', cookie).type('form').send({ entry }).expect(403);
      rx.answer = () => ({ status: 200 });
      const back = await http.post(`/dashboard/webhooks/${hook}/destinations/${dst.id}/retry`).set('cookie', cookie).type('form').send({ csrf: csrfOf(dead), entry, back: `/dashboard/deliveries/${entry}` }).expect(303);
      // Back where the form was, saying what it did (the page reads requeued and dst: "1 dead letter re-sent to …").
      expect(back.headers['location']).to.equal(`/dashboard/deliveries/${entry}?requeued=1&dst=${dst.id}`);
      const offsite = await http.post(`/dashboard/webhooks/${hook}/destinations/${dst.id}/retry`).set('cookie', cookie).type('form').send({ csrf: csrfOf(dead), back: 'https://evil.example/' }).expect(303);
      // Never off-site: an outside `back` is replaced by the webhook's own page.
      expect(String(offsite.headers['location'])).to.match(new RegExp(`^/dashboard/webhooks/${hook}(\\?requeued=\\d+&dst=${dst.id})?$`));
      await eventually(async () => ((await deliveryPage()).text.includes('data-state="delivered"') ? true : undefined), 'delivered on the delivery page');
    });
  });
}
