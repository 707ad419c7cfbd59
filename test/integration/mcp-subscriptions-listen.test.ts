// Resource subscriptions bridged between the eras, on each engine, with real SDK clients and real
// upstreams: a 2026-07-28 caller's subscriptions/listen on /mcp/servers/<name> in front of a 2025
// upstream (stdio; it says what it is subscribed to), and a 2025 caller's resources/subscribe in
// front of an upstream that speaks only 2026-07-28 (the v2 server SDK, whose listen streams it
// counts). The upstream subscription is shared and released when the last holder goes; limits
// answer session_limit; a credential that may not read the server's resources is not honored; and
// shutdown ends a listen with the empty result.
import { expect } from 'chai';
import { join } from 'node:path';
import request from 'supertest';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client, ProtocolError, SUBSCRIPTION_ID_META_KEY, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { PROJECT_ROOT } from '@switchyard/app';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';
import { startConformanceUpstream2026, type ConformanceUpstream2026 } from '../support/conformance-upstream-2026.js';
import { until } from '../support/until.js';

const OPEN = { auth: 'none', risk: 'low', approval: false };
const FAITHFUL = join(PROJECT_ROOT, 'test', 'support', 'faithful-mcp-server.mjs');
const COUNTER = 'memo://counter';
const WATCHED = 'test://watched-resource';
const OWNER = { 'x-sheets-key': TEST_API_KEY };

