// Switchyard as an MCP server at /mcp, driven by the official SDK client over streamable HTTP
// against a real listening service, on each engine: tools per credential, calls that land in the
// same ledger as POST /api/dispatch (lineage, repairs, approvals), and the error mapping.
import { expect } from 'chai';
import request from 'supertest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { narrowToken } from '@switchyard/core';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';
import { rpcError } from '../support/rpc-error.js';

const EDGE = 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER';
const GROUP = 'MESSAGING_UPDATE_GROUP';
const PAYMENTS = 'PAYMENTS_PROCESSOR_API_SEARCH';
const WORKER_A = '0123456789abcdef0123456789abcdef';
const WORKER_B = 'fedcba9876543210fedcba9876543210';

type Structured = { ok: boolean; status: string; invocation: string; result: Record<string, unknown> | null; error: { code: string } | null; approvals?: string; repair?: { repairs: string } };

for (const engine of engines()) {
  describe(`MCP server at /mcp (${engine})`, function () {
    this.timeout(30_000);
    let svc: ListeningService;
    let http: ReturnType<typeof request>;
    const clients: Client[] = [];
    const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);

    /** An SDK client connected to /mcp with the given headers (API key or Bearer token). */
    const connect = async (headers: Record<string, string>): Promise<Client> => {
      const client = new Client({ name: 'switchyard-test', version: '0.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { requestInit: { headers } }));
      clients.push(client);
      return client;
    };
    const asOwner = () => connect({ 'x-sheets-key': TEST_API_KEY });
    const bearer = (token: string) => connect({ authorization: `Bearer ${token}` });
    const start = async () => (await http.get('/start').expect(200)).body as { token: string; fingerprint: string; keys: string[] };
    const structured = (r: unknown) => (r as CallToolResult).structuredContent as Structured;

    before(async () => {
      svc = await startListeningService(engine, { tokens: { mintPerMinute: 1000 } });
      http = request(svc.url);
    });
    afterEach(async () => {
      await Promise.all(clients.splice(0).map((c) => c.close()));
    });
    after(async () => svc?.close());

    it('lists every capability for the API key, KEY as name, inputs as inputSchema, with its description', async () => {
      const client = await asOwner();
      const { tools } = await client.listTools();
      const registry = (await http.get('/api/dispatch?registry=1').expect(200)).body.capabilities as { key: string; inputs: unknown }[];
      expect(tools.map((t) => t.name).sort()).to.deep.equal(registry.map((c) => c.key).sort());
      for (const c of registry) expect(tools.find((t) => t.name === c.key)!.inputSchema, c.key).to.deep.equal(c.inputs);
      const edge = tools.find((t) => t.name === EDGE)!;
      expect(edge.description).to.contain('active worker').and.contain('none · low');
      expect(tools.find((t) => t.name === PAYMENTS)!.description).to.contain('approval required');
      expect(client.getServerVersion()?.name).to.equal('switchyard');
    });

    it('calls EDGE like POST /api/dispatch: simulator state changes, the invocation is in the ledger and confirmable', async () => {
      const client = await asOwner();
      const first = await client.callTool({ name: EDGE, arguments: { workerId: WORKER_A } });
      const second = await client.callTool({ name: EDGE, arguments: { workerId: WORKER_B } });
      expect(second.isError).to.equal(false);
      const s = structured(second);
      expect(s).to.include({ ok: true, status: 'ok' });
      expect(s.invocation).to.match(/^inv_/);
      expect(s.result).to.include({ active_worker_id: WORKER_B, previous_worker_id: WORKER_A });
      expect(JSON.parse((second.content as { type: string; text: string }[])[0]!.text)).to.deep.equal(s.result);
      // The same ledger as the dispatch endpoint: listed for the key, readable by id, publicly confirmable.
      const listed = (await owner(http.get(`/api/invocations?object_id=${EDGE}`)).expect(200)).body;
      expect(JSON.stringify(listed)).to.contain(s.invocation).and.contain(structured(first).invocation);
      const read = (await owner(http.get(`/api/invocations/${s.invocation}`)).expect(200)).body.invocation;
      expect(read).to.include({ key: EDGE, actor: 'owner', status: 'ok', ran: true, source: 'mcp' });
      expect(read.args).to.deep.equal({ workerId: WORKER_B });
      await http.get(`/api/dispatch?confirm=${s.invocation}`).expect(200);
    });

    it('a keyless token from /start lists only the auth-none keys and cannot run an auth-required one', async () => {
      const t = await start();
      const client = await bearer(t.token);
      const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
      expect(names).to.deep.equal([...t.keys].sort());
      expect(names).to.include(GROUP).and.not.include(PAYMENTS);
      // A call as the token carries its fingerprint, as a run by POST with the token would.
      const ran = structured(await client.callTool({ name: GROUP, arguments: { group_id: 'grp_4f7c2a9d1e', name: 'Renamed by MCP' } }));
      expect(ran.ok, JSON.stringify(ran)).to.equal(true);
      const read = (await owner(http.get(`/api/invocations/${ran.invocation}`)).expect(200)).body.invocation;
      expect(read.fingerprint).to.equal(t.fingerprint);
      // PAYMENTS is not offered, and calling it anyway is the same denial as by POST: the token's
      // keys never include an auth-required one, so no run happens (a JSON-RPC error, no invocation).
      const denied = await rpcError(client.callTool({ name: PAYMENTS, arguments: { query: 'refund' } }));
      expect(denied.code).to.equal(-32003);
      expect(denied.message).to.equal(`MCP error -32003: this token does not allow invoke:${PAYMENTS}`);
      expect(denied.data).to.deep.include({ code: 'scope_denied', needed: `invoke:${PAYMENTS}` });
    });

    it('a token narrowed to one key lists that one tool; another key is a scope_denied JSON-RPC error', async () => {
      const t = await start();
      const client = await bearer(narrowToken(t.token, { keys: [GROUP] }));
      expect((await client.listTools()).tools.map((tool) => tool.name)).to.deep.equal([GROUP]);
      const denied = await rpcError(client.callTool({ name: EDGE, arguments: { workerId: WORKER_A } }));
      expect(denied.code).to.equal(-32003);
      expect(denied.data).to.deep.include({ code: 'scope_denied', needed: `invoke:${EDGE}` });
      expect((denied.data as { allowed: string[] }).allowed).to.include(`invoke:${GROUP}`).and.not.include(`invoke:${EDGE}`);
    });

    it('schema-invalid arguments are an isError result with a failed invocation that POST /api/dispatch can repair', async () => {
      const client = await asOwner();
      const bad = await client.callTool({ name: EDGE, arguments: { workerId: 'nope' } });
      expect(bad.isError).to.equal(true);
      const s = structured(bad);
      expect(s).to.include({ ok: false, status: 'failed' });
      expect(s.error!.code).to.equal('invalid_arguments');
      expect(s.repair!.repairs).to.equal(s.invocation);
      const fixed = await owner(http.post('/api/dispatch')).send({ key: EDGE, body: { workerId: WORKER_A }, repairs: s.invocation }).expect(200);
      expect(fixed.body.invocation.repairs).to.equal(s.invocation);
      const read = (await owner(http.get(`/api/invocations/${s.invocation}`)).expect(200)).body.invocation;
      expect(read.repaired_by).to.deep.equal([fixed.body.invocation.id]);
    });

    it('an approval-required capability called with an owner-minted token waits for approval, not an error', async () => {
      const token = (await owner(http.post('/api/tokens')).send({ moves: ['invoke:*'], keys: [PAYMENTS], actor: 'finance-bot' }).expect(201)).body.token;
      const client = await bearer(token);
      expect((await client.listTools()).tools.map((tool) => tool.name)).to.deep.equal([PAYMENTS]);
      const waiting = await client.callTool({ name: PAYMENTS, arguments: { query: 'refund a charge' } });
      expect(waiting.isError).to.equal(false);
      const s = structured(waiting);
      expect(s).to.include({ ok: false, status: 'awaiting_approval', approvals: `${svc.url}/api/approvals` });
      expect((waiting.content as { text: string }[])[0]!.text).to.contain('approval');
      const pending = (await owner(http.get('/api/approvals')).expect(200)).body.items.map((p: { invocation: string }) => p.invocation);
      expect(pending).to.include(s.invocation);
      const approved = (await owner(http.post(`/api/approvals/${s.invocation}`)).send({ decision: 'approve' }).expect(200)).body;
      expect(approved.invocation).to.include({ ok: true, key: PAYMENTS, actor: 'finance-bot' });
    });

    it('an unknown tool is a JSON-RPC InvalidParams error whose data carries did_you_mean, and nothing is ledgered', async () => {
      const client = await asOwner();
      const before = (await owner(http.get('/api/invocations?object_id=EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKR')).expect(200)).text;
      const err = await rpcError(client.callTool({ name: 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKR', arguments: { workerId: WORKER_A } }));
      expect(err.code).to.equal(-32602);
      expect((err.data as { code: string; did_you_mean: string[] }).code).to.equal('unknown_capability');
      expect((err.data as { did_you_mean: string[] }).did_you_mean).to.include(EDGE);
      expect((await owner(http.get('/api/invocations?object_id=EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKR')).expect(200)).text).to.equal(before);
    });

    it('answers our coded 401 before any MCP processing: corrupted token, bad key, no credential', async () => {
      const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } };
      const post = () => http.post('/mcp').set('accept', 'application/json, text/event-stream');
      const t = await start();
      const corrupted = t.token.slice(0, -3) + (t.token.endsWith('AAA') ? 'BBB' : 'AAA');
      expect((await post().set('authorization', `Bearer ${corrupted}`).send(init).expect(401)).body.error.code).to.equal('token_corrupted');
      expect((await post().set('x-sheets-key', 'sy_wrong').send(init).expect(401)).body.error.code).to.equal('invalid_api_key');
      const none = (await post().send(init).expect(401)).body;
      expect(none).to.deep.include({ ok: false });
      expect(none.error.code).to.equal('credential_required');
      // The SDK client sees the refusal too.
      let refused: unknown;
      await connect({ authorization: `Bearer ${corrupted}` }).catch((err) => (refused = err));
      expect((refused as { code?: number }).code).to.equal(401);
      expect(String(refused)).to.contain('token_corrupted');
    });

    it('GET, and DELETE without a session, on /mcp answer 405 with a JSON-RPC error (stateless: no stream)', async () => {
      for (const method of ['get', 'delete'] as const) {
        const res = await owner(http[method]('/mcp')).expect(405);
        expect(res.body.error.code).to.equal(-32000);
      }
    });
  });
}
