// OAuth across processes and client ID metadata documents, on each engine. Two service instances
// on one database: a grant revoked through one refuses its token on the other at the very next
// request (the grant is read from the database on every use, never cached). A client whose id is
// the URL of its metadata document gets consent and tokens without registering; the document is
// fetched under the address policy (an internal address only when allowlisted).
import { createServer, type Server } from 'node:http';
import { expect } from 'chai';
import request from 'supertest';
import { createLogger, createSwitchyard, deepMerge, loadConfig, type Switchyard } from '@switchyard/app';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';
import { consentPage, decide, pkce, registerClient, signIn, authorizeQuery, REDIRECT } from '../support/oauth.js';

const EDGE = 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER';
/** Both instances are one service behind one name (PUBLIC_BASE_URL): resources and the issuer are named by it. */
const PUBLIC = 'http://sy.test';

for (const engine of engines()) {
  describe(`OAuth across instances and with metadata documents (${engine})`, function () {
    this.timeout(60_000);
    let svc: ListeningService;
    let second: Switchyard;
    let docServer: Server;
    let docUrl: string;
    let document: Record<string, unknown>;

    before(async () => {
      docServer = createServer((req, res) => {
        if (req.url === '/client.json') res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(document));
        else res.writeHead(404).end();
      }).listen(0, '127.0.0.1');
      await new Promise((r) => docServer.once('listening', r));
      const port = (docServer.address() as import('node:net').AddressInfo).port;
      docUrl = `http://127.0.0.1:${port}/client.json`;
      svc = await startListeningService(engine, { server: { publicBaseUrl: PUBLIC }, tokens: { mintPerMinute: 1000 }, oauth: { clientMetadata: { allow: [`127.0.0.1:${port}`], allowHttp: true } } });
      // A second process of the same service: same database, its own memory.
      const config = loadConfig({ env: {}, overrides: deepMerge({ database: { url: svc.db.url }, auth: { apiKey: TEST_API_KEY }, log: { level: 'silent' }, server: { port: 0, publicBaseUrl: PUBLIC }, content: { folder: svc.contentFolder } }, {}) });
      second = await createSwitchyard(config, { logger: createLogger('silent') });
    });
    after(async () => {
      await second?.close();
      await svc?.close();
      docServer?.close();
    });

    const initialize = (app: Parameters<typeof request>[0], token: string) =>
      request(app).post('/mcp').set('host', 'sy.test').set('authorization', `Bearer ${token}`).set('accept', 'application/json, text/event-stream')
        .send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } });

    it('a grant revoked on one instance refuses its token on the other at the next request', async () => {
      const http = request(svc.url);
      const cookie = await signIn(http);
      const { client_id } = await registerClient(http);
      const { verifier, challenge } = pkce();
      const params = { response_type: 'code', client_id, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', resource: `${PUBLIC}/mcp` };
      const { csrf } = await consentPage(http, cookie, params);
      const code = (await decide(http, cookie, params, csrf, 'allow', [EDGE])).searchParams.get('code')!;
      const { access_token } = (await http.post('/oauth/token').type('form').send({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id, code_verifier: verifier }).expect(200)).body;
      expect((await http.get('/.well-known/oauth-protected-resource/mcp').expect(200)).body.resource).to.equal(`${PUBLIC}/mcp`);
      await initialize(svc.switchyard.app, access_token).expect(200);
      await initialize(second.app, access_token).expect(200);
      const clients = (await request(second.app).get('/api/oauth/clients').set('x-sheets-key', TEST_API_KEY).expect(200)).body.clients as Array<{ id: string; grants: Array<{ id: string }> }>;
      const grant = clients.find((c) => c.id === client_id)!.grants[0]!.id;
      await request(second.app).delete(`/api/oauth/grants/${grant}`).set('x-sheets-key', TEST_API_KEY).expect(200);
      expect((await initialize(svc.switchyard.app, access_token).expect(401)).body.error.code).to.equal('token_revoked');
      expect((await initialize(second.app, access_token).expect(401)).body.error.code).to.equal('token_revoked');
    });

    it('takes a client ID metadata document as the client: consent shows its name, the token names it as actor', async () => {
      document = { client_id: docUrl, client_name: 'Document client', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' };
      const http = request(svc.url);
      const cookie = await signIn(http);
      const { verifier, challenge } = pkce();
      const params = { response_type: 'code', client_id: docUrl, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state: 's', resource: `${PUBLIC}/mcp` };
      const { html, csrf } = await consentPage(http, cookie, params);
      expect(html).to.contain('Document client').and.contain('its metadata document');
      const code = (await decide(http, cookie, params, csrf, 'allow', [EDGE])).searchParams.get('code')!;
      const tokens = (await http.post('/oauth/token').type('form').send({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: docUrl, code_verifier: verifier }).expect(200)).body;
      await initialize(svc.switchyard.app, tokens.access_token).expect(200);
      const caveats = (JSON.parse(Buffer.from(tokens.access_token.slice(4).split('.')[0], 'base64url').toString('utf8')) as { c: string[] }).c;
      expect(caveats).to.include(`actor=${encodeURIComponent(docUrl)}`).and.include(`resource=${encodeURIComponent(`${PUBLIC}/mcp`)}`);
      const listed = (await http.get('/api/oauth/clients').set('x-sheets-key', TEST_API_KEY).expect(200)).body.clients as Array<{ id: string; kind: string; grants: unknown[] }>;
      expect(listed.find((c) => c.id === docUrl)).to.deep.include({ kind: 'metadata_document' });
    });

    it('refuses a document that names another client, a redirect it does not list, or an address not allowlisted: error pages, no redirect', async () => {
      const http = request(svc.url);
      const cookie = await signIn(http);
      const params = { response_type: 'code', client_id: docUrl, redirect_uri: REDIRECT, code_challenge: pkce().challenge, code_challenge_method: 'S256' };
      document = { client_id: 'http://127.0.0.1:1/other.json', client_name: 'Impostor', redirect_uris: [REDIRECT] };
      let res = await http.get(authorizeQuery(params)).set('cookie', cookie).expect(400);
      expect(res.text).to.contain('invalid_client').and.contain('another client_id');
      document = { client_id: docUrl, client_name: 'Document client', redirect_uris: ['http://127.0.0.1:9/elsewhere'] };
      res = await http.get(authorizeQuery(params)).set('cookie', cookie).expect(400);
      expect(res.headers['location']).to.equal(undefined);
      // The second instance has no allowlist: the loopback document is an internal address, refused.
      const secondCookie = await signIn(request(second.app));
      res = await request(second.app).get(authorizeQuery({ ...params })).set('cookie', secondCookie).expect(400);
      expect(res.text).to.contain('invalid_client');
    });
  });
}