for (const engine of engines()) {
  describe(`MCP resource subscriptions across the eras: subscriptions/listen and resources/subscribe (${engine})`, function () {
    this.timeout(60_000);
    let modern: ConformanceUpstream2026;
    let svc: ListeningService;
    const closing: Array<() => Promise<unknown>> = [];
    const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);
    const run = async (key: string, body: unknown) => (await owner(request(svc.url).post('/api/dispatch')).send({ key, body })).body;
    const upstreamSubscriptions = async () => (await run('FAITHFUL_SUBSCRIPTIONS', {})).result as string;

    /** A v2 client speaking 2026-07-28 to `path`, collecting the resource updates its listens bring. */
    const modernClient = async (path: string, headers: Record<string, string> = OWNER, on: ListeningService = svc) => {
      const client = new Client({ name: 'listen-test', version: '0.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      const updates: Array<{ uri: string; _meta?: Record<string, unknown> }> = [];
      client.setNotificationHandler('notifications/resources/updated', (n) => void updates.push(n.params as { uri: string; _meta?: Record<string, unknown> }));
      await client.connect(new StreamableHTTPClientTransport(new URL(`${on.url}${path}`), { requestInit: { headers } }));
      closing.push(() => client.close());
      return { client, updates };
    };

    before(async () => {
      modern = await startConformanceUpstream2026({ modernOnly: true });
      svc = await startListeningService(engine, {
        upstreams: {
          servers: {
            faithful: { system: 'FAITHFUL', transport: 'stdio', command: process.execPath, args: [FAITHFUL], defaults: OPEN },
            modern: { system: 'MODERN', transport: 'streamable-http', url: modern.url, defaults: OPEN },
          },
        },
        mcp: { sessions: { maxSessions: 50, maxSubscriptions: 2, idleMs: 60_000 }, virtualServers: { curated: { tools: ['FAITHFUL_SAY'] } } },
      });
    });
    afterEach(async () => {
      await Promise.all(closing.splice(0).map((close) => close().catch(() => {})));
    });
    after(async () => {
      await svc?.close();
      await modern?.close();
    });

    it('a 2026 caller\'s listen on /mcp/servers/<name> of a 2025 upstream: acknowledged with what is honored, updates stamped with its id, the upstream released when it closes', async () => {
      const { client, updates } = await modernClient('/mcp/servers/faithful');
      const listen = await client.listen({ resourceSubscriptions: [COUNTER], toolsListChanged: true });
      // No face sends tools/list_changed (in either era): not honored, said so in the acknowledgement.
      expect(listen.honoredFilter).to.deep.equal({ resourceSubscriptions: [COUNTER] });
      expect(await upstreamSubscriptions()).to.equal(COUNTER);
      expect((await run('FAITHFUL_TOUCH', { uri: COUNTER })).result).to.equal('notified');
      await until(() => updates.length, (n) => n === 1);
      expect(updates[0]!.uri).to.equal(COUNTER);
      expect(updates[0]!._meta?.[SUBSCRIPTION_ID_META_KEY]).to.be.a('string');
      // A 2025 session holds the same subscription: the upstream stays subscribed until the last one goes.
      const legacy = new LegacyClient({ name: 'legacy', version: '0.0.0' });
      const legacyUpdates: string[] = [];
      legacy.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void legacyUpdates.push(n.params.uri));
      await legacy.connect(new LegacyTransport(new URL(`${svc.url}/mcp/servers/faithful`), { requestInit: { headers: OWNER } }));
      closing.push(() => legacy.close());
      await legacy.subscribeResource({ uri: COUNTER });
      await listen.close();
      expect(await listen.closed).to.equal('local');
      await run('FAITHFUL_TOUCH', { uri: COUNTER });
      await until(() => legacyUpdates.length, (n) => n === 1);
      expect(await upstreamSubscriptions()).to.equal(COUNTER);
      expect(updates).to.have.length(1);
      await legacy.unsubscribeResource({ uri: COUNTER });
      await until(upstreamSubscriptions, (s) => s === '');
    });

    it('a listen ended by its stream closing (the caller went away) releases the upstream subscription', async () => {
      const { client } = await modernClient('/mcp/servers/faithful');
      await client.listen({ resourceSubscriptions: [COUNTER] });
      expect(await upstreamSubscriptions()).to.equal(COUNTER);
      await client.close();
      await until(upstreamSubscriptions, (s) => s === '');
    });

    it('refuses a listen past mcp.sessions.maxSubscriptions for the credential with session_limit, nothing subscribed', async () => {
      const { client } = await modernClient('/mcp/servers/faithful');
      const over = await client.listen({ resourceSubscriptions: ['memo://one', 'memo://two', 'memo://three'] }).then(() => null, (err: unknown) => err);
      expect(over).to.be.instanceOf(ProtocolError);
      expect((over as ProtocolError).code).to.equal(-32000);
      expect((over as ProtocolError).data).to.include({ code: 'session_limit', limit: 2 });
      expect(await upstreamSubscriptions()).to.equal('');
      // Across the credential's listens: two held, a third refused; one closed makes room.
      const first = await client.listen({ resourceSubscriptions: ['memo://one', 'memo://two'] });
      const refused = await client.listen({ resourceSubscriptions: ['memo://three'] }).then(() => null, (err: unknown) => err);
      expect((refused as ProtocolError).data).to.include({ code: 'session_limit' });
      await first.close();
      const next = await client.listen({ resourceSubscriptions: ['memo://three'] });
      expect(next.honoredFilter).to.deep.equal({ resourceSubscriptions: ['memo://three'] });
      await next.close();
      await until(upstreamSubscriptions, (s) => s === '');
    });

    it('does not honor the URIs of a credential that may not read the server\'s resources (resources/read\'s rule), and subscribes nothing', async () => {
      const token = (await owner(request(svc.url).post('/api/tokens')).send({ moves: ['invoke:FAITHFUL_SAY'] }).expect(201)).body.token as string;
      const { client } = await modernClient('/mcp/servers/faithful', { authorization: `Bearer ${token}` });
      const listen = await client.listen({ resourceSubscriptions: [COUNTER] });
      expect(listen.honoredFilter).to.deep.equal({});
      // Nothing honored: the stream ends at once with the empty result.
      expect(await listen.closed).to.equal('graceful');
      expect(await upstreamSubscriptions()).to.equal('');
    });

    it('/mcp and a curated server honor nothing: acknowledged empty, then ended gracefully', async () => {
      for (const path of ['/mcp', '/mcp/v/curated']) {
        const { client } = await modernClient(path);
        const listen = await client.listen({ toolsListChanged: true, resourceSubscriptions: [COUNTER] });
        expect(listen.honoredFilter, path).to.deep.equal({});
        expect(await listen.closed, path).to.equal('graceful');
      }
    });

    it('a listen with a malformed filter is the SDK\'s -32602, nothing subscribed', async () => {
      const headers = { ...OWNER, accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' };
      const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
      const answer = await fetch(`${svc.url}/mcp/servers/faithful`, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 'l', method: 'subscriptions/listen', params: { _meta: meta, notifications: { resourceSubscriptions: 'memo://counter' } } }) });
      const body = (await answer.json()) as { id: unknown; error: { code: number } };
      expect(body).to.deep.include({ id: 'l' });
      expect(body.error.code).to.equal(-32602);
      expect(await upstreamSubscriptions()).to.equal('');
    });

    it('a 2025 caller\'s resources/subscribe in front of a 2026-only upstream becomes Switchyard\'s listen there: the update arrives, unsubscribe closes it', async () => {
      const legacy = new LegacyClient({ name: 'legacy', version: '0.0.0' });
      const updates: string[] = [];
      legacy.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
      await legacy.connect(new LegacyTransport(new URL(`${svc.url}/mcp/servers/modern`), { requestInit: { headers: OWNER } }));
      closing.push(() => legacy.close());
      expect(modern.listening()).to.equal(0);
      await legacy.subscribeResource({ uri: WATCHED });
      expect(modern.listening()).to.equal(1);
      modern.resourceUpdated(WATCHED);
      await until(() => updates.length, (n) => n === 1);
      expect(updates).to.deep.equal([WATCHED]);
      // A 2026 caller's listen on the same URI shares it: still one stream upstream.
      const { client, updates: modernUpdates } = await modernClient('/mcp/servers/modern');
      const listen = await client.listen({ resourceSubscriptions: [WATCHED] });
      expect(listen.honoredFilter).to.deep.equal({ resourceSubscriptions: [WATCHED] });
      expect(modern.listening()).to.equal(1);
      modern.resourceUpdated(WATCHED);
      await until(() => [updates.length, modernUpdates.length], ([a, b]) => a === 2 && b === 1);
      await listen.close();
      await legacy.unsubscribeResource({ uri: WATCHED });
      await until(() => modern.listening(), (n) => n === 0);
    });

    it('listens to a 2026-only upstream again when it restarts, so a 2025 caller\'s subscription keeps its updates', async () => {
      const legacy = new LegacyClient({ name: 'legacy', version: '0.0.0' });
      const updates: string[] = [];
      legacy.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
      await legacy.connect(new LegacyTransport(new URL(`${svc.url}/mcp/servers/modern`), { requestInit: { headers: OWNER } }));
      closing.push(() => legacy.close());
      await legacy.subscribeResource({ uri: WATCHED });
      expect(modern.listening()).to.equal(1);
      const port = Number(new URL(modern.url).port);
      await modern.close();
      modern = await startConformanceUpstream2026({ modernOnly: true, port });
      // Switchyard's stream broke off: it listens again, with the same URIs, on the upstream's new life.
      await until(() => modern.listening(), (n) => n === 1);
      modern.resourceUpdated(WATCHED);
      await until(() => updates.length, (n) => n === 1);
      expect(updates).to.deep.equal([WATCHED]);
      await legacy.unsubscribeResource({ uri: WATCHED });
      await until(() => modern.listening(), (n) => n === 0);
    });

    it('ends an open listen with the empty result when the service shuts down', async () => {
      const own = await startListeningService(engine, { upstreams: { servers: { faithful: { system: 'FAITHFUL', transport: 'stdio', command: process.execPath, args: [FAITHFUL], defaults: OPEN } } } });
      try {
        const { client } = await modernClient('/mcp/servers/faithful', OWNER, own);
        const listen = await client.listen({ resourceSubscriptions: [COUNTER] });
        expect(listen.honoredFilter).to.deep.equal({ resourceSubscriptions: [COUNTER] });
        await own.close();
        expect(await listen.closed).to.equal('graceful');
      } finally {
        await own.close().catch(() => {});
      }
    });
  });
}
