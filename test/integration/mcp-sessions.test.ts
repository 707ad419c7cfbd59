// What an MCP caller's session holds through the gateway, on each engine, with SDK clients against a
// stdio upstream that says what reached it: log messages after logging/setLevel (at or above the
// level, on the call's stream, still kept with the run), resource subscriptions on
// /mcp/servers/<name> forwarded once upstream with updates on each session's GET stream, the
// config limits (session_limit), and the state gone when the caller ends or leaves.
import { expect } from 'chai';
import { join } from 'node:path';
import request from 'supertest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema, McpError, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { PROJECT_ROOT } from '@switchyard/app';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';
import { until } from '../support/until.js';

const OPEN = { auth: 'none', risk: 'low', approval: false };
const FAITHFUL = join(PROJECT_ROOT, 'test', 'support', 'faithful-mcp-server.mjs');
const COUNTER = 'memo://counter';

for (const engine of engines()) {
  describe(`MCP sessions through the gateway: log levels, resource subscriptions, limits (${engine})`, function () {
    this.timeout(60_000);
    let svc: ListeningService;
    const clients: Client[] = [];
    const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);
    const run = async (key: string, body: unknown) => (await owner(request(svc.url).post('/api/dispatch')).send({ key, body })).body;
    const upstreamSubscriptions = async () => (await run('FAITHFUL_SUBSCRIPTIONS', {})).result as string;
    /** An SDK client at `path` as the owner, collecting the log messages and resource updates it is sent. */
    const connect = async (path: string, on: ListeningService = svc) => {
      const client = new Client({ name: 'sessions-test', version: '0.0.0' });
      const logs: { level: string; data: unknown }[] = [];
      const updates: string[] = [];
      client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push({ level: n.params.level, data: n.params.data }));
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
      const transport = new StreamableHTTPClientTransport(new URL(`${on.url}${path}`), { requestInit: { headers: { 'x-sheets-key': TEST_API_KEY } } });
      await client.connect(transport);
      clients.push(client);
      return { client, transport, logs, updates };
    };
    const servers = { faithful: { system: 'FAITHFUL', transport: 'stdio', command: process.execPath, args: [FAITHFUL], defaults: OPEN } };

    before(async () => {
      svc = await startListeningService(engine, { upstreams: { servers }, mcp: { sessions: { maxSessions: 50, maxSubscriptions: 2, idleMs: 1000 }, virtualServers: { curated: { tools: ['FAITHFUL_CHATTY'] } } } });
    });
    afterEach(async () => {
      await Promise.all(clients.splice(0).map((c) => c.close()));
    });
    after(async () => svc?.close());

    describe('log messages', () => {
      for (const path of ['/mcp', '/mcp/servers/faithful']) {
        it(`reach a caller of ${path} only after it set a level, at or above it, and the run keeps them all`, async () => {
          const { client, logs } = await connect(path);
          const tool = path === '/mcp' ? 'FAITHFUL_CHATTY' : 'chatty';
          await client.callTool({ name: tool, arguments: {} });
          expect(logs, 'no level set: none sent').to.deep.equal([]);
          await client.setLoggingLevel('info');
          const result = await client.callTool({ name: tool, arguments: {} });
          // The notifications came on the call's own stream, before its answer.
          expect(logs).to.deep.equal([
            { level: 'info', data: 'starting' },
            { level: 'warning', data: { step: 2, note: 'halfway' } },
          ]);
          const runId = ((result._meta as Record<string, { invocation: string }>)['switchyard/run']!).invocation;
          const stored = (await owner(request(svc.url).get(`/api/invocations/${runId}`)).expect(200)).body.invocation;
          expect(stored.logs.map((l: { level: string }) => l.level)).to.deep.equal(['info', 'warning', 'debug']);
          await client.setLoggingLevel('debug');
          logs.length = 0;
          await client.callTool({ name: tool, arguments: {} });
          expect(logs.map((l) => l.level)).to.deep.equal(['info', 'warning', 'debug']);
        });
      }
    });

    it('ends a session on DELETE: its id answers 404 on every face from then on, its level is gone', async () => {
      const headers = { 'x-sheets-key': TEST_API_KEY, accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
      const post = (session: string | undefined, body: unknown) => fetch(`${svc.url}/mcp`, { method: 'POST', headers: { ...headers, ...(session ? { 'mcp-session-id': session } : {}) }, body: JSON.stringify(body) });
      const init = await post(undefined, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });
      const session = init.headers.get('mcp-session-id')!;
      expect(((await init.json()) as { result: { capabilities: Record<string, unknown> } }).result.capabilities).to.have.property('logging');
      const call = async () => {
        const answer = await post(session, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'FAITHFUL_CHATTY', arguments: {} } });
        const text = await answer.text();
        return { type: answer.headers.get('content-type') ?? '', text };
      };
      await (await post(session, { jsonrpc: '2.0', id: 2, method: 'logging/setLevel', params: { level: 'warning' } })).text();
      const streamed = await call();
      expect(streamed.type).to.contain('text/event-stream');
      expect(streamed.text).to.contain('"method":"notifications/message"').and.contain('halfway').and.not.contain('starting');
      const end = () => fetch(`${svc.url}/mcp`, { method: 'DELETE', headers: { ...headers, 'mcp-session-id': session } });
      expect((await end()).status).to.equal(200);
      // The ended session's id is refused from then on, on every face (the spec's 404), and ending it again too.
      for (const path of ['/mcp', '/mcp/servers/faithful', '/mcp/v/curated']) {
        const gone = await fetch(`${svc.url}${path}`, { method: 'POST', headers: { ...headers, 'mcp-session-id': session }, body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }) });
        expect(gone.status, path).to.equal(404);
        expect(((await gone.json()) as { error: { code: number } }).error.code).to.equal(-32001);
      }
      expect((await fetch(`${svc.url}/mcp/servers/faithful`, { headers: { ...headers, 'mcp-session-id': session } })).status).to.equal(404);
      expect((await end()).status).to.equal(404);
      // Another credential naming the id is refused as such (the id was issued to the owner), not as ended: ending is the holder's alone.
      const { token } = (await request(svc.url).get('/start').expect(200)).body as { token: string };
      const other = await fetch(`${svc.url}/mcp`, { method: 'POST', headers: { accept: headers.accept, 'content-type': headers['content-type'], authorization: `Bearer ${token}`, 'mcp-session-id': session }, body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }) });
      expect(other.status).to.equal(403);
      expect(((await other.json()) as { error: { code: string } }).error.code).to.equal('scope_denied');
      // A new session starts with no level: its calls are plain JSON again.
      const next = (await post(undefined, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } })).headers.get('mcp-session-id')!;
      const plain = await post(next, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'FAITHFUL_CHATTY', arguments: {} } });
      expect(plain.headers.get('content-type')).to.contain('application/json');
      expect(await plain.text()).to.not.contain('notifications/message');
      // A bad level is the SDK's own -32602, and nothing is kept.
      const bad = (await (await post(next, { jsonrpc: '2.0', id: 4, method: 'logging/setLevel', params: { level: 'loud' } })).json()) as { error: { code: number } };
      expect(bad.error.code).to.equal(-32602);
    });

    describe('resource subscriptions on /mcp/servers/<name>', () => {
      it('declares subscribe, subscribes upstream once for all callers, and sends each subscriber the update on its stream', async () => {
        const a = await connect('/mcp/servers/faithful');
        const b = await connect('/mcp/servers/faithful');
        expect(a.client.getServerCapabilities()?.resources).to.deep.equal({ subscribe: true });
        await a.client.subscribeResource({ uri: COUNTER });
        await b.client.subscribeResource({ uri: COUNTER });
        expect(await upstreamSubscriptions()).to.equal(COUNTER);
        expect((await run('FAITHFUL_TOUCH', { uri: COUNTER })).result).to.equal('notified');
        await until(() => [a.updates.length, b.updates.length], ([x, y]) => x === 1 && y === 1);
        expect(a.updates).to.deep.equal([COUNTER]);
        expect(b.updates).to.deep.equal([COUNTER]);

        // One caller leaves: the upstream stays subscribed for the other; the last one out unsubscribes it.
        await a.client.unsubscribeResource({ uri: COUNTER });
        expect(await upstreamSubscriptions()).to.equal(COUNTER);
        await run('FAITHFUL_TOUCH', { uri: COUNTER });
        await until(() => b.updates.length, (n) => n === 2);
        expect(a.updates).to.have.length(1);
        await b.client.unsubscribeResource({ uri: COUNTER });
        await until(upstreamSubscriptions, (s) => s === '');
        expect((await run('FAITHFUL_TOUCH', { uri: COUNTER })).result).to.equal('not subscribed');
      });

      it('ends a session\'s subscriptions upstream when it ends (DELETE), and when its stream closed and the idle time passed', async () => {
        const ended = await connect('/mcp/servers/faithful');
        await ended.client.subscribeResource({ uri: COUNTER });
        expect(await upstreamSubscriptions()).to.equal(COUNTER);
        await ended.transport.terminateSession();
        await until(upstreamSubscriptions, (s) => s === '');

        const gone = await connect('/mcp/servers/faithful');
        await gone.client.subscribeResource({ uri: COUNTER });
        expect(await upstreamSubscriptions()).to.equal(COUNTER);
        await gone.client.close();
        await until(upstreamSubscriptions, (s) => s === '');
      });

      it('renews the upstream subscriptions its callers hold when the upstream restarts', async () => {
        const a = await connect('/mcp/servers/faithful');
        await a.client.subscribeResource({ uri: COUNTER });
        // A read in flight while the upstream exits fails (upstream_unavailable): asked again.
        const touches = async () => a.client.readResource({ uri: COUNTER }).then((r) => (r.contents[0] as { text: string }).text, () => 'unavailable');
        await run('FAITHFUL_TOUCH', { uri: COUNTER });
        expect(await touches()).to.not.equal('0');
        expect((await run('FAITHFUL_EXIT', {})).result).to.equal('exiting');
        // The next request starts the upstream again (its counter back at 0), remembering nothing;
        // Switchyard subscribes anew on the new connection.
        await until(touches, (n) => n === '0');
        await until(upstreamSubscriptions, (s) => s === COUNTER);
        expect((await run('FAITHFUL_TOUCH', { uri: COUNTER })).result).to.equal('notified');
        await until(() => a.updates.length, (n) => n === 2);
        await a.client.unsubscribeResource({ uri: COUNTER });
        expect(await upstreamSubscriptions()).to.equal('');
      });

      it('refuses a subscription over mcp.sessions.maxSubscriptions with session_limit; one unsubscribed makes room', async () => {
        const { client } = await connect('/mcp/servers/faithful');
        await client.subscribeResource({ uri: 'memo://one' });
        await client.subscribeResource({ uri: 'memo://two' });
        await client.subscribeResource({ uri: 'memo://two' });
        const over = await client.subscribeResource({ uri: 'memo://three' }).then(() => null, (err: unknown) => err);
        expect(over).to.be.instanceOf(McpError);
        expect((over as McpError).data).to.include({ code: 'session_limit', limit: 2 });
        expect(await upstreamSubscriptions()).to.equal('memo://one memo://two');
        await client.unsubscribeResource({ uri: 'memo://one' });
        await client.subscribeResource({ uri: 'memo://three' });
        expect(await upstreamSubscriptions()).to.equal('memo://three memo://two');
      });

      it('keeps one stream per session, bound to the credential that opened it, carrying the session\'s updates', async () => {
        const headers = { 'x-sheets-key': TEST_API_KEY, accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
        const init = await fetch(`${svc.url}/mcp/servers/faithful`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } }),
        });
        const session = init.headers.get('mcp-session-id')!;
        await init.text();
        const stop = new AbortController();
        const stream = await fetch(`${svc.url}/mcp/servers/faithful`, { headers: { ...headers, 'mcp-session-id': session, accept: 'text/event-stream' }, signal: stop.signal });
        expect(stream.status).to.equal(200);
        expect(stream.headers.get('content-type')).to.equal('text/event-stream');
        try {
          const second = await owner(request(svc.url).get('/mcp/servers/faithful')).set('mcp-session-id', session).set('accept', 'text/event-stream');
          expect(second.status).to.equal(429);
          expect(second.body.error.code).to.equal('session_limit');
          const { token } = (await request(svc.url).get('/start').expect(200)).body as { token: string };
          const stranger = await request(svc.url).get(`/mcp/servers/faithful?share=${encodeURIComponent(token)}`).set('mcp-session-id', session).set('accept', 'text/event-stream');
          expect(stranger.status).to.equal(403);
          expect(stranger.body.error.code).to.equal('scope_denied');
          const subscribe = await fetch(`${svc.url}/mcp/servers/faithful`, { method: 'POST', headers: { ...headers, 'mcp-session-id': session }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: COUNTER } }) });
          expect(((await subscribe.json()) as { result: unknown }).result).to.deep.equal({});
          await run('FAITHFUL_TOUCH', { uri: COUNTER });
          const reader = stream.body!.getReader();
          let seen = '';
          while (!seen.includes('\n\n')) seen += new TextDecoder().decode((await reader.read()).value);
          expect(seen).to.equal(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: COUNTER } })}\n\n`);
        } finally {
          stop.abort();
        }
        // Without a session there is no stream to open; /mcp has none at all.
        expect((await owner(request(svc.url).get('/mcp/servers/faithful'))).status).to.equal(405);
        expect((await owner(request(svc.url).get('/mcp')).set('mcp-session-id', session)).status).to.equal(405);
        await until(upstreamSubscriptions, (s) => s === '');
      });

      it('holds state for at most mcp.sessions.maxSessions sessions: beyond it, session_limit', async () => {
        const small = await startListeningService(engine, { upstreams: { servers }, mcp: { sessions: { maxSessions: 2, maxSubscriptions: 5, idleMs: 60_000 } } });
        try {
          for (let i = 0; i < 2; i++) await (await connect('/mcp/servers/faithful', small)).client.subscribeResource({ uri: COUNTER });
          // Two sessions hold subscriptions: a third finds no room for its own.
          const third = new Client({ name: 'third', version: '0.0.0' });
          await third.connect(new StreamableHTTPClientTransport(new URL(`${small.url}/mcp/servers/faithful`), { requestInit: { headers: { 'x-sheets-key': TEST_API_KEY } } }));
          clients.push(third);
          const refused = await third.subscribeResource({ uri: COUNTER }).then(() => null, (err: unknown) => err);
          expect((refused as McpError).data).to.include({ code: 'session_limit', limit: 2 });
        } finally {
          await Promise.all(clients.splice(0).map((c) => c.close()));
          await small.close();
        }
      });
    });
  });
}
