// The composition root's import of configured MCP servers, with a scripted MCP client: systems
// are checked at boot, a failed refresh keeps the last set, runners follow the keys.
import { expect } from 'chai';
import { CapabilityRegistry, RunnerDirectory, SwitchyardError, type McpToolDescription, type UpstreamAddress, type UpstreamToolClient } from '@switchyard/core';
import { ConfigError } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { ConfiguredUpstreamImports, upstreamAddress } from '../src/upstream-imports.js';

class ScriptedClient implements UpstreamToolClient {
  tools: McpToolDescription[] | Error = [];
  calls: Array<{ url: string; tool: string }> = [];
  async listTools(): Promise<McpToolDescription[]> {
    if (this.tools instanceof Error) throw this.tools;
    return this.tools;
  }
  async callTool(upstream: UpstreamAddress, tool: string) {
    this.calls.push({ url: upstream.url, tool });
    return { isError: false, value: tool, text: tool, content: [{ type: 'text', text: tool }] };
  }
  onToolListChanged() {
    return () => {};
  }
  async close() {}
}

const logger = createLogger('silent');
const stdio = { system: 'FIX', transport: 'stdio' as const, command: 'node', args: ['server.js'] };

describe('adapter app: imported MCP servers', () => {
  it('refuses at boot a server whose system is a plugin\'s or another server\'s, naming the key', () => {
    const registry = new CapabilityRegistry();
    registry.register({ key: 'EDGE_THING', system: 'EDGE', description: 'd', type: 'fn', runner: 'r', inputs: { type: 'object' }, auth: 'none', risk: 'low', approval: false, example: {} });
    const make = (servers: Record<string, typeof stdio>) => () => new ConfiguredUpstreamImports(servers, registry, new RunnerDirectory(), new ScriptedClient(), logger, 1000);
    expect(make({ a: { ...stdio, system: 'EDGE' } })).to.throw(ConfigError, /upstreams\.servers\.a\.system/);
    expect(make({ a: stdio, b: stdio })).to.throw(ConfigError, /upstreams\.servers\.b\.system: FIX is already the system of upstream a/);
  });

  it('imports, reassigns runners on a change, and keeps the last set when a refresh fails', async () => {
    const registry = new CapabilityRegistry();
    const runners = new RunnerDirectory();
    const client = new ScriptedClient();
    const imports = new ConfiguredUpstreamImports({ fix: stdio }, registry, runners, client, logger, 1000);
    expect(imports.list()[0]).to.include({ status: 'pending', tools: 0, address: 'stdio:fix' });
    client.tools = [{ name: 'one' }, { name: 'two' }];
    await imports.start();
    expect(registry.list().map((c) => c.key)).to.deep.equal(['FIX_ONE', 'FIX_TWO']);
    client.tools = [{ name: 'two' }, { name: 'three' }];
    expect(await imports.refresh('fix')).to.deep.equal({ ok: true, server: 'fix', system: 'FIX', added: ['FIX_THREE'], removed: ['FIX_ONE'], count: 2, simplified: [] });
    expect(() => runners.runnerFor({ key: 'FIX_ONE' } as never)).to.throw(/no runner/);
    await runners.runnerFor(registry.require('FIX_THREE').capability).run(registry.require('FIX_THREE').capability, {}, { timeoutMs: 100, invocationId: 'inv_x', actor: 'a' });
    expect(client.calls).to.deep.equal([{ url: 'stdio:fix', tool: 'three' }]);
    client.tools = new SwitchyardError('upstream_unavailable', 'gone');
    const failed = await imports.refresh('fix').catch((e: unknown) => e);
    expect(SwitchyardError.is(failed, 'upstream_unavailable')).to.equal(true);
    expect(registry.list().map((c) => c.key)).to.deep.equal(['FIX_THREE', 'FIX_TWO']);
    expect(imports.list()[0]).to.deep.include({ status: 'error', tools: 2, last_error: { code: 'upstream_unavailable', message: 'gone' } });
    const unknown = await imports.refresh('nope').catch((e: unknown) => e);
    expect(SwitchyardError.is(unknown, 'upstream_not_found')).to.equal(true);
  });

  it('addresses stdio servers by command and HTTP servers by URL with their headers', () => {
    expect(upstreamAddress('fix', { ...stdio, env: { A: '1' }, cwd: '/tmp' })).to.deep.equal({ url: 'stdio:fix', transport: 'stdio', command: 'node', args: ['server.js'], env: { A: '1' }, cwd: '/tmp' });
    expect(upstreamAddress('x', { system: 'X', transport: 'sse', url: 'http://h/sse', headers: { authorization: 'Bearer t' } })).to.deep.equal({ url: 'http://h/sse', transport: 'sse', headers: { authorization: 'Bearer t' } });
  });
});
