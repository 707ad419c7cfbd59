// Fair shares of what MCP callers hold in a process, on each engine, through HTTP against the real
// app: a keyless token fills its share of sessions (GET streams and subscriptions/listen streams
// count alike, however many narrowed texts of it present themselves) and then gets session_limit,
// while another keyless token gets its own share and the owner's key and the owner's tokens keep
// the reserve keyless tokens together cannot take; the same for runs paused for their caller's
// input. A session id the service did not issue is 404 on GET, POST and DELETE; an idle stream is
// ended and its session makes room.
import { expect } from 'chai';
import { join } from 'node:path';
import request from 'supertest';
import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { PROJECT_ROOT } from '@switchyard/app';
import { narrowToken } from '@switchyard/core';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';
import { startEverythingHttp, type EverythingHttp } from '../support/everything-server.js';
import { until } from '../support/until.js';

const OPEN = { auth: 'none', risk: 'low', approval: false };
const FAITHFUL = join(PROJECT_ROOT, 'test', 'support', 'faithful-mcp-server.mjs');
const COUNTER = 'memo://counter';
const OWNER = { 'x-sheets-key': TEST_API_KEY };
const PATH = '/mcp/servers/faithful';
const MCP = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
const servers = { faithful: { system: 'FAITHFUL', transport: 'stdio', command: process.execPath, args: [FAITHFUL], defaults: OPEN } };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
type ErrorBody = { error: { code: string | number; message: string; data?: Record<string, unknown> } };

