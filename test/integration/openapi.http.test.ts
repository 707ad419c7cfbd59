// GET /api/workspace: the protocol spec is a valid OpenAPI 3.1 document (checked with a maintained
// validator) that describes every route the service actually mounts, and nothing it does not.
import { expect } from 'chai';
import request from 'supertest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { TEST_API_KEY, engines, startTestService, type TestService } from '../support/app.js';
import { mountedRoutes } from '../support/mounted-routes.js';

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'];

for (const engine of engines()) {
  describe(`HTTP protocol spec: OpenAPI at /api/workspace (${engine})`, function () {
    this.timeout(20_000);
    let svc: TestService;
    let doc: Record<string, any>;

    before(async () => {
      svc = await startTestService(engine);
      doc = (await request(svc.switchyard.app).get('/api/workspace').expect(200).expect('content-type', /json/)).body;
    });
    after(async () => svc?.close());

    it('is a valid OpenAPI 3.1 document', async () => {
      const result = await new Validator().validate(doc);
      expect(result.errors ?? [], JSON.stringify(result.errors, null, 1)?.slice(0, 2000)).to.deep.equal([]);
      expect(result.valid).to.equal(true);
      expect(doc['openapi']).to.equal('3.1.0');
      expect(doc['servers'][0].url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    });

    it('describes every mounted route, and no route that is not mounted', () => {
      const documented = Object.entries(doc['paths'] as Record<string, Record<string, unknown>>)
        .flatMap(([path, item]) => Object.keys(item).filter((m) => METHODS.includes(m)).map((m) => `${m.toUpperCase()} ${path}`))
        .sort();
      expect(documented).to.deep.equal(mountedRoutes(svc.switchyard.app));
    });

    it('gives every operation an id, a summary and its security, and resolves every $ref', () => {
      const ids = new Set<string>();
      for (const [path, item] of Object.entries(doc['paths'] as Record<string, Record<string, any>>)) {
        for (const [method, op] of Object.entries(item).filter(([m]) => METHODS.includes(m))) {
          expect(op.operationId, `${method} ${path}`).to.be.a('string');
          expect(ids.has(op.operationId), `duplicate ${op.operationId}`).to.equal(false);
          ids.add(op.operationId);
          expect(op.summary, `${method} ${path}`).to.be.a('string').and.not.equal('');
          expect(op.security, `${method} ${path}`).to.be.an('array').that.is.not.empty;
        }
      }
      const refs = JSON.stringify(doc).match(/"#\/components\/schemas\/(\w+)"/g) ?? [];
      for (const r of refs) expect(doc['components'].schemas).to.have.property(r.slice(22, -1));
    });

    it('describes the webhook answers as they are: receipts, deliveries, a duplicate action', async () => {
      // The document's schemas, with its own references, checked against real answers.
      const ajv = new Ajv2020({ strict: false, validateFormats: false });
      ajv.addSchema({ $id: 'spec', components: doc['components'] });
      const matches = (schema: unknown, value: unknown, what: string) => {
        const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"spec#/components/')) as object);
        expect(validate(value), `${what}: ${JSON.stringify(validate.errors)}`).to.equal(true);
      };
      // The schemas allow more fields than they name; these answers must have no field they do not name.
      const namesEvery = (name: string, value: Record<string, unknown>) =>
        expect(Object.keys(doc['components'].schemas[name].properties), `${name} names every field`).to.include.members(Object.keys(value));
      const answer = (path: string, method: string) => doc['paths'][path][method].responses['200'].content['application/json'].schema;
      const http = request(svc.switchyard.app);
      const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);
      const hook = (await owner(http.post('/api/objects/webhook')).send({ name: 'schema check' }).expect(201)).body;
      const receipt = (await http.post(`/hook/${hook.id}`).set('content-type', 'application/json').send('{"id":"evt_schema"}').expect(200)).body;
      matches(answer('/hook/{id}', 'post'), receipt, 'POST /hook/{id}');
      namesEvery('DeliveryReceipt', receipt);
      const run = () => http.post(`/hook/${hook.id}/MESSAGING_UPDATE_GROUP`).set('content-type', 'application/json').set('webhook-id', 'msg_schema').send('{"group_id":"grp_4f7c2a9d1e","name":"Schema"}').expect(200);
      matches(answer('/hook/{id}/{action}', 'post'), (await run()).body, 'a run');
      const duplicate = (await run()).body;
      expect(duplicate.action.ran).to.equal(false);
      matches(answer('/hook/{id}/{action}', 'post'), duplicate, 'a duplicate');
      const page = (await owner(http.get(`/api/ledger?event=webhook%20delivery&hook=${hook.id}`)).expect(200)).body;
      expect(page.items.length).to.equal(3);
      matches(answer('/api/ledger', 'get'), page, 'GET /api/ledger');
      for (const item of page.items) namesEvery('Delivery', item);
      matches(answer('/api/ledger/{entry}', 'get'), (await owner(http.get(`/api/ledger/${receipt.entry}`)).expect(200)).body, 'GET /api/ledger/{entry}');
      // The invocation the action ran (the duplicate ran none), through both listings.
      const invocations = (await owner(http.get('/api/ledger?event=invocation')).expect(200)).body;
      expect(invocations.items.map((i: { event: string; key: string }) => [i.event, i.key])).to.deep.equal([['invocation', 'MESSAGING_UPDATE_GROUP']]);
      matches(answer('/api/ledger', 'get'), invocations, 'GET /api/ledger?event=invocation');
      const byKey = (await owner(http.get('/api/invocations?object_id=MESSAGING_UPDATE_GROUP&order=append')).expect(200)).body;
      matches(answer('/api/invocations', 'get'), byKey, 'GET /api/invocations');
      expect(byKey.order).to.equal('append');
    });

    it('is public but still held to a token\'s scope', async () => {
      const http = request(svc.switchyard.app);
      const t = (await http.get('/start').expect(200)).body.token as string;
      await http.get('/api/workspace').set('authorization', `Bearer ${t}`).expect(200);
      expect((await http.get('/api/workspace').set('authorization', 'Bearer sy1.nope').expect(401)).body.error.code).to.equal('token_corrupted');
    });
  });
}
