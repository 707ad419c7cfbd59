// Keys match without regard to letter case wherever a caller names one (POST and GET dispatch,
// contracts, hook action addresses, /mcp, self_scope, token caveats, receipts, /api/invocations);
// every record keeps the canonical upper-case key. On SQLite and (in CI) PostgreSQL.
import { expect } from 'chai';
import request from 'supertest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { narrowToken } from '@switchyard/core';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';

const EDGE = 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER';
const GROUP = 'MESSAGING_UPDATE_GROUP';
const LOOKUP = 'MESSAGING_BATCH_LOOKUP_PHONE_NUMBERS';
const WORKER = '0123456789abcdef0123456789abcdef';
const lower = (key: string) => key.toLowerCase();
/** Mixed case, as a person might type it. */
const mixed = (key: string) => key.split('_').map((part) => part[0] + part.slice(1).toLowerCase()).join('_');

for (const engine of engines()) {
  describe(`keys in any letter case (${engine})`, function () {
    this.timeout(30_000);
    let svc: ListeningService;
    let http: ReturnType<typeof request>;
    const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);
    const start = async () => (await http.get('/start').expect(200)).body as { token: string; fingerprint: string };
    const ledgerCount = async (key: string) => (await owner(http.get(`/api/invocations?object_id=${key}&limit=1000`)).expect(200)).body.items.length as number;

    before(async () => {
      svc = await startListeningService(engine, { tokens: { mintPerMinute: 1000 } });
      http = request(svc.url);
    });
    after(async () => svc?.close());

    it('POST /api/dispatch runs a lower- or mixed-case key and records the upper-case key', async () => {
      for (const named of [lower(EDGE), mixed(EDGE)]) {
        const res = await owner(http.post('/api/dispatch')).send({ key: named, body: { workerId: WORKER } }).expect(200);
        expect(res.body.invocation.key).to.equal(EDGE);
        expect(res.body.invocation.path).to.equal(`OIP > EDGE > ${EDGE}`);
      }
    });

    it('a repair may name the key in another case than the failed run', async () => {
      const bad = await owner(http.post('/api/dispatch')).send({ key: EDGE, body: { workerId: 'nope' } }).expect(422);
      const fixed = await owner(http.post('/api/dispatch')).send({ key: lower(EDGE), body: { workerId: WORKER }, repairs: bad.body.invocation.id }).expect(200);
      expect(fixed.body.invocation).to.include({ key: EDGE, repairs: bad.body.invocation.id });
    });

    it('GET invoke= with a keyless token authorizes and records the upper-case key; its receipt reads back', async () => {
      const t = await start();
      const body = encodeURIComponent(JSON.stringify({ group_id: 'grp_4f7c2a9d1e', name: 'Night shift' }));
      const res = await http.get(`/api/dispatch?invoke=${lower(GROUP)}&body=${body}&share=${encodeURIComponent(t.token)}`).expect(200);
      expect(res.body.invocation).to.include({ key: GROUP, fingerprint: t.fingerprint });
      const receipt = await http.get(`/api/dispatch?receipt=${res.body.invocation.id}&share=${encodeURIComponent(t.token)}`).expect(200);
      expect(JSON.stringify(receipt.body)).to.contain(GROUP);
    });

    it('key= answers the contract of the upper-case key, as JSON and markdown', async () => {
      const json = await http.get(`/api/dispatch?key=${mixed(LOOKUP)}`).expect(200);
      expect(json.body.contract.key).to.equal(LOOKUP);
      const md = await http.get(`/api/dispatch?key=${lower(LOOKUP)}&format=markdown`).expect(200);
      expect(md.text).to.contain(LOOKUP);
    });

    it('/api/invocations?object_id= matches in any case and names the upper-case key', async () => {
      const upper = await owner(http.get(`/api/invocations?object_id=${EDGE}&limit=1000`)).expect(200);
      const low = await owner(http.get(`/api/invocations?object_id=${lower(EDGE)}&limit=1000`)).expect(200);
      expect(low.body.object_id).to.equal(EDGE);
      expect(low.body.items.map((i: { id: string }) => i.id)).to.deep.equal(upper.body.items.map((i: { id: string }) => i.id));
      expect(low.body.items.length).to.be.greaterThan(0);
    });

    it('self_scope grants keys named in any case, as upper-case keys, and the token runs them', async () => {
      const res = (await http.get(`/api/dispatch?self_scope=1&keys=${lower(EDGE)},${mixed(GROUP)},${lower(EDGE)}`).expect(200)).body;
      expect(res.granted).to.deep.equal([EDGE, GROUP]);
      expect(res.keys).to.deep.equal([EDGE, GROUP]);
      expect(res.refused).to.deep.equal([]);
      const run = await http.post('/api/dispatch').set('authorization', `Bearer ${res.token}`).send({ key: lower(EDGE), body: { workerId: WORKER } }).expect(200);
      expect(run.body.invocation.key).to.equal(EDGE);
    });

    it('a keys= caveat added offline in lower case narrows to that key', async () => {
      const t = await start();
      const child = narrowToken(t.token, { keys: [lower(EDGE)] });
      const explained = (await http.get(`/api/dispatch?explain=1&share=${encodeURIComponent(child)}`).expect(200)).body;
      expect(explained.keys).to.deep.equal([EDGE]);
      await http.post('/api/dispatch').set('authorization', `Bearer ${child}`).send({ key: EDGE, body: { workerId: WORKER } }).expect(200);
      const denied = await http.post('/api/dispatch').set('authorization', `Bearer ${child}`).send({ key: GROUP, body: { group_id: 'grp_4f7c2a9d1e', name: 'x' } }).expect(403);
      expect(denied.body.error).to.include({ code: 'scope_denied', needed: `invoke:${GROUP}` });
    });

    it('invoke:<key> moves in any case (owner-minted or a caveat added offline) allow the upper-case key', async () => {
      const minted = (await owner(http.post('/api/tokens')).send({ moves: [`invoke:${lower(EDGE)}`] }).expect(201)).body;
      expect(minted.moves).to.deep.equal([`invoke:${EDGE}`]);
      await http.post('/api/dispatch').set('authorization', `Bearer ${minted.token}`).send({ key: EDGE, body: { workerId: WORKER } }).expect(200);
      const both = (await owner(http.post('/api/tokens')).send({ moves: [`invoke:${EDGE}`, `invoke:${GROUP}`] }).expect(201)).body;
      const child = narrowToken(both.token, { moves: [`invoke:${mixed(EDGE)}`] });
      await http.post('/api/dispatch').set('authorization', `Bearer ${child}`).send({ key: lower(EDGE), body: { workerId: WORKER } }).expect(200);
      await http.post('/api/dispatch').set('authorization', `Bearer ${child}`).send({ key: GROUP, body: { group_id: 'grp_4f7c2a9d1e', name: 'x' } }).expect(403);
    });

    it('a hook action address in lower case runs the action and records the upper-case key', async () => {
      const hook = (await owner(http.post('/api/objects/webhook')).send({ name: 'case' }).expect(201)).body;
      const res = await http.post(`/hook/${hook.id}/${lower(LOOKUP)}`).set('content-type', 'application/json').send('{"numbers":["+14155552671"]}').expect(200);
      expect(res.body.invocation).to.include({ key: LOOKUP, actor: `hook:${hook.id}` });
      const entry = (await owner(http.get(`/api/ledger/${res.body.delivery.entry}`)).expect(200)).body.entry;
      expect(entry.action).to.equal(LOOKUP);
      expect(entry.action_run).to.include({ invocation: res.body.invocation.id, ok: true });
    });

    it('an unknown action in any case is still refused with did_you_mean, and nothing runs', async () => {
      const hook = (await owner(http.post('/api/objects/webhook')).send({ name: 'case-unknown' }).expect(201)).body;
      const before = await ledgerCount(LOOKUP);
      const res = await http.post(`/hook/${hook.id}/messaging_batch_lookup_phone_numberz`).set('content-type', 'application/json').send('{}').expect(404);
      expect(res.body.error.code).to.equal('unknown_capability');
      expect(res.body.error.did_you_mean.map((d: { key: string }) => d.key)).to.include(LOOKUP);
      expect(await ledgerCount(LOOKUP)).to.equal(before);
    });

    it('/mcp tools/call takes the tool name in any case and records the upper-case key', async () => {
      const client = new Client({ name: 'switchyard-test', version: '0.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { requestInit: { headers: { 'x-sheets-key': TEST_API_KEY } } }));
      try {
        const result = (await client.callTool({ name: lower(EDGE), arguments: { workerId: WORKER } })) as CallToolResult;
        expect(result.isError).to.not.equal(true);
        const id = (result.structuredContent as { invocation: string }).invocation;
        const read = await owner(http.get(`/api/invocations/${id}`)).expect(200);
        expect(read.body.invocation).to.include({ key: EDGE, source: 'mcp' });
      } finally {
        await client.close();
      }
    });

    it('the dashboard finds a capability page and its ledger by a key in any case', async () => {
      const agent = request.agent(svc.url);
      await agent.post('/dashboard/login').type('form').send({ api_key: TEST_API_KEY, next: '/dashboard/ledger' }).expect(303);
      const ran = (await owner(http.post('/api/dispatch')).send({ key: EDGE, body: { workerId: WORKER } }).expect(200)).body.invocation.id as string;
      const ledger = await agent.get(`/dashboard/ledger?key=${lower(EDGE)}`).expect(200);
      expect(ledger.text).to.contain(ran).and.contain(`Invocations of ${EDGE}`);
      const page = await agent.get(`/dashboard/capabilities/${lower(GROUP)}`).expect(200);
      expect(page.text).to.contain(GROUP);
    });

    it('accepts an EDGE workerId in upper-case hex', async () => {
      const res = await owner(http.post('/api/dispatch')).send({ key: EDGE, body: { workerId: WORKER.toUpperCase() } }).expect(200);
      expect(res.body.result.active_worker_id).to.equal(WORKER);
    });
  });
}
