// A face that names its paths (the MCP faces: /mcp) is entered for those paths only, and is
// mounted before the API so a tools/call walks none of the API's routes: what it answers must not
// change. Routes still match in any letter case and with a trailing slash, as Express matches them;
// a path that only starts with the same letters is not the face's; the API answers as before.
import { expect } from 'chai';
import request from 'supertest';
import { TEST_API_KEY, engines, startTestService, type TestService } from '../support/app.js';

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } } };

for (const engine of engines()) {
  describe(`HTTP faces: a face entered for its own paths only (${engine})`, function () {
    this.timeout(60_000);
    let svc: TestService;
    let http: ReturnType<typeof request>;
    const mcp = (path: string) => http.post(path).set('x-sheets-key', TEST_API_KEY).set('accept', 'application/json, text/event-stream').send(initialize);

    before(async () => {
      svc = await startTestService(engine);
      http = request(svc.switchyard.app);
    });
    after(async () => svc.close());

    it('answers /mcp in any letter case and with a trailing slash, as Express routes match', async () => {
      for (const path of ['/mcp', '/MCP', '/Mcp/']) {
        const res = await mcp(path).expect(200);
        expect(res.headers['mcp-session-id'], path).to.be.a('string');
      }
    });

    it('leaves a path that only begins like /mcp to the faces after it (404), and /mcp/x to its own routes', async () => {
      const near = await mcp('/mcpx').expect(404);
      expect(near.body.error.code).to.equal('not_found');
      // Under /mcp but no MCP route: the face's own guard runs first (credentials, Host), then the 404.
      await mcp('/mcp/nothing-here').expect(404);
    });

    it('still answers the API after the MCP face (one prefix check), with its own errors', async () => {
      const listed = await http.get('/api/invocations?object_id=NOT_A_KEY_YET').set('x-sheets-key', TEST_API_KEY).expect(200);
      expect(listed.body.items).to.be.an('array');
      await http.get('/healthz').expect(200);
      const refused = await http.post('/api/dispatch').send({ key: 'NOT_A_KEY', body: {} });
      expect(refused.status).to.equal(401);
    });
  });
}
