// Which era Switchyard speaks to an upstream that speaks both (2025-11-25 and 2026-07-28), on each
// engine: the caller's. Through /mcp/servers/<name>, a 2026-07-28 client's calls go over a 2026
// connection and a 2025 client's over a 2025 one; a REST dispatch is spoken 2025. The upstream is
// probed once and each connection is reused. A prompts/get that asks (InputRequiredResult) reaches a
// 2026 caller as it is, its requestState sealed in ours; a 2025 caller of a 2026-only upstream's
// asking prompt is asked on its session, or refused with a coded error when it cannot answer.
import { expect } from 'chai';
import request from 'supertest';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';
import { startModernUpstream, type ModernUpstream } from '../support/modern-mcp-server.js';

const OPEN = { auth: 'none', risk: 'low', approval: false };
const HEADERS = { 'x-sheets-key': TEST_API_KEY };
const MODERN = '2026-07-28';
const eraOf = (r: unknown) => ((r as CallToolResult).structuredContent as { era: string }).era;

for (const engine of engines()) {
  describe(`MCP: an upstream of both eras is spoken each caller's era (${engine})`, function () {
    this.timeout(60_000);
    let dual: ModernUpstream;
    let modernOnly: ModernUpstream;
    let svc: ListeningService;
    const count = (u: ModernUpstream, method: string) => u.seen.filter((s) => s.method === method).length;
    const v2 = async (server: string, capabilities: Record<string, unknown> = {}) => {
      const client = new Client({ name: 'v2-eras', version: '0.0.0' }, { capabilities, versionNegotiation: { mode: { pin: MODERN } } });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp/servers/${server}`), { requestInit: { headers: HEADERS } }));
      return client;
    };
    const v1 = async (server: string, capabilities: Record<string, unknown> = {}) => {
      const client = new V1Client({ name: 'v1-eras', version: '0.0.0' }, { capabilities });
      await client.connect(new V1Transport(new URL(`${svc.url}/mcp/servers/${server}`), { requestInit: { headers: HEADERS } }));
      return client;
    };
    /** One raw 2026-07-28 request to the gateway, so the InputRequiredResult is seen as sent (a v2 client would fulfil it). */
    const raw2026 = async (method: string, params: Record<string, unknown>) => {
      const envelope = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' }, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
      const res = await fetch(`${svc.url}/mcp/servers/dual`, {
        method: 'POST',
        headers: { ...HEADERS, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN, 'mcp-method': method, ...(typeof params['name'] === 'string' ? { 'mcp-name': params['name'] } : {}) },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: envelope } }),
      });
      return (await res.json()) as { result?: Record<string, unknown>; error?: { code: number; message: string; data?: Record<string, unknown> } };
    };

    before(async () => {
      dual = await startModernUpstream({ asking: true, bothEras: true });
      modernOnly = await startModernUpstream({ asking: true });
      svc = await startListeningService(engine, {
        upstreams: {
          servers: {
            dual: { system: 'DUAL', transport: 'streamable-http', url: dual.url, defaults: OPEN },
            modern: { system: 'MODERN', transport: 'streamable-http', url: modernOnly.url, defaults: OPEN },
          },
        },
      });
    });
    after(async () => {
      await svc?.close();
      await dual?.close();
      await modernOnly?.close();
    });

    it('a 2026 client and a 2025 client each get their own era; REST dispatch gets 2025; one probe, one initialize, each connection reused', async () => {
      // The import listed the tools over the 2025 connection, after the one probe.
      expect([count(dual, 'server/discover'), count(dual, 'initialize')]).to.deep.equal([1, 1]);
      const modern = await v2('dual');
      const legacy = await v1('dual');
      try {
        const eras: string[] = [];
        for (let i = 0; i < 3; i++) {
          eras.push(eraOf(await modern.callTool({ name: 'echo', arguments: { message: `m${i}` } })));
          eras.push(eraOf(await legacy.callTool({ name: 'echo', arguments: { message: `l${i}` } })));
        }
        expect(eras).to.deep.equal(['modern', 'legacy', 'modern', 'legacy', 'modern', 'legacy']);
      } finally {
        await modern.close();
        await legacy.close();
      }
      const rest = await request(svc.url).post('/api/dispatch').set(HEADERS).send({ key: 'DUAL_ECHO', body: { message: 'rest' } }).expect(200);
      expect(rest.body.invocation.result).to.deep.equal({ message: 'rest', era: 'legacy' });
      // The upstream saw each call in its caller's era, the 2025 ones on the one session it initialized.
      const calls = dual.seen.filter((s) => s.method === 'tools/call').map((s) => (s.version === MODERN ? MODERN : 'legacy'));
      expect(calls).to.deep.equal([MODERN, 'legacy', MODERN, 'legacy', MODERN, 'legacy', 'legacy']);
      expect([count(dual, 'server/discover'), count(dual, 'initialize')]).to.deep.equal([1, 1]);
    });

    it('a 2026 caller\'s run over the 2026 connection keeps the upstream\'s log messages, as a 2025 caller\'s does', async () => {
      const modern = await v2('dual');
      const legacy = await v1('dual');
      try {
        const ran = [await modern.callTool({ name: 'chatty', arguments: {} }), await legacy.callTool({ name: 'chatty', arguments: {} })];
        expect(ran.map((r) => ((r as CallToolResult).content as Array<{ text: string }>)[0]!.text)).to.deep.equal(['chatty done (modern)', 'chatty done (legacy)']);
        for (const r of ran) {
          const id = ((r as CallToolResult)._meta as Record<string, { invocation: string }>)['switchyard/run']!.invocation;
          const stored = (await request(svc.url).get(`/api/invocations/${id}`).set(HEADERS).expect(200)).body.invocation as { logs: Array<{ level: string; data: unknown }> };
          expect(stored.logs.map((l) => [l.level, l.data])).to.deep.equal([['info', 'chatty started'], ['debug', 'chatty details']]);
        }
      } finally {
        await modern.close();
        await legacy.close();
      }
    });

    it('a 2026 caller\'s prompts/get that asks: the InputRequiredResult as the upstream sent it, its requestState sealed in ours; the retry completes it', async () => {
      const asked = await raw2026('prompts/get', { name: 'briefing', arguments: { team: 'ops' } });
      const result = asked.result as { resultType: string; inputRequests: Record<string, { method: string; params: { message: string } }>; requestState: string };
      expect(result.resultType).to.equal('input_required');
      expect(Object.entries(result.inputRequests).map(([k, q]) => [k, q.method, q.params.message])).to.deep.equal([['topic', 'elicitation/create', "What should ops's briefing cover?"]]);
      expect(result.requestState).to.match(/^sy1\./).and.not.equal('briefing:ops');
      const answered = await raw2026('prompts/get', { name: 'briefing', arguments: { team: 'ops' }, inputResponses: { topic: { action: 'accept', content: { topic: 'the outage' } } }, requestState: result.requestState });
      expect(answered.result?.['messages']).to.deep.equal([{ role: 'user', content: { type: 'text', text: 'Brief ops on the outage' } }]);
      // Our state names the request it was minted for: another prompt's arguments are refused before the upstream sees them.
      const before = dual.seen.length;
      const moved = await raw2026('prompts/get', { name: 'briefing', arguments: { team: 'sales' }, inputResponses: { topic: { action: 'accept', content: { topic: 'x' } } }, requestState: result.requestState });
      expect(moved.error?.code).to.equal(-32602);
      expect(dual.seen.length).to.equal(before);
      // The upstream's own state is not ours: refused as unverifiable.
      const forged = await raw2026('prompts/get', { name: 'briefing', arguments: { team: 'ops' }, inputResponses: { topic: { action: 'accept', content: { topic: 'x' } } }, requestState: 'briefing:ops' });
      expect(forged.error?.code).to.equal(-32602);
    });

    it('a v2 client completes the asking prompt through the gateway by itself (its elicitation handler)', async () => {
      const client = await v2('dual', { elicitation: {} });
      client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { topic: 'the launch' } }));
      try {
        const prompt = await client.getPrompt({ name: 'briefing', arguments: { team: 'web' } });
        expect(prompt.messages).to.deep.equal([{ role: 'user', content: { type: 'text', text: 'Brief web on the launch' } }]);
      } finally {
        await client.close();
      }
    });

    it('a 2025 caller of a 2026-only upstream\'s asking prompt is asked on its session; one that cannot answer gets elicitation_unsupported', async () => {
      const asking = await v1('modern', { elicitation: {} });
      const questions: string[] = [];
      asking.setRequestHandler(ElicitRequestSchema, async (req) => {
        questions.push(String(req.params.message));
        return { action: 'accept', content: { topic: 'billing' } };
      });
      const mute = await v1('modern');
      try {
        const prompt = await asking.getPrompt({ name: 'briefing', arguments: { team: 'ops' } });
        expect(questions).to.deep.equal(["What should ops's briefing cover?"]);
        expect(prompt.messages).to.deep.equal([{ role: 'user', content: { type: 'text', text: 'Brief ops on billing' } }]);
        const err = await mute.getPrompt({ name: 'briefing', arguments: { team: 'ops' } }).catch((e: unknown) => e);
        expect(err).to.be.instanceOf(McpError);
        expect((err as McpError).data).to.include({ code: 'elicitation_unsupported' });
      } finally {
        await asking.close();
        await mute.close();
      }
    });
  });
}
