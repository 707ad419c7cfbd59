// The lean tools/call answers byte for byte what the SDK server it stands in for answers, over the
// one-request transport the HTTP faces use: results, isError results, coded and uncoded errors, a
// result the SDK's schema refuses, and the names of a virtual server; and it declines the calls the
// server must answer (progress, a log level, a caller that may be asked, a task).
import { expect } from 'chai';
import type { JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { SwitchyardError, type Capability, type DispatchOutcome } from '@switchyard/core';
import { CallerExchange, OneRequestTransport, leanToolCall, switchyardFace, virtualFace, type CallerTools, type ServerFace } from '../../src/index.js';

const capability = {
  key: 'DEMO_ECHO',
  system: 'DEMO',
  path: ['OIP', 'DEMO', 'DEMO_ECHO'],
  description: 'Echoes its text',
  type: 'tool',
  runner: 'mcp:demo',
  tool: 'echo',
  bodyFormat: 'json',
  inputs: { type: 'object' },
  auth: 'none',
  risk: 'low',
  approval: false,
  cost: { perRunMicros: 1 },
} as unknown as Capability;

const invocation = (fields: Record<string, unknown>) => ({ id: 'inv_demo0000000000000000', key: capability.key, status: 'ok', ok: true, result: { a: 1 }, error: null, yield: { tokens: { in: 1, out: 1 } }, ...fields });

/** Each way a call can end, as the caller's port gives it. */
const endings: Record<string, () => Promise<DispatchOutcome>> = {
  ok: async () => ({ capability: { ...capability, runner: 'demo' }, invocation: invocation({}) }) as unknown as DispatchOutcome,
  imported: async () => ({ capability, invocation: invocation({ content: [{ type: 'text', text: 'hi' }], structured_content: { a: 1 } }) }) as unknown as DispatchOutcome,
  failed: async () => ({ capability, invocation: invocation({ status: 'failed', ok: false, result: null, error: { code: 'tool_error', message: 'no' } }) }) as unknown as DispatchOutcome,
  // Content the protocol's schema refuses: the SDK answers -32602 after the run.
  'bad content': async () => ({ capability, invocation: invocation({ content: [{ type: 'nonsense' }] }) }) as unknown as DispatchOutcome,
  coded: async () => {
    throw new SwitchyardError('scope_denied', 'not yours', { key: capability.key });
  },
  uncoded: async () => {
    throw new Error('a bug');
  },
};

/** What each ending is on the wire. */
const expected: Record<string, Record<string, unknown>> = {
  ok: { 'result.isError': false, 'result.structuredContent.ok': true },
  imported: { 'result.isError': false, 'result.content[0].text': 'hi' },
  failed: { 'result.isError': true, 'result.structuredContent.status': 'failed' },
  'bad content': { 'error.code': -32602 },
  coded: { 'error.code': -32003, 'error.data.code': 'scope_denied' },
  uncoded: { 'error.code': -32603 },
};

async function viaServer(face: ServerFace, request: JSONRPCRequest): Promise<string> {
  const transport = new OneRequestTransport();
  await face.create().connect(transport);
  return JSON.stringify(await transport.answer(request, {}));
}

async function viaLean(face: ServerFace, request: JSONRPCRequest): Promise<string> {
  const lean = leanToolCall(face.options, request);
  expect(lean, 'taken the lean way').to.not.equal(null);
  return JSON.stringify(await lean!(new AbortController().signal));
}

describe('adapter mcp: lean tools/call', () => {
  let ending = endings['ok']!;
  const received: unknown[] = [];
  const tools: CallerTools = {
    list: () => [capability],
    call: async (key, args, _live, idempotencyKey) => {
      received.push({ key, args, idempotencyKey });
      return ending();
    },
  };
  const faces: Record<string, ServerFace> = {
    '/mcp': switchyardFace({ tools, baseUrl: 'http://sy.test', version: '0.0.0' }),
    '/mcp/servers/demo': virtualFace({ tools, baseUrl: 'http://sy.test', version: '0.0.0', name: 'demo', nameOf: (c) => c.tool ?? c.key }),
  };
  const call = (name: string, id: number): JSONRPCRequest => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: { text: 'hi' }, _meta: { 'io.switchyard/idempotency-key': 'k1' } } });

  for (const [faceName, face] of Object.entries(faces)) {
    const tool = faceName === '/mcp' ? 'DEMO_ECHO' : 'echo';
    for (const [name, end] of Object.entries(endings)) {
      it(`${faceName}: ${name} answers as the server does`, async () => {
        ending = end;
        received.length = 0;
        const lean = await viaLean(face, call(tool, 7));
        const server = await viaServer(face, call(tool, 7));
        expect(lean).to.equal(server);
        expect(JSON.parse(lean)).to.nested.include(expected[name]!);
        // The same run was asked for both ways: the registered key, the arguments and the idempotency key.
        expect(received).to.deep.equal([{ key: 'DEMO_ECHO', args: { text: 'hi' }, idempotencyKey: 'k1' }, { key: 'DEMO_ECHO', args: { text: 'hi' }, idempotencyKey: 'k1' }]);
      });
    }
  }

  it('an unknown tool on a virtual server: the same -32602 naming the tools offered', async () => {
    const face = faces['/mcp/servers/demo']!;
    const lean = await viaLean(face, call('nope', 3));
    expect(lean).to.equal(await viaServer(face, call('nope', 3)));
    expect(JSON.parse(lean)).to.nested.include({ 'error.code': -32602, 'error.data.code': 'unknown_capability', 'error.data.tools[0]': 'echo' });
  });

  it('answers nothing for a call withdrawn while it ran, as the server sends nothing', async () => {
    const controller = new AbortController();
    ending = async () => {
      controller.abort();
      return endings['ok']!();
    };
    expect(await leanToolCall(faces['/mcp']!.options, call('DEMO_ECHO', 1))!(controller.signal)).to.equal(undefined);
  });

  it('declines what the server must answer: progress, a log level, a caller that may be asked, a task, other methods', () => {
    const options = faces['/mcp']!.options;
    const withParams = (params: Record<string, unknown>): JSONRPCRequest => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'DEMO_ECHO', ...params } });
    expect(leanToolCall(options, withParams({ _meta: { progressToken: 1 } }))).to.equal(null);
    expect(leanToolCall(options, withParams({ task: { ttl: 1000 } }))).to.equal(null);
    expect(leanToolCall(options, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).to.equal(null);
    expect(leanToolCall({ ...options, logging: { level: 'info', setLevel: () => {} } }, withParams({}))).to.equal(null);
    const exchange = new CallerExchange();
    expect(leanToolCall({ ...options, exchange, session: { id: 's', capabilities: { elicitation: true, sampling: false } } }, withParams({}))).to.equal(null);
    // A name that is not a string: the server's own error, not ours.
    expect(leanToolCall(options, withParams({ name: 5 }))).to.equal(null);
    expect(leanToolCall(options, withParams({}))).to.not.equal(null);
  });
});
