// The MCP server face over an in-memory transport with a fake caller port: how capabilities become
// tools, how run outcomes become tool results, and how coded errors become JSON-RPC errors.
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { SwitchyardError, type Capability, type DispatchOutcome, type InvocationStatus } from '@switchyard/core';
import { createSwitchyardMcpServer, type CallerTools } from '../../src/index.js';

const capability: Capability = {
  key: 'DEMO_ECHO',
  system: 'DEMO',
  path: ['OIP', 'DEMO', 'DEMO_ECHO'],
  description: 'Echoes its text',
  type: 'fn',
  runner: 'demo',
  bodyFormat: 'json',
  inputs: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
  auth: 'required',
  risk: 'high',
  approval: true,
  cost: { perRunMicros: 1 },
  example: { text: 'hi' },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
} as Capability;

const outcome = (status: InvocationStatus, result: unknown, error: { code: string; message: string } | null): DispatchOutcome =>
  ({ capability, invocation: { id: 'inv_demo0000000000000000', key: capability.key, status, ok: status === 'ok', result, error, yield: { tokens: { in: 1, out: 1 } } } }) as unknown as DispatchOutcome;

async function connect(tools: CallerTools): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createSwitchyardMcpServer({ tools, baseUrl: 'http://sy.test', version: '0.0.0' }).connect(serverSide);
  const client = new Client({ name: 'unit', version: '0' });
  await client.connect(clientSide);
  return client;
}

describe('adapter mcp: Switchyard MCP server face', () => {
  let next: () => Promise<DispatchOutcome>;
  const calls: [string, unknown][] = [];
  const port: CallerTools = {
    list: () => [capability],
    call: async (key, args) => {
      calls.push([key, args]);
      return next();
    },
  };

  it('lists capabilities as tools: key, a readable title (never the tree path), description with auth · risk, inputs as inputSchema', async () => {
    const { tools } = await (await connect(port)).listTools();
    expect(tools).to.have.length(1);
    expect(tools[0]).to.deep.include({ name: 'DEMO_ECHO', title: 'Demo: echo', description: 'Echoes its text [required · high · approval required]', inputSchema: capability.inputs });
    // Annotations as declared, never derived from risk.
    expect(tools[0]!.annotations).to.deep.equal({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false });
  });

  it('an ok run: the result as JSON text and structured, with the invocation id; arguments passed as they are', async () => {
    next = async () => outcome('ok', { echoed: 'hi' }, null);
    const res = await (await connect(port)).callTool({ name: 'DEMO_ECHO', arguments: { text: 'hi' } });
    expect(calls.at(-1)).to.deep.equal(['DEMO_ECHO', { text: 'hi' }]);
    expect(res.isError).to.equal(false);
    expect(res.content).to.deep.equal([{ type: 'text', text: '{"echoed":"hi"}' }]);
    expect(res.structuredContent).to.include({ ok: true, status: 'ok', invocation: 'inv_demo0000000000000000', confirm: 'http://sy.test/api/dispatch?confirm=inv_demo0000000000000000' });
  });

  it('a string result is its text as it is, never JSON-encoded a second time', async () => {
    next = async () => outcome('ok', 'Echo: "hi"', null);
    const res = await (await connect(port)).callTool({ name: 'DEMO_ECHO', arguments: { text: 'hi' } });
    expect(res.content).to.deep.equal([{ type: 'text', text: 'Echo: "hi"' }]);
  });

  it('a run of an imported tool answers its content and structuredContent unchanged, our run in _meta', async () => {
    const content = [{ type: 'text', text: '{"a": 1.0}' }, { type: 'image', data: 'iVBORw0K', mimeType: 'image/png' }];
    const run = (runner: string) => async () => {
      const o = outcome('ok', { a: 1 }, null);
      Object.assign(o.invocation, { content, structured_content: { a: 1 } });
      return { ...o, capability: { ...capability, runner } } as DispatchOutcome;
    };
    next = run('mcp:demo');
    const res = await (await connect(port)).callTool({ name: 'DEMO_ECHO', arguments: { text: 'hi' } });
    expect(res.content).to.deep.equal(content);
    expect(res.structuredContent).to.deep.equal({ a: 1 });
    expect((res._meta as Record<string, { invocation: string }>)['switchyard/run']!.invocation).to.equal('inv_demo0000000000000000');
    // Switchyard's own capability (a plugin's simulator behind it): its documented envelope.
    next = run('demo');
    const own = await (await connect(port)).callTool({ name: 'DEMO_ECHO', arguments: { text: 'hi' } });
    expect(own.structuredContent).to.include({ ok: true, invocation: 'inv_demo0000000000000000' });
    expect(own.content).to.deep.equal([{ type: 'text', text: '{"a":1}' }]);
  });

  it('a failed run is an isError result naming the error and how to repair it', async () => {
    next = async () => outcome('failed', null, { code: 'invalid_arguments', message: 'bad' });
    const res = await (await connect(port)).callTool({ name: 'DEMO_ECHO', arguments: {} });
    expect(res.isError).to.equal(true);
    expect(res.structuredContent).to.deep.include({ ok: false, status: 'failed', error: { code: 'invalid_arguments', message: 'bad' } });
    expect((res.structuredContent as { repair: { repairs: string } }).repair.repairs).to.equal('inv_demo0000000000000000');
  });

  it('a run awaiting approval is not an error: it says it waits and links the approvals', async () => {
    next = async () => outcome('awaiting_approval', null, { code: 'approval_required', message: 'wait' });
    const res = await (await connect(port)).callTool({ name: 'DEMO_ECHO', arguments: { text: 'x' } });
    expect(res.isError).to.equal(false);
    expect(res.structuredContent).to.include({ status: 'awaiting_approval', approvals: 'http://sy.test/api/approvals' });
    expect(res.structuredContent).to.not.have.property('repair');
    expect((res.content as { text: string }[])[0]!.text).to.contain('waiting for the owner');
  });

  it('coded errors before any run are JSON-RPC errors carrying our error body; other errors leak nothing', async () => {
    const client = await connect(port);
    const rpc = async (err: unknown): Promise<McpError> => {
      next = async () => {
        throw err;
      };
      try {
        await client.callTool({ name: 'DEMO_ECHO', arguments: {} });
      } catch (e) {
        return e as McpError;
      }
      throw new Error('expected a JSON-RPC error');
    };
    const unknown = await rpc(new SwitchyardError('unknown_capability', 'no capability DEMO_ECH', { did_you_mean: ['DEMO_ECHO'] }));
    expect(unknown.code).to.equal(-32602);
    expect(unknown.data).to.deep.include({ code: 'unknown_capability', did_you_mean: ['DEMO_ECHO'] });
    const denied = await rpc(new SwitchyardError('scope_denied', 'no', { needed: 'invoke:DEMO_ECHO', allowed: [] }));
    expect(denied.code).to.equal(-32003);
    const bug = await rpc(new Error('secret stack detail'));
    expect(bug.code).to.equal(-32603);
    expect(bug.message).to.not.contain('secret');
  });
});
