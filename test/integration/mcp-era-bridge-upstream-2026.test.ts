// The MCP eras bridged the other way (issue 26 item 2), on each engine: an upstream that speaks only
// 2026-07-28 answers a call InputRequiredResult (confirm: elicitation, haiku: sampling). A 2025
// caller is asked on its session, as elicitation/create or sampling/createMessage; a 2026-07-28
// caller gets InputRequiredResult with our requestState (the upstream's stays with us). Either way
// the answers reach the upstream on its retry, within one invocation.
import { expect } from 'chai';
import request from 'supertest';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';
import { startModernUpstream, type ModernUpstream } from '../support/modern-mcp-server.js';

const OPEN = { auth: 'none', risk: 'low', approval: false };
const FACE = '/mcp/servers/modern';
const HEADERS = { 'x-sheets-key': TEST_API_KEY };
const textOf = (r: unknown) => ((r as CallToolResult).content as Array<{ text?: string }>).map((b) => b.text ?? '').join('\n');

for (const engine of engines()) {
  describe(`the MCP eras bridged: a 2026-07-28 upstream's InputRequiredResult reaches callers of both eras (${engine})`, function () {
    this.timeout(60_000);
    let upstream: ModernUpstream;
    let svc: ListeningService;
    const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);
    const runs = async (key: string) => (await owner(request(svc.url).get(`/api/invocations?object_id=${key}`)).expect(200)).body.items as Array<{ ok: boolean; status: string; rounds?: Array<{ kind: string; asked_at: string; answered_at: string | null }> }>;
    const v1 = async (capabilities: Record<string, unknown>) => {
      const client = new V1Client({ name: 'v1-bridge', version: '0.0.0' }, { capabilities });
      await client.connect(new V1Transport(new URL(`${svc.url}${FACE}`), { requestInit: { headers: HEADERS } }));
      return client;
    };

    before(async () => {
      upstream = await startModernUpstream({ asking: true });
      svc = await startListeningService(engine, { upstreams: { servers: { modern: { system: 'MODERN', transport: 'streamable-http', url: upstream.url, defaults: OPEN } } } });
    });
    after(async () => {
      await svc?.close();
      await upstream?.close();
    });

    it('a 2025 caller that declared elicitation is asked on its session; the upstream gets the answer with its own requestState: one ok invocation', async () => {
      const before = (await runs('MODERN_CONFIRM')).length;
      const client = await v1({ elicitation: {} });
      const asked: Array<Record<string, unknown>> = [];
      client.setRequestHandler(ElicitRequestSchema, async (req) => {
        asked.push(req.params);
        return { action: 'accept', content: { sure: true } };
      });
      try {
        const result = await client.callTool({ name: 'confirm', arguments: { action: 'deploy' } });
        expect(asked).to.have.length(1);
        expect(asked[0]).to.have.property('message', 'Really deploy?');
        expect(result.isError ?? false, textOf(result)).to.equal(false);
        expect(textOf(result)).to.equal('deploy: accept sure=true');
      } finally {
        await client.close();
      }
      const after = await runs('MODERN_CONFIRM');
      expect(after.length).to.equal(before + 1);
      expect(after[0]).to.include({ ok: true, status: 'ok' });
      expect(after[0]!.rounds!.map((r) => [r.kind, typeof r.answered_at])).to.deep.equal([['elicitation', 'string']]);
    });

    it('a 2025 caller that declared sampling answers the upstream\'s sampling request', async () => {
      const client = await v1({ sampling: {} });
      client.setRequestHandler(CreateMessageRequestSchema, async () => ({ role: 'assistant', content: { type: 'text', text: 'old pond, a frog' }, model: 'test-model' }));
      try {
        const result = await client.callTool({ name: 'haiku', arguments: { topic: 'frogs' } });
        expect(textOf(result)).to.equal('sampled: old pond, a frog');
      } finally {
        await client.close();
      }
    });

    it('a 2025 caller that declared neither: the run fails elicitation_unsupported, never ok', async () => {
      const client = await v1({});
      try {
        const result = await client.callTool({ name: 'confirm', arguments: { action: 'drop' } });
        expect(result.isError).to.equal(true);
        const run = (result._meta as Record<string, { ok: boolean; error: { code: string } }>)['switchyard/run']!;
        expect(run.ok).to.equal(false);
        expect(run.error.code).to.equal('elicitation_unsupported');
      } finally {
        await client.close();
      }
    });

    it('roots: a 2026-07-28 caller that declared them answers roots/list; a 2025 caller is not asked, the run fails roots_unsupported', async () => {
      const client = new Client({ name: 'v2-roots', version: '0.0.0' }, { capabilities: { roots: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
      client.setRequestHandler('roots/list', async () => ({ roots: [{ uri: 'file:///srv/project', name: 'project' }] }));
      await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}${FACE}`), { requestInit: { headers: HEADERS } }));
      try {
        expect(textOf(await client.callTool({ name: 'where', arguments: {} }))).to.equal('roots: file:///srv/project');
      } finally {
        await client.close();
      }
      const old = await v1({ roots: {} });
      try {
        const result = await old.callTool({ name: 'where', arguments: {} });
        expect(result.isError).to.equal(true);
        expect((result._meta as Record<string, { error: { code: string } }>)['switchyard/run']!.error.code).to.equal('roots_unsupported');
      } finally {
        await old.close();
      }
      // The 2026 run asked one round (roots); the 2025 caller was never asked, so its failed run has none.
      expect((await runs('MODERN_WHERE')).map((r) => [r.ok, (r.rounds ?? []).map((x) => x.kind)])).to.deep.equal([[false, []], [true, ['roots']]]);
    });

    it('a 2026-07-28 caller gets InputRequiredResult with our requestState, not the upstream\'s; the v2 client completes it', async () => {
      const envelope = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' }, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
      const res = await fetch(`${svc.url}${FACE}`, {
        method: 'POST',
        headers: { ...HEADERS, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'confirm' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'confirm', arguments: { action: 'ship' }, _meta: envelope } }),
      });
      const asked = ((await res.json()) as { result: { resultType: string; inputRequests: Record<string, { method: string; params: { message: string } }>; requestState: string } }).result;
      expect(asked.resultType).to.equal('input_required');
      expect(Object.values(asked.inputRequests).map((q) => [q.method, q.params.message])).to.deep.equal([['elicitation/create', 'Really ship?']]);
      expect(asked.requestState).to.match(/^sy1\./);
      expect(Buffer.from(asked.requestState.split('.')[1]!, 'base64url').toString('utf8')).to.not.contain('asked:ship');

      const client = new Client({ name: 'v2-bridge', version: '0.0.0' }, { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
      client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { sure: false } }));
      await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}${FACE}`), { requestInit: { headers: HEADERS } }));
      try {
        const result = await client.callTool({ name: 'confirm', arguments: { action: 'ship' } });
        expect(textOf(result)).to.equal('ship: accept sure=false');
      } finally {
        await client.close();
      }
    });
  });
}
