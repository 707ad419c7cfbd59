// Every MCP face (/mcp, /mcp/servers/<name>, /mcp/v/<name>) speaks 2026-07-28 beside the 2025
// versions, on each engine: the v2 SDK client connects with its default (2025, initialize), `auto`
// (server/discover finds 2026-07-28) and a 2026-07-28 pin, with the owner's API key (in its header
// or as a Bearer), a share token and an OAuth access token, lists the caller's tools and calls one,
// a ledgered run like any other; the revision's wire errors are answered as the spec has them.
import { expect } from 'chai';
import { join } from 'node:path';
import request from 'supertest';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { PROJECT_ROOT } from '@switchyard/app';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';
import { REDIRECT, consentPage, decide, pkce, registerClient, signIn } from '../support/oauth.js';

const OPEN = { auth: 'none', risk: 'low', approval: false };
const FAITHFUL = join(PROJECT_ROOT, 'test', 'support', 'faithful-mcp-server.mjs');
/** mcp.cacheTtlMs of the service under test: how long its cacheable 2026 results stay fresh. */
const CACHE_TTL_MS = 60_000;
const MODES = { default: undefined, auto: { mode: 'auto' as const }, pinned: { mode: { pin: '2026-07-28' } } };
const FACES = [
  { path: '/mcp', tool: 'FAITHFUL_SAY' },
  { path: '/mcp/servers/faithful', tool: 'say' },
  { path: '/mcp/v/curated', tool: 'FAITHFUL_SAY' },
];

