// Core's import of configured MCP servers (imports/upstream-imports.ts), with a scripted MCP client:
// systems are checked at construction, a failed refresh keeps the last set, runners follow the keys.
import { expect } from 'chai';
import { CapabilityRegistry, ConfiguredUpstreamImports, RunnerDirectory, SwitchyardError, type ConfiguredServer, type McpToolDescription, type UpstreamAddress, type UpstreamToolClient } from '../../src/index.js';

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

const logger = { debug: () => {}, info: () => {}, warn: () => {} };
const stdio: ConfiguredServer = { system: 'FIX', address: { url: 'stdio:fix', transport: 'stdio', command: 'node', args: ['server.js'] } };

describe('imports: configured MCP servers', () => {
  it('refuses at boot a server whose system is a plugin\'s or another server\'s, naming the key', () => {
    const registry = new CapabilityRegistry();
    registry.register({ key: 'EDGE_THING', system: 'EDGE', description: 'd', type: 'fn', runner: 'r', inputs: { type: 'object' }, auth: 'none', risk: 'low', approval: false, example: {} });
    const make = (servers: Record<string, ConfiguredServer>) => () => new ConfiguredUpstreamImports(servers, registry, new RunnerDirectory(), new ScriptedClient(), logger, 1000);
    const refusal = (servers: Record<string, ConfiguredServer>): SwitchyardError => {
      try {
        make(servers)();
      } catch (err) {
        return err as SwitchyardError;
      }
      throw new Error('not refused');
    };
    expect(refusal({ a: { ...stdio, system: 'EDGE' } }).details).to.deep.equal({ config_key: 'upstreams.servers.a.system', problem: 'EDGE is already the system of a plugin' });
    const clash = refusal({ a: stdio, b: stdio });
    expect(SwitchyardError.is(clash, 'invalid_request')).to.equal(true);
    expect(clash.message).to.equal('config upstreams.servers.b.system: FIX is already the system of upstream a');
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

});