for (const engine of engines()) {
  describe(`MCP fair shares: per-credential shares, a keyed reserve, issued session ids, idle streams (${engine})`, function () {
    this.timeout(60_000);
    const closing: Array<() => unknown> = [];
    afterEach(async () => {
      await Promise.all(closing.splice(0).map(async (close) => close()));
    });

    const keyless = async (svc: ListeningService) => (await request(svc.url).get('/start').expect(200)).body.token as string;
    /** A 2025 session on `path`: the id the service issued at initialize. */
    const initialize = async (svc: ListeningService, credential: Record<string, string>, path = PATH): Promise<string> => {
      const res = await fetch(`${svc.url}${path}`, { method: 'POST', headers: { ...MCP, ...credential }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } }) });
      expect(res.status).to.equal(200);
      await res.text();
      return res.headers.get('mcp-session-id')!;
    };
    /** Opens the session's GET stream; an open one is closed after the test. */
    const openStream = async (svc: ListeningService, credential: Record<string, string>, session: string, path = PATH) => {
      const stop = new AbortController();
      const res = await fetch(`${svc.url}${path}`, { headers: { ...credential, accept: 'text/event-stream', 'mcp-session-id': session }, signal: stop.signal });
      // Held until the test ends: undici cancels the body of a fetch response once it is collected,
      // which would end the stream (and free its session's place) whenever the collector ran.
      closing.push(() => {
        stop.abort();
        return res.body?.cancel().catch(() => undefined);
      });
      return { status: res.status, body: res.status === 200 ? null : ((await res.json()) as ErrorBody), res };
    };
    /** A new session with its stream open: the stream's status and, when refused, its error. */
    const sessionStream = async (svc: ListeningService, credential: Record<string, string>) => openStream(svc, credential, await initialize(svc, credential));
    /** A 2026-07-28 client's subscriptions/listen on the imported server: the subscription, or the refusal. */
    const listen = async (svc: ListeningService, credential: Record<string, string>) => {
      const client = new Client({ name: 'shares-test', version: '0.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}${PATH}`), { requestInit: { headers: credential } }));
      closing.push(() => client.close());
      return client.listen({ resourceSubscriptions: [COUNTER] }).then((subscription) => ({ subscription, refused: null }), (err: unknown) => ({ subscription: null, refused: err as ProtocolError }));
    };

    describe('sessions, GET streams and listens', () => {
      let svc: ListeningService;
      before(async () => {
        // 10 sessions, 3 a credential, keyless tokens together at most 6 (0.4 kept for the owner's key and its tokens).
        svc = await startListeningService(engine, { upstreams: { connectTimeoutMs: 20_000, servers }, mcp: { sessions: { maxSessions: 10, maxPerCredential: 3, keyedReserve: 0.4, maxSubscriptions: 2, idleMs: 60_000, streamIdleMs: 60_000 } } });
      });
      after(async () => svc?.close());

      it('a keyless token past its share gets session_limit (narrowed texts of it too, and its listens), while another keyless token, the owner and the owner\'s token get theirs', async () => {
        const a = await keyless(svc);
        for (let i = 0; i < 3; i++) expect((await sessionStream(svc, bearer(a))).status, `stream ${i}`).to.equal(200);
        const fourth = await sessionStream(svc, bearer(a));
        expect(fourth.status).to.equal(429);
        expect(fourth.body!.error.code).to.equal('session_limit');
        expect(fourth.body!.error.message).to.contain('mcp.sessions.maxPerCredential');
        // A token narrowed offline is the same credential's share, not a new one.
        const narrowed = narrowToken(a, { purpose: 'another-text' });
        expect((await sessionStream(svc, bearer(narrowed))).status).to.equal(429);
        // A 2026 listen is one of its sessions too: refused before anything is subscribed.
        const over = await listen(svc, bearer(a));
        expect(over.refused, 'the listen was taken').to.be.instanceOf(ProtocolError);
        expect(over.refused!.code).to.equal(-32000);
        expect(over.refused!.data).to.include({ code: 'session_limit' });

        // Another keyless token has a share of its own, which fills the keyless pool (6 of 10).
        const b = await keyless(svc);
        for (let i = 0; i < 3; i++) expect((await sessionStream(svc, bearer(b))).status, `b's stream ${i}`).to.equal(200);
        const c = await keyless(svc);
        const pooled = await sessionStream(svc, bearer(c));
        expect(pooled.status).to.equal(429);
        expect(pooled.body!.error.message).to.contain('mcp.sessions.keyedReserve');

        // The reserve is the owner's and its tokens': two streams and a listen, then a token the owner minted.
        for (let i = 0; i < 2; i++) expect((await sessionStream(svc, OWNER)).status, `owner's stream ${i}`).to.equal(200);
        const owned = await listen(svc, OWNER);
        expect(owned.refused, String(owned.refused)).to.equal(null);
        expect(owned.subscription!.honoredFilter).to.deep.equal({ resourceSubscriptions: [COUNTER] });
        const member = (await request(svc.url).post('/api/tokens').set(OWNER).send({ moves: ['invoke:*'] }).expect(201)).body.token as string;
        expect((await sessionStream(svc, bearer(member))).status).to.equal(200);
        // Now the process is full (10): one more is refused whoever asks.
        const full = await sessionStream(svc, bearer(member));
        expect(full.status).to.equal(429);
        expect(full.body!.error.message).to.contain('mcp.sessions.maxSessions');
      });

      it('answers 404 to a session id the service did not issue, on GET, POST and DELETE, and 403 to another credential\'s', async () => {
        const token = await keyless(svc);
        const issued = await initialize(svc, bearer(token));
        const parts = issued.split('.');
        const forged = ['made-up-session', 'sy2.-.AAAAAAAAAAAAAAAAAAAAAA.BBBBBBBBBBBBBBBB.CCCCCCCCCCCCCCCCCCCCCC', [parts[0], 'es', ...parts.slice(2)].join('.')];
        for (const id of forged) {
          const get = await openStream(svc, bearer(token), id);
          expect(get.status, `GET ${id}`).to.equal(404);
          expect(get.body!.error.code).to.equal(-32001);
          for (const path of ['/mcp', PATH]) {
            const post = await fetch(`${svc.url}${path}`, { method: 'POST', headers: { ...MCP, ...bearer(token), 'mcp-session-id': id }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
            expect(post.status, `POST ${path} ${id}`).to.equal(404);
            expect(((await post.json()) as ErrorBody).error.code).to.equal(-32001);
            const del = await fetch(`${svc.url}${path}`, { method: 'DELETE', headers: { ...bearer(token), 'mcp-session-id': id } });
            expect(del.status, `DELETE ${path} ${id}`).to.equal(404);
            await del.text();
          }
        }
        // The issued id is good for its own credential, and another credential's to nobody else.
        const own = await fetch(`${svc.url}${PATH}`, { method: 'POST', headers: { ...MCP, ...bearer(token), 'mcp-session-id': issued }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
        expect(own.status).to.equal(200);
        await own.text();
        const stranger = await openStream(svc, bearer(await keyless(svc)), issued);
        expect(stranger.status).to.equal(403);
        expect(stranger.body!.error.code).to.equal('scope_denied');
      });
    });

    describe('idle streams', () => {
      let svc: ListeningService;
      before(async () => {
        svc = await startListeningService(engine, { upstreams: { connectTimeoutMs: 20_000, servers }, mcp: { sessions: { maxSessions: 10, maxPerCredential: 1, keyedReserve: 0.25, maxSubscriptions: 2, idleMs: 60_000, streamIdleMs: 1000 } } });
      });
      after(async () => svc?.close());

      it('ends a GET stream that sent nothing for streamIdleMs, and its session then makes room within the share', async () => {
        const token = await keyless(svc);
        const first = await sessionStream(svc, bearer(token));
        expect(first.status).to.equal(200);
        let ended = false;
        void first.res.text().then(() => (ended = true), () => (ended = true));
        // Its one share is held while the stream is open.
        expect((await sessionStream(svc, bearer(token))).status).to.equal(429);
        await until(() => ended, (done) => done);
        // The idle session (no stream, no subscriptions) makes room for the credential's next one.
        expect((await sessionStream(svc, bearer(token))).status).to.equal(200);
      });

      it('ends a subscriptions/listen that sent nothing for streamIdleMs gracefully, releasing the upstream subscription', async () => {
        const { subscription, refused } = await listen(svc, OWNER);
        expect(refused, String(refused)).to.equal(null);
        let how: string | undefined;
        void subscription!.closed.then((end) => (how = end));
        await until(() => how, (end) => end !== undefined);
        expect(how).to.equal('graceful');
        const subscribed = async () => (await request(svc.url).post('/api/dispatch').set(OWNER).send({ key: 'FAITHFUL_SUBSCRIPTIONS', body: {} })).body.result as string;
        await until(subscribed, (s) => s === '');
      });
    });

    describe('runs paused for their caller\'s input', () => {
      const ELICIT = 'EVERYTHING_TRIGGER_ELICITATION_REQUEST';
      const envelope = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' }, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
      let everything: EverythingHttp;
      let svc: ListeningService;
      const pause = async (credential: Record<string, string>) => {
        const res = await fetch(`${svc.url}/mcp`, {
          method: 'POST',
          headers: { ...MCP, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': ELICIT, ...credential },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: ELICIT, arguments: {}, _meta: envelope } }),
        });
        return (await res.json()) as { result?: { resultType?: string }; error?: { code: number; message: string; data?: Record<string, unknown> } };
      };
      before(async () => {
        everything = await startEverythingHttp();
        // 4 paused runs, 2 a credential, keyless tokens together at most 2.
        svc = await startListeningService(engine, { upstreams: { connectTimeoutMs: 20_000, servers: { everything: { system: 'EVERYTHING', transport: 'streamable-http', url: everything.url, defaults: OPEN } } }, mcp: { sessions: { keyedReserve: 0.5 }, pausedCalls: { max: 4, maxPerCredential: 2, ttlMs: 60_000 } } });
      });
      after(async () => {
        await svc?.close();
        await everything?.stop();
      });

      it('a keyless token pauses its share (narrowed texts counted with it), another keyless token finds the pool full, the owner pauses its own', async () => {
        const a = await keyless(svc);
        expect((await pause(bearer(a))).result?.resultType).to.equal('input_required');
        expect((await pause(bearer(narrowToken(a, { purpose: 'another-text' })))).result?.resultType).to.equal('input_required');
        const third = await pause(bearer(a));
        expect(third.error?.code, JSON.stringify(third)).to.equal(-32000);
        expect(third.error!.data).to.include({ code: 'session_limit' });
        expect(third.error!.message).to.contain('mcp.pausedCalls.maxPerCredential');
        const b = await pause(bearer(await keyless(svc)));
        expect(b.error?.data, JSON.stringify(b)).to.include({ code: 'session_limit' });
        expect(b.error!.message).to.contain('mcp.sessions.keyedReserve');
        for (let i = 0; i < 2; i++) expect((await pause(OWNER)).result?.resultType, `owner's ${i}`).to.equal('input_required');
      });
    });
  });
}
