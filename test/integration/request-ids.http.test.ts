// Request ids and logs through HTTP against the real app and storage, on SQLite and (in CI)
// PostgreSQL: the id the answer echoes (kept when well-formed, else made), that the ledger records
// of the request keep (invocation, delivery, the run of an action), and that its log lines name.
import { expect } from 'chai';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import knexFactory from 'knex';
import { knexConfig } from '@switchyard/storage-knex';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createLogger } from '@switchyard/app';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';
import { rawPost as post } from '../support/raw-post.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

for (const engine of engines()) {
  describe(`HTTP request ids and logs (${engine})`, function () {
    let svc: ListeningService;
    let http: ReturnType<typeof request>;
    let server: Server;
    let hookId: string;
    const lines: Array<Record<string, unknown>> = [];
    const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);

    before(async function () {
      const destination = { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) };
      svc = await startListeningService(engine, {}, { logger: createLogger('debug', { destination }) });
      http = request(svc.switchyard.app);
      server = svc.server;
      hookId = (await owner(http.post('/api/objects/webhook')).send({ name: 'traced' }).expect(201)).body.id;
    });
    after(async () => {
      await svc?.close();
    });

    describe('request ids', () => {
      it('echoes a well-formed x-request-id and keeps it on the invocation', async () => {
        const res = await owner(http.post('/api/dispatch')).set('x-request-id', 'trace-7f3a.1').send({ key: 'MESSAGING_BATCH_LOOKUP_PHONE_NUMBERS', body: { numbers: ['+14155552671'] } }).expect(200);
        expect(res.headers['x-request-id']).to.equal('trace-7f3a.1');
        expect(res.body.invocation.request_id).to.equal('trace-7f3a.1');
        const read = await owner(http.get(`/api/invocations/${res.body.invocation.id}`)).expect(200);
        expect(read.body.invocation.request_id).to.equal('trace-7f3a.1');
      });

      it('keeps it on the delivery, and on the run an action address makes of it', async () => {
        const res = await post(server, `/hook/${hookId}/MESSAGING_UPDATE_GROUP`, { 'content-type': 'application/json', 'x-request-id': 'hook-req-42' }, Buffer.from('{"group_id":"grp_4f7c2a9d1e","name":"Traced"}'));
        expect(res.status).to.equal(200);
        expect(res.headers['x-request-id']).to.equal('hook-req-42');
        const entry = (await owner(http.get(`/api/ledger/${res.body.delivery.entry}`)).expect(200)).body.entry;
        expect(entry.request_id).to.equal('hook-req-42');
        const run = await owner(http.get(`/api/invocations/${res.body.invocation.id}`)).expect(200);
        expect(run.body.invocation.request_id).to.equal('hook-req-42');
      });

      it('keeps it on a run made through the MCP server face', async () => {
        const { port } = server.address() as AddressInfo;
        const client = new Client({ name: 'request-ids', version: '0.0.0' });
        await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), { requestInit: { headers: { 'x-sheets-key': TEST_API_KEY, 'x-request-id': 'mcp-call-9' } } }));
        try {
          const result = await client.callTool({ name: 'MESSAGING_UPDATE_GROUP', arguments: { group_id: 'grp_4f7c2a9d1e', name: 'Via MCP' } });
          const invocation = (result.structuredContent as { invocation: string }).invocation;
          expect((await owner(http.get(`/api/invocations/${invocation}`)).expect(200)).body.invocation.request_id).to.equal('mcp-call-9');
        } finally {
          await client.close();
        }
      });

      it('gives the run an approval starts the id of the approving request', async () => {
        const asked = await owner(http.post('/api/dispatch')).set('x-request-id', 'asked-1').send({ key: 'PAYMENTS_PROCESSOR_API_SEARCH', body: { query: 'refund a charge' } }).expect(202);
        expect(asked.body.invocation).to.include({ status: 'awaiting_approval', request_id: 'asked-1' });
        const approved = await owner(http.post(`/api/approvals/${asked.body.invocation.id}`)).set('x-request-id', 'approved-1').send({ decision: 'approve' }).expect(200);
        expect(approved.body.invocation.request_id).to.equal('approved-1');
      });

      it('keeps it on a refused delivery', async () => {
        const res = await post(server, `/hook/${hookId}/NO_SUCH_CAPABILITY`, { 'content-type': 'application/json', 'x-request-id': 'refused-1' }, Buffer.from('{}'));
        expect(res.status).to.equal(404);
        expect((await owner(http.get(`/api/ledger/${res.body.entry}`)).expect(200)).body.entry).to.include({ outcome: 'refused', request_id: 'refused-1' });
      });

      it('replaces a missing or malformed one with a new id, different each time', async () => {
        const ids: string[] = [];
        for (const sent of [undefined, 'has space', 'x'.repeat(129), 'ünïcode', '-leading-dash', 'a\tb']) {
          const req = http.get('/healthz');
          if (sent !== undefined) req.set('x-request-id', sent);
          const res = await req.expect(200);
          expect(res.headers['x-request-id'], String(sent)).to.match(UUID);
          ids.push(res.headers['x-request-id'] as string);
        }
        expect(new Set(ids).size).to.equal(ids.length);
        const stored = await owner(http.post('/api/dispatch')).set('x-request-id', 'bad id').send({ key: 'MESSAGING_BATCH_LOOKUP_PHONE_NUMBERS', body: { numbers: ['+14155552671'] } }).expect(200);
        expect(stored.body.invocation.request_id).to.equal(stored.headers['x-request-id']).and.match(UUID);
      });

      it('is named by the access log line and by lines written while the request is handled', async () => {
        await post(server, `/hook/${hookId}/NO_SUCH_CAPABILITY`, { 'content-type': 'application/json', 'x-request-id': 'logged-77' }, Buffer.from('{}'));
        const refusal = lines.find((l) => l['message'] === 'webhook delivery refused' && l['request_id'] === 'logged-77');
        expect(refusal, 'the refusal, logged inside the request').to.include({ level: 'warn', code: 'unknown_capability' });
        let access: Record<string, unknown> | undefined;
        for (let i = 0; i < 100 && !access; i++) {
          access = lines.find((l) => l['message'] === 'request' && l['request_id'] === 'logged-77');
          if (!access) await new Promise((r) => setTimeout(r, 10));
        }
        expect(access).to.include({ level: 'debug', method: 'POST', route: '/hook/:id/:action', status: 404 });
        // Access lines name the route pattern, never the path: a webhook's address is a secret.
        expect(JSON.stringify(lines.filter((l) => l['message'] === 'request'))).not.to.include(hookId);
        expect(access!['time']).to.be.a('string').and.match(/^\d{4}-\d{2}-\d{2}T/);
      });

      // A webhook's address is its secret, and logs travel further than the database: no line, of
      // any level, names a whole one; lines name its first characters. This runs last in the suite,
      // so that the lines of every request above are checked too.
      it('never names a webhook address in any line, an unhandled error included', async () => {
        // An unhandled error on /hook: the webhooks table is taken away (a real storage fault).
        const k = knexFactory(knexConfig(svc.db.url));
        const unknownHook = 'hk_SecretUnhand';
        try {
          await k.schema.renameTable('webhooks', 'webhooks_away');
          const res = await post(server, `/hook/${unknownHook}`, { 'content-type': 'application/json', 'x-request-id': 'fault-1' }, Buffer.from('{}'));
          expect(res.status).to.equal(500);
        } finally {
          await k.schema.renameTable('webhooks_away', 'webhooks');
          await k.destroy();
        }
        const fault = lines.find((l) => l['message'] === 'unhandled error' && l['request_id'] === 'fault-1');
        expect(fault, 'the unhandled error is logged').to.exist;
        expect(fault!['route']).to.be.a('string');
        const all = JSON.stringify(lines);
        expect(all).not.to.include(unknownHook);
        expect(all).not.to.include(hookId);
        // The lines that name a webhook name its first characters.
        expect(lines.find((l) => l['message'] === 'webhook created')).to.include({ hook: `${hookId.slice(0, 6)}…` });
        expect(lines.find((l) => l['message'] === 'webhook delivery refused')).to.include({ hook: `${hookId.slice(0, 6)}…` });
      });
    });
  });
}
