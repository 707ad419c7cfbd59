// Dashboard forms while the database refuses writes: a real SQLite fault on the service's one writer
// connection (read-only), and a throwaway PostgreSQL cluster stopped mid-run. A form that writes answers 503 storage_unavailable as a page that says so,
// never 500, and stores nothing; once the database takes writes again the same form works. A browser
// (asking for HTML) gets the answer as a small page, with the same status and Retry-After.
import { expect } from 'chai';
import request from 'supertest';
import type { Knex } from 'knex';
import type { Database } from '@switchyard/storage-knex';
import { TEST_API_KEY, startTestService, type TestService } from '../support/app.js';
import { startPgCluster, type PgCluster } from '../support/pg-cluster.js';
import { eventually } from '../support/receiver.js';

/** What a browser sends for a page or a form's answer. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/** A 503 storage_unavailable as a page: HTML, Retry-After, the code and what to do, never JSON. */
function expectOutagePage(res: request.Response): void {
  expect(res.status, res.text).to.equal(503);
  expect(res.headers['content-type']).to.match(/^text\/html/);
  expect(res.headers['retry-after']).to.match(/^\d+$/);
  expect(res.text).to.contain('<h1>storage_unavailable</h1>');
  expect(res.text).to.contain(`Try again in ${res.headers['retry-after']} seconds`);
}

describe('dashboard forms during a storage outage (sqlite, read-only)', function () {
  this.timeout(30_000);
  let svc: TestService;
  let http: ReturnType<typeof request>;
  let writer: Knex;
  let cookie: string;
  const csrfOf = (page: string) => /name="csrf" value="([^"]+)"/.exec(page)![1]!;
  const hookNames = async () => ((await http.get('/api/objects/webhook').set('x-sheets-key', TEST_API_KEY).expect(200)).body.items as Array<{ name: string }>).map((h) => h.name);

  before(async () => {
    svc = await startTestService('sqlite');
    http = request(svc.switchyard.app);
    writer = (await svc.switchyard.container.getAsync<Database>(Symbol.for('switchyard.Database'))).knex;
    const signedIn = await http.post('/dashboard/login').type('form').send({ api_key: TEST_API_KEY }).expect(303);
    cookie = signedIn.headers['set-cookie']![0]!.split(';')[0]!;
  });
  after(async () => {
    await svc?.close();
  });

  it('answers the new-webhook form with 503 storage_unavailable, stores nothing, and creates it once writes are back', async () => {
    const csrf = csrfOf((await http.get('/dashboard/webhooks').set('cookie', cookie).expect(200)).text);
    const create = (name: string) => http.post('/dashboard/webhooks').set('cookie', cookie).type('form').send({ csrf, name });
    await writer.raw('PRAGMA query_only = 1');
    let refused: request.Response;
    try {
      refused = await create('made during the outage');
    } finally {
      await writer.raw('PRAGMA query_only = 0');
    }
    expect(refused.status, refused.text).to.equal(503);
    expect(refused.headers['retry-after']).to.match(/^\d+$/);
    expect(refused.body.error.code).to.equal('storage_unavailable');
    expect(await hookNames()).to.not.include('made during the outage');

    const made = await create('made after the outage').expect(303);
    expect(made.headers['location']).to.match(/^\/dashboard\/webhooks\/\w+\?did=created$/);
    expect(await hookNames()).to.include('made after the outage');
  });

  it('answers a browser sending the form with the 503 as a page (HTML, Retry-After), and stores nothing', async () => {
    const csrf = csrfOf((await http.get('/dashboard/webhooks').set('cookie', cookie).expect(200)).text);
    await writer.raw('PRAGMA query_only = 1');
    let refused: request.Response;
    try {
      refused = await http.post('/dashboard/webhooks').set('cookie', cookie).set('accept', BROWSER_ACCEPT).type('form').send({ csrf, name: 'sent from a browser during the outage' });
    } finally {
      await writer.raw('PRAGMA query_only = 0');
    }
    expectOutagePage(refused);
    expect(refused.text).to.contain('the form can be sent again as it is');
    expect(await hookNames()).to.not.include('sent from a browser during the outage');
  });

  it('still signs in and shows pages while writes are refused: a session is not a database write', async () => {
    await writer.raw('PRAGMA query_only = 1');
    try {
      const signedIn = await http.post('/dashboard/login').type('form').send({ api_key: TEST_API_KEY }).expect(303);
      const fresh = signedIn.headers['set-cookie']![0]!.split(';')[0]!;
      expect((await http.get('/dashboard/webhooks').set('cookie', fresh).expect(200)).text).to.contain('made after the outage');
    } finally {
      await writer.raw('PRAGMA query_only = 0');
    }
  });
});

describe('dashboard forms during a storage outage (a PostgreSQL cluster stopped, then started)', function () {
  this.timeout(120_000);
  let cluster: PgCluster | undefined;
  let svc: TestService | undefined;

  before(async () => {
    cluster = await startPgCluster();
    svc = await startTestService('sqlite', { database: { url: cluster.url } });
  });
  after(async () => {
    await svc?.close();
    cluster?.remove();
  });

  it('answers the new-webhook form with 503 storage_unavailable while it is down, never 500, and creates it once it is back', async () => {
    const http = request(svc!.switchyard.app);
    const cookie = (await http.post('/dashboard/login').type('form').send({ api_key: TEST_API_KEY }).expect(303)).headers['set-cookie']![0]!.split(';')[0]!;
    const csrf = /name="csrf" value="([^"]+)"/.exec((await http.get('/dashboard/webhooks').set('cookie', cookie).expect(200)).text)![1]!;
    const create = (name: string) => http.post('/dashboard/webhooks').set('cookie', cookie).type('form').send({ csrf, name });
    const names = async () => ((await http.get('/api/objects/webhook').set('x-sheets-key', TEST_API_KEY).expect(200)).body.items as Array<{ name: string }>).map((h) => h.name);

    cluster!.stop();
    const refused = await create('made while PostgreSQL was down');
    expect(refused.status, refused.text).to.equal(503);
    expect(refused.headers['retry-after']).to.match(/^\d+$/);
    expect(refused.body.error.code).to.equal('storage_unavailable');
    // A browser gets both the form's answer and the pages it reads as a page that says so.
    expectOutagePage(await create('made while PostgreSQL was down').set('accept', BROWSER_ACCEPT));
    const listing = await http.get('/dashboard/webhooks').set('cookie', cookie).set('accept', BROWSER_ACCEPT);
    expectOutagePage(listing);
    expect(listing.text).to.contain('<a href="/dashboard/webhooks">Reload the page</a>');
    // Any other client reading a page gets the API's JSON answer.
    expect((await http.get('/dashboard/webhooks').set('cookie', cookie).expect(503)).body.error.code).to.equal('storage_unavailable');

    cluster!.start();
    await eventually(async () => ((await create('made once PostgreSQL was back')).status === 303 ? true : undefined), 'the form to create the webhook again');
    const stored = await names();
    expect(stored).to.include('made once PostgreSQL was back');
    expect(stored).to.not.include('made while PostgreSQL was down');
  });
});
