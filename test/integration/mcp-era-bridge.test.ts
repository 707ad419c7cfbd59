// The MCP eras bridged (issue 26 item 2), on each engine. A 2025 upstream (server-everything over
// streamable HTTP) asks its caller mid-call (elicitation/create, sampling/createMessage); a
// 2026-07-28 caller gets InputRequiredResult with a requestState we mint, retries with the answers,
// and the paused upstream call completes: one invocation. A tampered, foreign-credential, other-call
// or replayed requestState is -32602 and runs nothing.
import { expect } from 'chai';
import request from 'supertest';
import { opensCommitment } from '@switchyard/core';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';
import { startEverythingHttp, type EverythingHttp } from '../support/everything-server.js';

const OPEN = { auth: 'none', risk: 'low', approval: false };
const ELICIT = 'EVERYTHING_TRIGGER_ELICITATION_REQUEST';
const SAMPLE = 'EVERYTHING_TRIGGER_SAMPLING_REQUEST';
const PIN = { mode: { pin: '2026-07-28' } };
const envelope = (capabilities: Record<string, unknown>) => ({ 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' }, 'io.modelcontextprotocol/clientCapabilities': capabilities });
const modern = (name: string) => ({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name });
type RpcAnswer = { id: unknown; error?: { code: number; message: string; data?: Record<string, unknown> }; result?: Record<string, any> };
const textOf = (r: CallToolResult) => (r.content as Array<{ text?: string }>).map((b) => b.text ?? '').join('\n');

for (const engine of engines()) {
  describe(`the MCP eras bridged: a 2025 upstream's questions reach a 2026-07-28 caller (${engine})`, function () {
    this.timeout(60_000);
    let everything: EverythingHttp;
    let svc: ListeningService;
    const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);
    const runs = async (key: string) => (await owner(request(svc.url).get(`/api/invocations?object_id=${key}`)).expect(200)).body.items as Array<{ id: string; ok: boolean; status: string; rounds?: Array<{ kind: string; asked_at: string; answered_at: string | null }> }>;
    const post = async (params: Record<string, unknown>, headers: Record<string, string> = { 'x-sheets-key': TEST_API_KEY }): Promise<RpcAnswer> => {
      const res = await fetch(`${svc.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...modern(params['name'] as string), ...headers }, body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params }) });
      expect(res.status, `HTTP ${res.status}`).to.not.equal(500);
      return (await res.json()) as RpcAnswer;
    };
    const v2Client = async (capabilities: Record<string, unknown>): Promise<Client> => {
      const client = new Client({ name: 'v2-bridge', version: '0.0.0' }, { capabilities, versionNegotiation: PIN });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { requestInit: { headers: { 'x-sheets-key': TEST_API_KEY } } }));
      return client;
    };

    before(async () => {
      everything = await startEverythingHttp();
      svc = await startListeningService(engine, { upstreams: { connectTimeoutMs: 20_000, servers: { everything: { system: 'EVERYTHING', transport: 'streamable-http', url: everything.url, defaults: OPEN } } } });
    });
    after(async () => {
      await svc?.close();
      await everything?.stop();
    });

    it('a v2 client pinned to 2026-07-28 answers the elicitation: one ok invocation with the answer in it', async () => {
      const before = (await runs(ELICIT)).length;
      const client = await v2Client({ elicitation: {} });
      const asked: Array<Record<string, unknown>> = [];
      client.setRequestHandler('elicitation/create', async (req) => {
        asked.push(req.params as Record<string, unknown>);
        return { action: 'accept', content: { name: 'Ada Lovelace', check: true } };
      });
      try {
        const result = (await client.callTool({ name: ELICIT, arguments: {} })) as CallToolResult;
        expect(asked).to.have.length(1);
        expect(asked[0]).to.have.property('message').that.contains('Please provide inputs');
        expect(result.isError ?? false).to.equal(false);
        expect(textOf(result)).to.contain('Name: Ada Lovelace');
      } finally {
        await client.close();
      }
      const after = await runs(ELICIT);
      expect(after.length).to.equal(before + 1);
      expect(after[0]).to.include({ ok: true, status: 'ok' });
      // One round, recorded with the run: its kind and times, never the answer.
      expect(after[0]!.rounds).to.have.length(1);
      expect(after[0]!.rounds![0]!.kind).to.equal('elicitation');
      expect(Date.parse(after[0]!.rounds![0]!.answered_at!)).to.be.at.least(Date.parse(after[0]!.rounds![0]!.asked_at));
      expect(JSON.stringify(after[0]!.rounds)).to.not.contain('Ada');
      // The rounds are committed to in the run's leaf: its receipt opens them.
      const id = after[0]!.id;
      for (let i = 0; i < 100 && (await request(svc.url).get(`/api/dispatch?confirm=${id}`).expect(200)).body.status !== 'integrated'; i++) await new Promise((r) => setTimeout(r, 50));
      const receipt = (await owner(request(svc.url).get(`/api/dispatch?receipt=${id}`)).expect(200)).body;
      expect(receipt.opening.private.rounds).to.deep.equal(after[0]!.rounds);
      expect(opensCommitment(receipt.proof.leaf_text, receipt.opening.salt, receipt.opening.private)).to.equal(true);
      expect(opensCommitment(receipt.proof.leaf_text, receipt.opening.salt, { ...receipt.opening.private, rounds: [] })).to.equal(false);
    });

    it('a v2 client pinned to 2026-07-28 answers the sampling request', async () => {
      const client = await v2Client({ sampling: {} });
      client.setRequestHandler('sampling/createMessage', async () => ({ role: 'assistant', content: { type: 'text', text: 'sampled by the 2026 caller' }, model: 'test-model' }));
      try {
        const result = (await client.callTool({ name: SAMPLE, arguments: { prompt: 'hi', maxTokens: 5 } })) as CallToolResult;
        expect(result.isError ?? false, JSON.stringify(result)).to.equal(false);
        expect(textOf(result)).to.contain('sampled by the 2026 caller');
      } finally {
        await client.close();
      }
    });

    it('a 2026 caller that declared neither: the run fails elicitation_unsupported, as on the 2025 faces', async () => {
      const { result } = await post({ name: ELICIT, arguments: {}, _meta: envelope({}) });
      expect(result?.['isError']).to.equal(true);
      expect(result?.['_meta']['switchyard/run']).to.deep.include({ ok: false, status: 'failed' });
      expect(result?.['_meta']['switchyard/run'].error.code).to.equal('elicitation_unsupported');
    });

    it('by hand: InputRequiredResult and a sealed requestState; tampered, another credential, another call and a replay are -32602 and run nothing', async () => {
      const before = (await runs(ELICIT)).length;
      const first = await post({ name: ELICIT, arguments: {}, _meta: envelope({ elicitation: {} }) });
      const asked = first.result!;
      expect(asked, JSON.stringify(first)).to.include({ resultType: 'input_required' });
      const [key, question] = Object.entries(asked['inputRequests'] as Record<string, { method: string; params: { message: string } }>)[0]!;
      expect(question.method).to.equal('elicitation/create');
      expect(question.params.message).to.contain('Please provide inputs');
      const state = asked['requestState'] as string;
      expect(state).to.be.a('string');
      const answers = { [key]: { action: 'accept', content: { name: 'Grace Hopper' } } };
      const retry = (requestState: string, args: Record<string, unknown> = {}) => ({ name: ELICIT, arguments: args, requestState, inputResponses: answers, _meta: envelope({ elicitation: {} }) });

      const [version, body, mac] = state.split('.');
      const claims = JSON.parse(Buffer.from(body!, 'base64url').toString('utf8'));
      const tampered = `${version}.${Buffer.from(JSON.stringify({ ...claims, round: claims.round + 1 })).toString('base64url')}.${mac}`;
      const token = (await request(svc.url).get('/start').expect(200)).body.token as string;
      const refusals = [
        await post(retry(tampered)),
        await post(retry(`${state.slice(0, -2)}AA`)),
        await post(retry(state), { authorization: `Bearer ${token}` }),
        await post(retry(state, { other: 'call' })),
      ];
      for (const refused of refusals) {
        expect(refused.error?.code, JSON.stringify(refused)).to.equal(-32602);
        expect(refused.error!.data).to.deep.include({ reason: 'invalid_request_state' });
      }
      expect(refusals[3]!.error!.message).to.contain('another tool call');

      const done = await post(retry(state));
      expect(done.result, JSON.stringify(done)).to.not.have.property('resultType', 'input_required');
      expect(done.result!['isError'] ?? false).to.equal(false);
      expect(JSON.stringify(done.result!['content'])).to.contain('Grace Hopper');
      const replayed = await post(retry(state));
      expect(replayed.error?.code, JSON.stringify(replayed)).to.equal(-32602);
      expect(replayed.error!.message).to.contain('answered already');
      const after = await runs(ELICIT);
      expect(after.length).to.equal(before + 1);
      expect(after[0]).to.include({ ok: true, status: 'ok' });
    });

    it('a retry without the answers is asked again (same questions, a new requestState), then completes', async () => {
      const first = (await post({ name: ELICIT, arguments: {}, _meta: envelope({ elicitation: {} }) })).result!;
      const key = Object.keys(first['inputRequests'])[0]!;
      const again = (await post({ name: ELICIT, arguments: {}, requestState: first['requestState'], inputResponses: {}, _meta: envelope({ elicitation: {} }) })).result!;
      expect(again).to.include({ resultType: 'input_required' });
      expect(Object.keys(again['inputRequests'])).to.deep.equal([key]);
      const done = await post({ name: ELICIT, arguments: {}, requestState: again['requestState'], inputResponses: { [key]: { action: 'decline' } }, _meta: envelope({ elicitation: {} }) });
      expect(done.result, JSON.stringify(done)).to.have.property('content');
      expect(JSON.stringify(done.result!['content'])).to.match(/declin/i);
    });
  });
}
