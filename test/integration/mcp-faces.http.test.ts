// The MCP faces besides /mcp, on each engine, through the official SDK client: an imported server
// as itself at /mcp/servers/<name> (tools under their upstream names, resources and prompts
// forwarded, each call a ledgered run of its key) and a curated virtual server at /mcp/v/<name>;
// and the protocol hygiene every face shares: Host and Origin, JSON-RPC errors, cursors, 401s,
// protocol versions, and a stale upstream session re-established inside the call.
import { expect } from 'chai';
import request from 'supertest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION, ResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { narrowToken } from '@switchyard/core';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';
import { rpcError } from '../support/rpc-error.js';
import { PNG, startConformanceUpstream, type ConformanceUpstream } from '../support/conformance-upstream.js';
import { startEverythingHttp, type EverythingHttp } from '../support/everything-server.js';

const OPEN = { auth: 'none', risk: 'low', approval: false };
const EDGE = 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER';
const init = (protocolVersion = '2025-06-18') => ({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 't', version: '0' } } });

for (const engine of engines()) {
  describe(`MCP faces: /mcp/servers/<name>, /mcp/v/<name> and protocol hygiene (${engine})`, function () {
    this.timeout(60_000);
    let upstream: ConformanceUpstream;
    let everything: EverythingHttp;
    let svc: ListeningService;
    let http: ReturnType<typeof request>;
    const clients: Client[] = [];
    const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);
    const connect = async (path: string, headers: Record<string, string> = { 'x-sheets-key': TEST_API_KEY }): Promise<Client> => {
      const client = new Client({ name: 'switchyard-test', version: '0.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}${path}`), { requestInit: { headers } }));
      clients.push(client);
      return client;
    };
    const warnings: Array<{ message: string; fields?: Record<string, unknown> }> = [];
    const logger = { info() {}, debug() {}, error() {}, warn: (message: string, fields?: Record<string, unknown>) => warnings.push({ message, ...(fields ? { fields } : {}) }) };
    const post = (path: string) => owner(http.post(path)).set('accept', 'application/json, text/event-stream');

    before(async () => {
      upstream = await startConformanceUpstream();
      everything = await startEverythingHttp();
      svc = await startListeningService(engine, {
        tokens: { mintPerMinute: 1000 },
        upstreams: {
          servers: {
            conformance: { system: 'CONFORMANCE', transport: 'streamable-http', url: upstream.url, defaults: OPEN },
            everything: { system: 'EVERYTHING_HTTP', transport: 'streamable-http', url: everything.url, tools: { echo: OPEN } },
          },
        },
        mcp: {
          pageSize: 3,
          allowedHosts: ['proxy.example'],
          allowedOrigins: ['https://app.example'],
          virtualServers: { ops: { description: 'Edge workers and the echo', tools: [EDGE, 'CONFORMANCE_TEST_SIMPLE_TEXT', 'NOT_A_KEY'] } },
        },
      }, { logger });
      http = request(svc.url);
    });
    afterEach(async () => {
      await Promise.all(clients.splice(0).map((c) => c.close()));
    });
    after(async () => {
      await svc?.close();
      await upstream?.close();
      await everything?.stop();
    });

    it('serves an imported server under its tools\' own names; a call is a ledgered run of its capability key', async () => {
      const client = await connect('/mcp/servers/conformance');
      expect(client.getServerVersion()?.name).to.equal('switchyard/conformance');
      const names: string[] = [];
      for (let cursor: string | undefined, pages = 0; pages < 10; pages++) {
        const page = await client.listTools(cursor === undefined ? {} : { cursor });
        names.push(...page.tools.map((t) => t.name));
        cursor = page.nextCursor;
        if (!cursor) break;
      }
      expect(names).to.include('test_simple_text').and.include('test_error_handling').and.not.include('CONFORMANCE_TEST_SIMPLE_TEXT');
      // Every imported tool once, across pages of 3.
      const imported = ((await owner(http.get('/api/upstreams')).expect(200)).body.items as { name: string; keys: string[] }[]).find((u) => u.name === 'conformance')!;
      expect(names.length).to.equal(imported.keys.length).and.be.greaterThan(3);
      expect(new Set(names).size).to.equal(names.length);

      const text = (await client.callTool({ name: 'test_simple_text', arguments: {} })) as CallToolResult;
      expect(text.isError).to.equal(false);
      // A string result is the upstream's text, not quoted again.
      expect(text.content).to.deep.equal([{ type: 'text', text: 'This is a simple text response for testing.' }]);
      const invocation = (text.structuredContent as { invocation: string }).invocation;
      const read = (await owner(http.get(`/api/invocations/${invocation}`)).expect(200)).body.invocation;
      expect(read).to.include({ key: 'CONFORMANCE_TEST_SIMPLE_TEXT', ok: true });

      const failed = (await client.callTool({ name: 'test_error_handling', arguments: {} })) as CallToolResult;
      expect(failed.isError).to.equal(true);
      expect((failed.structuredContent as { error: { code: string } }).error.code).to.equal('tool_error');

      const unknown = await rpcError(client.callTool({ name: 'CONFORMANCE_TEST_SIMPLE_TEXT', arguments: {} }));
      expect(unknown.code).to.equal(-32602);
      expect((unknown.data as { tools: string[] }).tools).to.include('test_simple_text');
    });

    it('forwards resources, templates, prompts and completion to the imported server unchanged', async () => {
      const client = await connect('/mcp/servers/conformance');
      expect((await client.listResources()).resources.map((r) => r.uri)).to.include('test://static-text');
      expect((await client.readResource({ uri: 'test://static-binary' })).contents).to.deep.equal([{ uri: 'test://static-binary', mimeType: 'image/png', blob: PNG }]);
      expect((await client.listResourceTemplates()).resourceTemplates[0]!.uriTemplate).to.equal('test://template/{id}/data');
      expect((await client.readResource({ uri: 'test://template/7/data' })).contents[0]).to.deep.include({ text: JSON.stringify({ id: '7', templateTest: true, data: 'Data for ID: 7' }) });
      const prompt = await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'a', arg2: 'b' } });
      expect(prompt.messages).to.deep.equal([{ role: 'user', content: { type: 'text', text: "Prompt with arguments: arg1='a', arg2='b'" } }]);
      expect((await client.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'par' } })).completion.values).to.deep.equal(['paris', 'park', 'party']);
      // The upstream's own JSON-RPC error comes back with its code.
      const missing = await rpcError(client.readResource({ uri: 'test://nowhere' }));
      expect(missing.code).to.equal(-32002);
    });

    it('shows resources and prompts only to a credential offered every tool of the server', async () => {
      const { token } = (await http.get('/start').expect(200)).body as { token: string };
      const keyless = await connect('/mcp/servers/conformance', { authorization: `Bearer ${token}` });
      expect((await keyless.listPrompts()).prompts.length).to.equal(4);
      const narrowed = await connect('/mcp/servers/conformance', { authorization: `Bearer ${narrowToken(token, { keys: ['CONFORMANCE_TEST_SIMPLE_TEXT'] })}` });
      expect((await narrowed.listTools()).tools.map((t) => t.name)).to.deep.equal(['test_simple_text']);
      const denied = await rpcError(narrowed.listResources());
      expect(denied.code).to.equal(-32003);
      expect(denied.data).to.deep.include({ code: 'scope_denied' });
    });

    it('serves a curated virtual server: the configured keys the credential may invoke, by key, with its description', async () => {
      const client = await connect('/mcp/v/ops');
      expect(client.getInstructions()).to.equal('Edge workers and the echo');
      expect((await client.listTools()).tools.map((t) => t.name)).to.deep.equal(['CONFORMANCE_TEST_SIMPLE_TEXT', EDGE]);
      const ran = (await client.callTool({ name: EDGE, arguments: { workerId: '0123456789abcdef0123456789abcdef' } })) as CallToolResult;
      expect((ran.structuredContent as { ok: boolean }).ok).to.equal(true);
      // A capability outside the set is not a tool here, though /mcp offers it.
      expect((await rpcError(client.callTool({ name: 'EVERYTHING_HTTP_ECHO', arguments: { message: 'x' } }))).code).to.equal(-32602);
      // The key config names that nobody registered is skipped, and said at start.
      expect(warnings.find((w) => w.message.startsWith('mcp.virtualServers'))?.fields).to.deep.equal({ server: 'ops', keys: ['NOT_A_KEY'] });
      const unknown = await post('/mcp/v/nope').send(init()).expect(404);
      expect(unknown.body.error).to.deep.include({ code: 'not_found', servers: ['ops'] });
      const noServer = await post('/mcp/servers/nope').send(init()).expect(404);
      expect(noServer.body.error.code).to.equal('upstream_not_found');
    });

    it('checks Host and Origin on every face: the listening address, localhost on loopback and configured names pass; others are 403', async () => {
      const port = new URL(svc.url).port;
      for (const path of ['/mcp', '/mcp/servers/conformance', '/mcp/v/ops']) {
        const evil = await post(path).set('host', `evil.example:${port}`).send(init()).expect(403);
        expect(evil.body).to.deep.include({ jsonrpc: '2.0', id: null });
        expect(evil.body.error.code).to.equal(-32000);
        await post(path).set('host', `localhost:${port}`).set('origin', `http://localhost:${port}`).send(init()).expect(200);
        await post(path).set('origin', `http://evil.example`).send(init()).expect(403);
      }
      await post('/mcp').set('host', 'proxy.example').send(init()).expect(200);
      await post('/mcp').set('origin', 'https://app.example').send(init()).expect(200);
      await post('/mcp').set('origin', 'null').send(init()).expect(403);
    });

    it('answers JSON-RPC errors: -32700 for a body that is not JSON, -32600 for one too large, -32601 for an unknown method, -32602 for a bad cursor', async () => {
      const parse = await post('/mcp').set('content-type', 'application/json').send('{"jsonrpc": "2.0", "id": 1, "method": ').expect(400);
      expect(parse.body).to.deep.include({ jsonrpc: '2.0', id: null });
      expect(parse.body.error.code).to.equal(-32700);
      const big = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: EDGE, arguments: { workerId: 'x'.repeat(1_100_000) } } };
      const tooLarge = await post('/mcp/v/ops').send(big).expect(413);
      expect(tooLarge.body.error).to.deep.include({ code: -32600 });
      expect(tooLarge.body.error.data).to.deep.include({ code: 'payload_too_large' });
      // tools/call without a tool name: the params do not match the method's schema.
      const bad = await post('/mcp').set('mcp-protocol-version', '2025-06-18').send({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { arguments: 5 } }).expect(200);
      expect(bad.body).to.deep.include({ jsonrpc: '2.0', id: 7 });
      expect(bad.body.error.code).to.equal(-32602);
      const client = await connect('/mcp');
      expect((await rpcError(client.request({ method: 'no/such/method', params: {} }, ResultSchema))).code).to.equal(-32601);
      for (const path of ['/mcp', '/mcp/servers/conformance']) {
        const c = await connect(path);
        expect((await rpcError(c.listTools({ cursor: 'not-a-cursor!' }))).code).to.equal(-32602);
        expect((await rpcError(c.listTools({ cursor: Buffer.from('after:x').toString('base64') + '=' }))).code).to.equal(-32602);
      }
    });

    it("answers one request as JSON as the SDK's transport does, and leaves every refusal of it to that transport", async () => {
      const ping = { jsonrpc: '2.0', id: 'p1', method: 'ping' };
      for (const path of ['/mcp', '/mcp/v/ops']) {
        const ok = await post(path).set('mcp-protocol-version', '2025-06-18').send(ping).expect(200);
        expect(ok.headers['content-type']).to.match(/^application\/json/);
        expect(ok.body).to.deep.equal({ jsonrpc: '2.0', id: 'p1', result: {} });
        // Without text/event-stream in Accept: 406; not JSON: 415; an unknown protocol version: 400.
        const notAcceptable = await owner(http.post(path)).set('accept', 'application/json').send(ping).expect(406);
        expect(notAcceptable.body.error.code).to.equal(-32000);
        await post(path).set('content-type', 'text/plain').send(JSON.stringify(ping)).expect(415);
        const version = await post(path).set('mcp-protocol-version', '1999-01-01').send(ping).expect(400);
        expect(version.body.error.message).to.match(/Unsupported protocol version/);
        // Not a JSON-RPC message: -32700; a notification alone: 202 with no body.
        const invalid = await post(path).send({ jsonrpc: '1.0', id: 3, method: 'ping' }).expect(400);
        expect(invalid.body.error.code).to.equal(-32700);
        await post(path).send({ jsonrpc: '2.0', method: 'notifications/initialized' }).expect(202);
      }
    });

    it('pages tools/list with real cursors: every tool once, in name order, across pages', async () => {
      const client = await connect('/mcp');
      const names: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await client.listTools(cursor === undefined ? {} : { cursor });
        expect(page.tools.length).to.be.at.most(3);
        names.push(...page.tools.map((t) => t.name));
        cursor = page.nextCursor;
        pages++;
      } while (cursor && pages < 200);
      const registry = (await http.get('/api/dispatch?registry=1').expect(200)).body.capabilities as { key: string }[];
      expect(names).to.deep.equal(registry.map((c) => c.key).sort());
      expect(pages).to.be.greaterThan(1);
    });

    it('a 401 on the MCP faces carries WWW-Authenticate: Bearer with its resource metadata, which answers; an accepted request does not', async () => {
      for (const path of ['/mcp', '/mcp/servers/conformance', '/mcp/v/ops']) {
        const none = await http.post(path).set('accept', 'application/json, text/event-stream').send(init()).expect(401);
        // RFC 9728 §5.1: where this face's protected resource metadata is, and the scope to ask for.
        expect(none.headers['www-authenticate']).to.match(new RegExp(`^Bearer resource_metadata="https?://[^"]+/\\.well-known/oauth-protected-resource${path}", scope="invoke:\\*"$`));
        expect(none.body.error.code).to.equal('credential_required');
        const metadata = (await http.get(`/.well-known/oauth-protected-resource${path}`).expect(200)).body;
        expect(metadata.resource).to.equal(`${svc.url}${path}`);
        expect(metadata.scopes_supported[0]).to.equal('invoke:*');
      }
      const ok = await post('/mcp').send(init()).expect(200);
      expect(ok.headers['www-authenticate']).to.equal(undefined);
    });

    it('negotiates the protocol: the latest version the SDK supports, an older one when asked', async () => {
      const latest = await post('/mcp').send(init('2099-01-01')).expect(200);
      expect(latest.body.result.protocolVersion).to.equal(LATEST_PROTOCOL_VERSION);
      const old = await post('/mcp/servers/conformance').send(init('2024-11-05')).expect(200);
      expect(old.body.result.protocolVersion).to.equal('2024-11-05');
      const current = await post('/mcp/v/ops').send(init(LATEST_PROTOCOL_VERSION)).expect(200);
      expect(current.body.result.protocolVersion).to.equal(LATEST_PROTOCOL_VERSION);
    });

    it('re-establishes a stale upstream session inside the same call: the first call after an idle restart succeeds', async () => {
      const run = () => owner(http.post('/api/dispatch')).send({ key: 'EVERYTHING_HTTP_ECHO', body: { message: 'before' } });
      expect((await run().expect(200)).body.result).to.equal('Echo: before');
      const port = everything.port;
      await everything.stop();
      everything = await startEverythingHttp(port);
      // The connection we hold still names the old process's session: it answers 404, and the call is retried on a new one.
      const after = await owner(http.post('/api/dispatch')).send({ key: 'EVERYTHING_HTTP_ECHO', body: { message: 'after restart' } });
      expect(after.status, JSON.stringify(after.body.error)).to.equal(200);
      expect(after.body.result).to.equal('Echo: after restart');
      const ledger = (await owner(http.get('/api/invocations?object_id=EVERYTHING_HTTP_ECHO')).expect(200)).body.items as { ok: boolean }[];
      expect(ledger.map((i) => i.ok)).to.deep.equal([true, true]);
    });
  });
}
