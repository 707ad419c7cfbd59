// Malformed percent-encoding in a path, a query or the dashboard's cookie is 400 invalid_request
// (a coded JSON error) on every mounted route, as the OpenAPI document lists them (dashboard pages,
// content pages and /hook included), and never a 500.
import { expect } from 'chai';
import request from 'supertest';
import { TEST_API_KEY, engines, startTestService, type TestService } from '../support/app.js';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
type Method = (typeof METHODS)[number];
/** A `%` with one hex digit, an over-long UTF-8 sequence cut short, and a lone continuation byte. */
const MALFORMED = ['%E0%A4%A', '%zz', '%C0'];

for (const engine of engines()) {
  describe(`malformed percent-encoding (${engine})`, function () {
    this.timeout(60_000);
    let svc: TestService;
    let http: ReturnType<typeof request>;
    let routes: Array<{ method: Method; path: string }>;

    before(async () => {
      svc = await startTestService(engine);
      http = request(svc.switchyard.app);
      const doc = (await http.get('/api/workspace').expect(200)).body as { paths: Record<string, Record<string, unknown>> };
      routes = Object.entries(doc.paths).flatMap(([path, item]) => METHODS.filter((m) => m in item).map((method) => ({ method, path })));
    });
    after(async () => svc?.close());

    /** Sends with the owner's key (so that credentials are never what refuses) and checks the 400. */
    const expectRefused = async (method: Method, url: string, where: string, headers: Record<string, string> = {}) => {
      const res = await http[method](url).set('x-sheets-key', TEST_API_KEY).set(headers);
      expect(res.status, `${method.toUpperCase()} ${url} ${JSON.stringify(headers)}: ${res.text.slice(0, 200)}`).to.equal(400);
      expect(res.headers['content-type']).to.match(/^application\/json/);
      expect(res.body.ok).to.equal(false);
      expect(res.body.error).to.include({ code: 'invalid_request', where });
      return res;
    };
    const filled = (path: string, value: string) => path.replace(/\{\w+\}/g, value);

    it('the route list covers the API, the dashboard, the content pages and /hook', () => {
      const paths = routes.map((r) => r.path);
      expect(paths).to.include.members(['/api/dispatch', '/hook/{id}', '/hook/{id}/{action}', '/dashboard/webhooks/{id}', '/articles/{name}']);
      expect(routes.length).to.be.greaterThan(30);
    });

    it('a malformed path parameter is 400 on every route that has one', async () => {
      for (const { method, path } of routes.filter((r) => r.path.includes('{'))) {
        for (const bad of MALFORMED) await expectRefused(method, filled(path, bad), 'path');
      }
    });

    it('a malformed segment after any route path is 400', async () => {
      for (const { method, path } of routes) await expectRefused(method, `${filled(path, 'x').replace(/\/$/, '')}/${MALFORMED[0]}`, 'path');
    });

    it('a malformed query is 400 on every route', async () => {
      for (const { method, path } of routes) {
        for (const bad of MALFORMED) await expectRefused(method, `${filled(path, 'x')}?q=${bad}`, 'query');
      }
    });

    it('a malformed dashboard cookie is 400 on every route, and the answer clears it', async () => {
      for (const { method, path } of routes) {
        const res = await expectRefused(method, filled(path, 'x'), 'cookie', { cookie: `other=1; sy_dashboard=${MALFORMED[0]}` });
        expect(String(res.headers['set-cookie'])).to.match(/^sy_dashboard=; Path=\/dashboard; Expires=Thu, 01 Jan 1970/);
      }
    });

    it('a malformed upstream-connect cookie (the OAuth state of a Connect) is 400 and cleared, not a 500', async () => {
      const res = await expectRefused('get', '/dashboard/upstreams/x/callback?state=s&code=c', 'cookie', { cookie: `sy_upstream_connect=${MALFORMED[0]}` });
      expect(String(res.headers['set-cookie'])).to.match(/^sy_upstream_connect=; Path=\/dashboard\/upstreams; Expires=Thu, 01 Jan 1970/);
    });

    it('well-formed encodings and foreign cookies pass the guard', async () => {
      expect((await http.get('/api/dispatch?ask=caf%C3%A9%20100%25').expect(200)).body.ok).to.equal(true);
      expect((await http.get('/hook/hk_%C3%A9').expect(404)).body.error.code).to.equal('webhook_not_found');
      // A cookie of another application on the same host is never decoded, so never refused.
      await http.get('/healthz').set('cookie', 'theirs=100%; sy_dashboard=a%2Eb').expect(200);
      await http.get('/dashboard/login').set('cookie', `theirs=${MALFORMED[0]}`).expect(200);
    });
  });
}
