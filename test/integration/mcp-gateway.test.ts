// Switchyard as a faithful MCP gateway, on each engine: what real upstreams say (server-everything
// over streamable HTTP, the faithful fixture over stdio) reaches /api/dispatch, the ledger, receipts
// and an SDK client at /mcp unchanged: every content type, structured content, tool metadata,
// progress, log messages, cancellation, elicitation and sampling. Large images are stored once.
import { expect } from 'chai';
import { toolDefinitionHash, type McpToolDescription } from '@switchyard/core';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import request from 'supertest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { PROJECT_ROOT } from '@switchyard/app';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';
import { startEverythingHttp, type EverythingHttp } from '../support/everything-server.js';

const OPEN = { auth: 'none', risk: 'low', approval: false };
const FAITHFUL = join(PROJECT_ROOT, 'test', 'support', 'faithful-mcp-server.mjs');
type Block = { type: string; text?: string; data?: string; _blob?: { sha256: string; size: number; url: string } };

for (const engine of engines()) {
  describe(`MCP gateway: what upstreams say reaches the caller unchanged (${engine})`, function () {
    this.timeout(60_000);
    let svc: ListeningService;
    let http: ReturnType<typeof request>;
    let everything: EverythingHttp;
    let direct: Client;
    const clients: Client[] = [];
    const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);
    const run = async (key: string, body: unknown) => (await owner(http.post('/api/dispatch')).send({ key, body })).body;
    /** An SDK client at /mcp as the owner, declaring the given client capabilities. */
    const gateway = async (capabilities: Record<string, unknown> = {}): Promise<Client> => {
      const client = new Client({ name: 'gateway-test', version: '0.0.0' }, { capabilities });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { requestInit: { headers: { 'x-sheets-key': TEST_API_KEY } } }));
      clients.push(client);
      return client;
    };
    const blocks = (r: unknown) => (r as CallToolResult).content as Block[];
    /** A tools/call with a progress token by plain HTTP: the JSON-RPC messages of its event stream, in order. */
    const callStreamed = async (name: string, args: Record<string, unknown>): Promise<Array<{ method?: string; params?: any; result?: any }>> => {
      const res = await fetch(`${svc.url}/mcp`, {
        method: 'POST',
        headers: { 'x-sheets-key': TEST_API_KEY, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, _meta: { progressToken: 'p-1' } } }),
      });
      expect(res.headers.get('content-type')).to.match(/^text\/event-stream/);
      return (await res.text())
        .split('\n')
        .filter((line) => line.startsWith('data:') && line.length > 5)
        .map((line) => JSON.parse(line.slice(5)));
    };

    before(async () => {
      everything = await startEverythingHttp();
      svc = await startListeningService(engine, {
        dispatch: { timeoutMs: 20_000 },
        upstreams: {
          connectTimeoutMs: 20_000,
          servers: {
            faithful: { system: 'FAITHFUL', transport: 'stdio', command: process.execPath, args: [FAITHFUL], defaults: OPEN },
            everything: { system: 'EVERYTHING', transport: 'streamable-http', url: everything.url, defaults: OPEN },
          },
        },
      });
      http = request(svc.url);
      direct = new Client({ name: 'direct', version: '0.0.0' });
      await direct.connect(new StreamableHTTPClientTransport(new URL(everything.url)));
    });
    afterEach(async () => {
      await Promise.all(clients.splice(0).map((c) => c.close()));
    });
    after(async () => {
      await direct?.close();
      await svc?.close();
      await everything?.stop();
    });

    describe('content, whole', () => {
      it('keeps every content type and structuredContent with its text in the run, the ledger and the receipt', async () => {
        const answer = await run('FAITHFUL_ALL_CONTENT', {});
        expect(answer.ok).to.equal(true);
        const inv = answer.invocation;
        expect(inv.content.map((b: Block) => b.type)).to.deep.equal(['text', 'image', 'audio', 'resource_link', 'resource', 'resource']);
        expect(inv.content[0]).to.deep.equal({ type: 'text', text: 'Every kind follows.' });
        expect(inv.content[1]).to.include({ type: 'image', mimeType: 'image/png' }).and.have.property('annotations').deep.equal({ audience: ['user'] });
        expect(inv.content[3]).to.deep.equal({ type: 'resource_link', uri: 'file:///reports/q3.csv', name: 'q3.csv', mimeType: 'text/csv', description: 'The quarter' });
        expect(inv.content[5].resource.blob).to.equal(Buffer.from([0, 1, 2, 254, 255]).toString('base64'));
        expect(inv.structured_content).to.deep.equal({ count: 6, kinds: ['text', 'image', 'audio', 'resource_link', 'resource', 'resource'] });
        expect(answer.result).to.deep.equal(inv.structured_content);
        const stored = (await owner(http.get(`/api/invocations/${inv.id}`)).expect(200)).body.invocation;
        expect(stored.content).to.deep.equal(inv.content);
        expect(stored.structured_content).to.deep.equal(inv.structured_content);
        const receipt = (await owner(http.get(`/api/dispatch?receipt=${inv.id}`)).expect(200)).body;
        expect(JSON.stringify(receipt)).to.contain('file:///reports/q3.csv').and.contain('"count":6');
      });

      it('answers /mcp with exactly what server-everything answers a direct client: images, links, embedded resources, structured content', async () => {
        const client = await gateway();
        for (const [tool, args] of [['get-tiny-image', {}], ['get-resource-links', { count: 2 }], ['get-resource-reference', { resourceType: 'Text', resourceId: 1 }], ['get-structured-content', { location: 'Chicago' }], ['get-annotated-message', { messageType: 'error', includeImage: true }]] as const) {
          const upstream = await direct.callTool({ name: tool, arguments: args });
          const through = await client.callTool({ name: `EVERYTHING_${tool.toUpperCase().replace(/-/g, '_')}`, arguments: args });
          // get-resource-reference stamps its text with the time of day: the same up to the clock.
          const unclocked = (content: unknown) => JSON.parse(JSON.stringify(content).replace(/\d{1,2}:\d{2}:\d{2}\s?[AP]M/g, '<time>'));
          expect(unclocked(through.content), tool).to.deep.equal(unclocked(upstream.content));
          if (upstream.structuredContent) expect(through.structuredContent, tool).to.deep.equal(upstream.structuredContent);
          expect(through.isError ?? false, tool).to.equal(false);
          expect((through._meta as Record<string, { invocation: string }>)['switchyard/run']!.invocation, tool).to.match(/^inv_/);
        }
      });

      it('never encodes text a second time, and text that looks like JSON stays text', async () => {
        const client = await gateway();
        for (const text of ['Echo: hi', '{"a": 1.0, "b": [ 2 ]}', ' 42 ', '"quoted"']) {
          const through = await client.callTool({ name: 'FAITHFUL_SAY', arguments: { text } });
          expect(blocks(through), text).to.deep.equal([{ type: 'text', text }]);
        }
        const echo = await client.callTool({ name: 'EVERYTHING_ECHO', arguments: { message: 'hello' } });
        expect(echo.content).to.deep.equal((await direct.callTool({ name: 'echo', arguments: { message: 'hello' } })).content);
      });

      it('counts binary content in bytes in the yield, not as base64 text', async () => {
        const answer = await run('FAITHFUL_BIG_IMAGE', { size: 3000 });
        const resultBytes = Buffer.byteLength(JSON.stringify(answer.result));
        expect(answer.invocation.yield.material).to.equal(resultBytes + 3000);
        const small = await run('FAITHFUL_SAY', { text: 'abc' });
        expect(small.invocation.yield.material).to.equal(Buffer.byteLength(JSON.stringify('abc')));
      });

      it('stores a large image once, by its hash: referenced in records and listings, fetched by its owner, inline again at /mcp', async () => {
        const first = (await run('FAITHFUL_BIG_IMAGE', { size: 100_000 })).invocation;
        const second = (await run('FAITHFUL_BIG_IMAGE', { size: 100_000 })).invocation;
        const ref = first.content[0]._blob;
        expect(first.content[0]).to.not.have.property('data');
        expect(ref).to.include({ size: 100_000, mimeType: 'image/png', url: `/api/invocations/${first.id}/blobs/${ref.sha256}` });
        expect(second.content[0]._blob.sha256).to.equal(ref.sha256);
        const listed = (await owner(http.get('/api/invocations?object_id=FAITHFUL_BIG_IMAGE')).expect(200)).body;
        expect(JSON.stringify(listed).length).to.be.below(20_000);
        const blob = await fetch(`${svc.url}${ref.url}`, { headers: { 'x-sheets-key': TEST_API_KEY } });
        expect(blob.status).to.equal(200);
        expect(blob.headers.get('content-type')).to.equal('image/png');
        expect(createHash('sha256').update(Buffer.from(await blob.arrayBuffer())).digest('hex')).to.equal(ref.sha256);
        // Someone else's run: its blob does not exist for them; nor a blob the run does not name.
        const token = (await owner(http.post('/api/tokens')).send({ moves: ['invoke:*', 'ledger:read'] }).expect(201)).body.token as string;
        expect((await http.get(ref.url).set('authorization', `Bearer ${token}`).expect(404)).body.error.code).to.equal('invocation_not_found');
        const small = (await run('FAITHFUL_SAY', { text: 'x' })).invocation;
        expect((await owner(http.get(`/api/invocations/${small.id}/blobs/${ref.sha256}`)).expect(404)).body.error.code).to.equal('not_found');
        const through = await (await gateway()).callTool({ name: 'FAITHFUL_BIG_IMAGE', arguments: { size: 100_000 } });
        const data = Buffer.from(blocks(through)[0]!.data!, 'base64');
        expect(data.length).to.equal(100_000);
        expect(createHash('sha256').update(data).digest('hex')).to.equal(ref.sha256);
      });
    });

    describe('metadata, whole', () => {
      it('keeps title, annotations as given, outputSchema and _meta of imported tools in the registry and the contract', async () => {
        const { capability } = svc.switchyard.registry.require('FAITHFUL_ALL_CONTENT');
        expect(capability).to.deep.include({ title: 'Every content type', annotations: { readOnlyHint: true, idempotentHint: true }, meta: { 'example.com/owner': 'gateway tests' } });
        expect(capability.outputSchema).to.deep.include({ type: 'object', required: ['count', 'kinds'] });
        const say = svc.switchyard.registry.require('FAITHFUL_SAY').capability;
        expect(say).to.not.have.property('annotations');
        expect(say).to.not.have.property('title');
        const contract = (await http.get('/api/dispatch?key=FAITHFUL_ALL_CONTENT').expect(200)).body;
        expect(JSON.stringify(contract)).to.contain('Every content type').and.contain('idempotentHint').and.contain('example.com/owner');
        const markdown = (await http.get('/api/dispatch?key=FAITHFUL_ALL_CONTENT&format=markdown').expect(200)).text;
        expect(markdown).to.contain('Every content type').and.contain('readOnlyHint').and.contain('Output schema');
      });

      it('lists imported tools at /mcp with the title, annotations, outputSchema and _meta the upstream listed', async () => {
        const listed = (await (await gateway()).listTools()).tools;
        const upstream = (await direct.listTools()).tools;
        for (const tool of upstream) {
          const through = listed.find((t) => t.name === `EVERYTHING_${tool.name.toUpperCase().replace(/-/g, '_')}`)!;
          expect(through, tool.name).to.exist;
          expect(through.title, tool.name).to.equal(tool.title);
          expect(through.annotations, tool.name).to.deep.equal(tool.annotations);
          expect(through.outputSchema, tool.name).to.deep.equal(tool.outputSchema);
          // The upstream's _meta whole, plus the hash of the pinned definition (tool governance, issue 30).
          const { 'switchyard/definition_hash': pinned, ...upstreamMeta } = (through._meta ?? {}) as Record<string, unknown>;
          expect(upstreamMeta, tool.name).to.deep.equal(tool._meta ?? {});
          expect(pinned, tool.name).to.equal(toolDefinitionHash(tool as McpToolDescription));
        }
        const say = listed.find((t) => t.name === 'FAITHFUL_SAY')!;
        expect(say).to.not.have.property('annotations');
        expect(say).to.not.have.property('title');
      });

      it("declares honest annotations for Switchyard's own capabilities: all four hints", async () => {
        const listed = (await (await gateway()).listTools()).tools as Tool[];
        const own = listed.filter((t) => !t.name.startsWith('FAITHFUL_') && !t.name.startsWith('EVERYTHING_'));
        expect(own.length).to.be.above(3);
        for (const tool of own) {
          for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']) expect((tool.annotations as Record<string, unknown> | undefined)?.[hint], `${tool.name} ${hint}`).to.be.a('boolean');
        }
        expect(listed.find((t) => t.name === 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER')!.annotations).to.include({ readOnlyHint: false, idempotentHint: true });
      });
    });

    describe('progress, cancellation, logging', () => {
      it('passes the upstream\'s progress to the /mcp caller, over stdio and streamable HTTP', async () => {
        // Read off the wire, in order: every progress notification, then the answer. (The SDK's
        // client may drop a notification that arrives in the same read as the answer, typescript-sdk
        // #2580, so the whole sequence is asserted on the stream itself.)
        const steps = await callStreamed('FAITHFUL_STEPS', { steps: 3 });
        expect(steps.map((m) => m.method ?? 'answer')).to.deep.equal(['notifications/progress', 'notifications/progress', 'notifications/progress', 'answer']);
        expect(steps.slice(0, 3).map((m) => m.params)).to.deep.equal([1, 2, 3].map((i) => ({ progressToken: 'p-1', progress: i, total: 3, message: `step ${i}` })));
        expect(steps[3]!.result.content).to.deep.equal([{ type: 'text', text: '3 steps' }]);
        const long = await callStreamed('EVERYTHING_TRIGGER_LONG_RUNNING_OPERATION', { duration: 0.2, steps: 2 });
        expect(long.filter((m) => m.method === 'notifications/progress').map((m) => m.params.progress)).to.deep.equal([1, 2]);
        expect(long.at(-1)!.result.isError ?? false).to.equal(false);
        // The SDK's client hears them as progress of its call: those it hands over before the
        // answer (its race can drop any that share a read with the answer) are the upstream's, in order.
        const client = await gateway();
        const seen: { progress: number; total?: number; message?: string }[] = [];
        const done = await client.callTool({ name: 'FAITHFUL_STEPS', arguments: { steps: 3 } }, undefined, { onprogress: (p) => seen.push(p) });
        expect(blocks(done)).to.deep.equal([{ type: 'text', text: '3 steps' }]);
        expect(seen).to.deep.equal([1, 2, 3].map((i) => ({ progress: i, total: 3, message: `step ${i}` })).slice(0, seen.length));
      });

      it('a cancelled /mcp call reaches the upstream and ends cancelled: ok false, ran true', async () => {
        const client = await gateway();
        const controller = new AbortController();
        const call = client.callTool({ name: 'FAITHFUL_WAIT_FOR_CANCEL', arguments: {} }, undefined, { signal: controller.signal });
        const failed = call.then(() => null, (err: Error) => err);
        // Withdrawn once the upstream is waiting (asked through the ledger-free path of another run).
        while ((await run('FAITHFUL_LAST_WAIT', {})).result !== 'waiting') await new Promise((r) => setTimeout(r, 20));
        controller.abort('changed my mind');
        expect(await failed).to.be.instanceOf(Error);
        let items: { status: string; ok: boolean; ran: boolean; error: { code: string } }[] = [];
        while (items.length === 0) {
          items = (await owner(http.get('/api/invocations?object_id=FAITHFUL_WAIT_FOR_CANCEL')).expect(200)).body.items;
          if (items.length === 0) await new Promise((r) => setTimeout(r, 20));
        }
        const last = items[0]!;
        expect(last).to.deep.include({ status: 'cancelled', ok: false, ran: true });
        expect(last.error.code).to.equal('cancelled');
        expect((await run('FAITHFUL_LAST_WAIT', {})).result).to.equal('cancelled');
      });

      it('keeps the upstream\'s log messages with the invocation', async () => {
        const answer = await run('FAITHFUL_CHATTY', {});
        expect(answer.ok).to.equal(true);
        expect(answer.invocation.logs).to.deep.equal([
          { level: 'info', logger: 'chatty', data: 'starting' },
          { level: 'warning', logger: 'chatty', data: { step: 2, note: 'halfway' } },
          { level: 'debug', logger: 'chatty', data: 'finishing' },
        ]);
        expect((await owner(http.get(`/api/invocations/${answer.invocation.id}`)).expect(200)).body.invocation.logs).to.have.length(3);
      });

      it('shows a run\'s content and upstream log on its dashboard page', async () => {
        const cookie = (await http.post('/dashboard/login').type('form').send({ api_key: TEST_API_KEY }).expect(303)).headers['set-cookie']!;
        const chatty = (await run('FAITHFUL_CHATTY', {})).invocation.id;
        const page = (await http.get(`/dashboard/invocations/${chatty}`).set('cookie', cookie).expect(200)).text;
        expect(page).to.contain('Upstream log').and.contain('warning chatty: {&quot;step&quot;:2,&quot;note&quot;:&quot;halfway&quot;}');
        const all = (await run('FAITHFUL_ALL_CONTENT', {})).invocation.id;
        const content = (await http.get(`/dashboard/invocations/${all}`).set('cookie', cookie).expect(200)).text;
        expect(content).to.contain('resource link file:///reports/q3.csv').and.contain('audio/wav').and.contain('memo://bytes');
      });
    });

    describe('elicitation and sampling', () => {
      it('passes an upstream\'s elicitation to a /mcp caller that declares it, and its answer back', async () => {
        const client = await gateway({ elicitation: {} });
        const asked: unknown[] = [];
        client.setRequestHandler(ElicitRequestSchema, async (req) => {
          asked.push(req.params);
          return { action: 'accept', content: { name: 'Ada Lovelace', check: true } };
        });
        const result = await client.callTool({ name: 'EVERYTHING_TRIGGER_ELICITATION_REQUEST', arguments: {} });
        expect(asked).to.have.length(1);
        expect(asked[0]).to.have.property('message').that.contains('Please provide inputs');
        expect(result.isError ?? false).to.equal(false);
        expect(blocks(result).map((b) => b.text).join('\n')).to.contain('Name: Ada Lovelace');
      });

      it('passes an upstream\'s sampling request to a /mcp caller that declares it', async () => {
        const client = await gateway({ sampling: {} });
        client.setRequestHandler(CreateMessageRequestSchema, async () => ({ role: 'assistant', content: { type: 'text', text: 'sampled by the caller' }, model: 'test-model' }));
        const result = await client.callTool({ name: 'EVERYTHING_TRIGGER_SAMPLING_REQUEST', arguments: { prompt: 'hi', maxTokens: 5 } });
        expect(result.isError ?? false).to.equal(false);
        expect(blocks(result)[0]!.text).to.contain('sampled by the caller');
      });

      it('fails the run with a coded error when the caller cannot answer: never ok', async () => {
        const client = await gateway();
        const result = await client.callTool({ name: 'EVERYTHING_TRIGGER_ELICITATION_REQUEST', arguments: {} });
        expect(result.isError).to.equal(true);
        const runInfo = (result._meta as Record<string, { ok: boolean; status: string; error: { code: string } }>)['switchyard/run']!;
        expect(runInfo).to.deep.include({ ok: false, status: 'failed' });
        expect(runInfo.error.code).to.equal('elicitation_unsupported');
        const viaApi = await run('EVERYTHING_TRIGGER_SAMPLING_REQUEST', { prompt: 'hi', maxTokens: 5 });
        expect(viaApi.ok).to.equal(false);
        expect(viaApi.error.code).to.equal('sampling_unsupported');
        expect(viaApi.invocation).to.deep.include({ status: 'failed', ran: true });
      });
    });

    describe('the time limit of a call', () => {
      let quick: ListeningService;
      before(async () => {
        quick = await startListeningService(engine, {
          dispatch: { timeoutMs: 1000 },
          upstreams: {
            connectTimeoutMs: 20_000,
            servers: {
              faithful: { system: 'FAITHFUL', transport: 'stdio', command: process.execPath, args: [FAITHFUL], defaults: OPEN },
              everything: { system: 'EVERYTHING', transport: 'streamable-http', url: everything.url, defaults: OPEN },
            },
          },
        });
      });
      after(async () => quick?.close());

      it('stops while the caller is asked: an answer slower than the limit still completes the run', async () => {
        const client = new Client({ name: 'slow-person', version: '0.0.0' }, { capabilities: { elicitation: {} } });
        client.setRequestHandler(ElicitRequestSchema, async () => {
          await new Promise((r) => setTimeout(r, 1500));
          return { action: 'accept', content: { name: 'Grace Hopper' } };
        });
        await client.connect(new StreamableHTTPClientTransport(new URL(`${quick.url}/mcp`), { requestInit: { headers: { 'x-sheets-key': TEST_API_KEY } } }));
        clients.push(client);
        const result = await client.callTool({ name: 'EVERYTHING_TRIGGER_ELICITATION_REQUEST', arguments: {} });
        expect(result.isError ?? false).to.equal(false);
        expect(blocks(result).map((b) => b.text).join('\n')).to.contain('Name: Grace Hopper');
      });

      it('an upstream out of time is told to stop, and the run fails upstream_timeout', async () => {
        const q = request(quick.url);
        const answer = (await q.post('/api/dispatch').set('x-sheets-key', TEST_API_KEY).send({ key: 'FAITHFUL_WAIT_FOR_CANCEL', body: {} })).body;
        expect(answer.ok).to.equal(false);
        expect(answer.error.code).to.equal('upstream_timeout');
        expect(answer.invocation).to.deep.include({ status: 'failed', ran: true });
        expect((await q.post('/api/dispatch').set('x-sheets-key', TEST_API_KEY).send({ key: 'FAITHFUL_LAST_WAIT', body: {} })).body.result).to.equal('cancelled');
      });
    });
  });
}