for (const engine of engines()) {
  describe(`MCP 2026-07-28 on every face, beside 2025 (${engine})`, function () {
    this.timeout(60_000);
    let svc: ListeningService;
    const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);

    before(async () => {
      svc = await startListeningService(engine, {
        upstreams: { servers: { faithful: { system: 'FAITHFUL', transport: 'stdio', command: process.execPath, args: [FAITHFUL], defaults: OPEN } } },
        mcp: { cacheTtlMs: CACHE_TTL_MS, virtualServers: { curated: { description: 'The say tool', tools: ['FAITHFUL_SAY'] } } },
      });
    });
    after(async () => svc?.close());

    /** The credentials a client may configure: the owner's key in its header or as a Bearer, a share token. */
    const CREDENTIALS: Record<string, (path: string) => Promise<Record<string, string>>> = {
      'API key': async () => ({ 'x-sheets-key': TEST_API_KEY }),
      'API key as Bearer': async () => ({ authorization: `Bearer ${TEST_API_KEY}` }),
      'share token': async () => ({ authorization: `Bearer ${(await request(svc.url).get('/start').expect(200)).body.token as string}` }),
      // The owner consents to FAITHFUL_SAY for this face (resource=), as an MCP client's sign-in does.
      'OAuth token': async (path) => {
        const http = request(svc.url);
        const cookie = await signIn(http);
        const { client_id } = await registerClient(http);
        const { verifier, challenge } = pkce();
        const params = { response_type: 'code', client_id, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', resource: `${svc.url}${path}` };
        const { csrf } = await consentPage(http, cookie, params);
        const code = (await decide(http, cookie, params, csrf, 'allow', ['FAITHFUL_SAY'])).searchParams.get('code')!;
        const token = (await http.post('/oauth/token').type('form').send({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id, code_verifier: verifier, resource: `${svc.url}${path}` }).expect(200)).body.access_token as string;
        return { authorization: `Bearer ${token}` };
      },
    };
    for (const { path, tool } of FACES) {
      for (const [mode, versionNegotiation] of Object.entries(MODES)) {
        for (const [credential, headersOf] of Object.entries(CREDENTIALS)) {
          it(`${path}: a v2 client (${mode}, ${credential}) lists and calls ${tool}, a ledgered run`, async () => {
            const client = new Client({ name: 'v2-test', version: '0.0.0' }, versionNegotiation ? { versionNegotiation } : {});
            await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}${path}`), { requestInit: { headers: await headersOf(path) } }));
            try {
              expect(client.getNegotiatedProtocolVersion()).to.equal(mode === 'default' ? '2025-11-25' : '2026-07-28');
              const { tools } = await client.listTools();
              expect(tools.map((t) => t.name)).to.include(tool);
              const result = (await client.callTool({ name: tool, arguments: { text: `via ${mode}` } })) as CallToolResult;
              expect(result.isError).to.not.equal(true);
              expect(result.content).to.deep.equal([{ type: 'text', text: `via ${mode}` }]);
              const run = (result._meta as Record<string, { invocation: string }>)['switchyard/run']!;
              const stored = (await owner(request(svc.url).get(`/api/invocations/${run.invocation}`)).expect(200)).body.invocation;
              expect(stored).to.include({ key: 'FAITHFUL_SAY', ok: true });
            } finally {
              await client.close();
            }
          });
        }
      }
    }

    describe('results at 2026-07-28: resultType on every result, ttlMs (mcp.cacheTtlMs) and private scope on the cacheable ones', () => {
      /** A v2 client pinned to 2026-07-28 with the owner's key; what it receives is read from the wire. */
      async function pinned(path: string): Promise<{ client: Client; seen: Array<Record<string, unknown>> }> {
        const seen: Array<Record<string, unknown>> = [];
        const recording: typeof fetch = async (input, init) => {
          const res = await fetch(input, init);
          if ((res.headers.get('content-type') ?? '').includes('application/json')) {
            const body = (await res.clone().json()) as { result?: Record<string, unknown> };
            if (body.result) seen.push({ method: (JSON.parse(String(init?.body ?? '{}')) as { method?: string }).method, ...body.result });
          }
          return res;
        };
        const client = new Client({ name: 'v2-test', version: '0.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
        await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}${path}`), { fetch: recording, requestInit: { headers: { 'x-sheets-key': TEST_API_KEY } } }));
        return { client, seen };
      }
      const hintsOf = (r: Record<string, unknown> | undefined) => ({ resultType: r?.['resultType'], ttlMs: r?.['ttlMs'], cacheScope: r?.['cacheScope'] });

      for (const { path, tool } of FACES) {
        it(`${path}: server/discover and tools/list are cacheable for ${CACHE_TTL_MS} ms, private; tools/call is complete and carries no cache hint`, async () => {
          const { client, seen } = await pinned(path);
          try {
            await client.listTools();
            await client.callTool({ name: tool, arguments: { text: 'cached?' } });
            const of = (method: string) => seen.find((r) => r['method'] === method);
            expect(hintsOf(of('server/discover'))).to.deep.equal({ resultType: 'complete', ttlMs: CACHE_TTL_MS, cacheScope: 'private' });
            expect(hintsOf(of('tools/list'))).to.deep.equal({ resultType: 'complete', ttlMs: CACHE_TTL_MS, cacheScope: 'private' });
            expect(hintsOf(of('tools/call'))).to.deep.equal({ resultType: 'complete', ttlMs: undefined, cacheScope: undefined });
          } finally {
            await client.close();
          }
        });
      }

      it('/mcp/servers/faithful: a forwarded resources/list (its 2025 upstream gives no ttlMs) is cacheable for mcp.cacheTtlMs, private', async () => {
        const { client, seen } = await pinned('/mcp/servers/faithful');
        try {
          const { resources } = await client.listResources();
          expect(resources.map((r) => r.uri)).to.deep.equal(['memo://counter']);
          expect(hintsOf(seen.find((r) => r['method'] === 'resources/list'))).to.deep.equal({ resultType: 'complete', ttlMs: CACHE_TTL_MS, cacheScope: 'private' });
        } finally {
          await client.close();
        }
      });

      it('a 2025 caller of the same face gets no 2026 fields', async () => {
        const client = new Client({ name: 'v2-test', version: '0.0.0' });
        const seen: Array<Record<string, unknown>> = [];
        const recording: typeof fetch = async (input, init) => {
          const res = await fetch(input, init);
          if ((res.headers.get('content-type') ?? '').includes('application/json')) seen.push(((await res.clone().json()) as { result?: Record<string, unknown> }).result ?? {});
          return res;
        };
        await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { fetch: recording, requestInit: { headers: { 'x-sheets-key': TEST_API_KEY } } }));
        try {
          await client.listTools();
          expect(seen.length).to.be.greaterThan(0);
          for (const result of seen) expect(hintsOf(result)).to.deep.equal({ resultType: undefined, ttlMs: undefined, cacheScope: undefined });
        } finally {
          await client.close();
        }
      });
    });

    describe('wire errors of 2026-07-28, never a 500 and never a run', () => {
      const envelope = (version: string) => ({ 'io.modelcontextprotocol/protocolVersion': version, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' }, 'io.modelcontextprotocol/clientCapabilities': {} });
      const post = async (body: Record<string, unknown>, headers: Record<string, string>) => {
        const res = await fetch(`${svc.url}/mcp`, { method: 'POST', headers: { 'x-sheets-key': TEST_API_KEY, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify({ jsonrpc: '2.0', ...body }) });
        return { status: res.status, body: (await res.json()) as { id: unknown; error?: { code: number; data?: Record<string, unknown> }; result?: Record<string, unknown> } };
      };
      const modern = (method: string, name?: string) => ({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) });
      let runsBefore: number;
      before(async () => {
        runsBefore = (await owner(request(svc.url).get('/api/invocations?object_id=FAITHFUL_SAY')).expect(200)).body.items.length;
      });

      it('an unknown version is -32022 naming the supported ones, the request id echoed', async () => {
        const { status, body } = await post({ id: 7, method: 'tools/list', params: { _meta: envelope('2099-01-01') } }, { 'mcp-protocol-version': '2099-01-01', 'mcp-method': 'tools/list' });
        expect(status).to.equal(400);
        expect(body.id).to.equal(7);
        expect(body.error!.code).to.equal(-32022);
        // Every version the face speaks, the 2025 ones too, newest era first.
        expect(body.error!.data!['supported']).to.deep.equal(['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07']);
      });

      it('an Mcp-Method header missing or contradicting the body is -32020; the call does not run', async () => {
        const args = { name: 'FAITHFUL_SAY', arguments: { text: 'never' }, _meta: envelope('2026-07-28') };
        for (const headers of [modern('tools/list'), { 'mcp-protocol-version': '2026-07-28' }]) {
          const { status, body } = await post({ id: 8, method: 'tools/call', params: args }, headers);
          expect(status, JSON.stringify(headers)).to.equal(400);
          expect(body).to.deep.include({ id: 8 });
          expect(body.error!.code).to.equal(-32020);
        }
        const runs = (await owner(request(svc.url).get('/api/invocations?object_id=FAITHFUL_SAY')).expect(200)).body.items.length;
        expect(runs).to.equal(runsBefore);
      });

      it('methods the revision removed (initialize, logging/setLevel) are 404 -32601', async () => {
        for (const method of ['initialize', 'logging/setLevel']) {
          const { status, body } = await post({ id: 9, method, params: { ...(method === 'logging/setLevel' ? { level: 'info' } : {}), _meta: envelope('2026-07-28') } }, modern(method));
          expect(status, method).to.equal(404);
          expect(body.error!.code).to.equal(-32601);
        }
      });

      it('server/discover names 2026-07-28, the caller\'s tools capability and how long the answer may be cached', async () => {
        const { status, body } = await post({ id: 10, method: 'server/discover', params: { _meta: envelope('2026-07-28') } }, modern('server/discover'));
        expect(status).to.equal(200);
        expect(body.result).to.deep.include({ supportedVersions: ['2026-07-28'], resultType: 'complete', cacheScope: 'private' });
        expect(body.result!['capabilities']).to.have.property('tools');
      });

      it('an unknown tool is -32602 with did_you_mean, as on the 2025 faces', async () => {
        const { body } = await post({ id: 11, method: 'tools/call', params: { name: 'FAITHFUL_SAI', arguments: {}, _meta: envelope('2026-07-28') } }, modern('tools/call', 'FAITHFUL_SAI'));
        expect(body.id).to.equal(11);
        expect(body.error!.code).to.equal(-32602);
        expect(body.error!.data).to.deep.include({ code: 'unknown_capability' });
        expect(body.error!.data!['did_you_mean']).to.include('FAITHFUL_SAY');
      });
    });
  });
}
