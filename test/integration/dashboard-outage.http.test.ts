// Dashboard forms while the database refuses writes: a real SQLite fault on the service's one writer
// connection (read-only), and a throwaway PostgreSQL cluster stopped mid-run. A form that writes answers 503 storage_unavailable as a page that says so,
// never 500, and stores nothing; once the database takes writes again the same form works.
import { expect } from 'chai';
import request from 'supertest';
import type { Knex } from 'knex';
import type { Database } from '@switchyard/storage-knex';
import { TEST_API_KEY, startTestService, type TestService } from '../support/app.js';
import { startPgCluster, type PgCluster } from '../support/pg-cluster.js';
import { eventually } from '../support/receiver.js';

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

    cluster!.start();
    await eventually(async () => ((await create('made once PostgreSQL was back')).status === 303 ? true : undefined), 'the form to create the webhook again');
    const stored = await names();
    expect(stored).to.include('made once PostgreSQL was back');
    expect(stored).to.not.include('made while PostgreSQL was down');
  });
});
