// The composition root's side of imported MCP servers (upstream-servers.ts): config's
// upstreams.servers as core's import service takes them, and a problem it finds as the ConfigError
// the start is refused with.
import { expect } from 'chai';
import { CapabilityRegistry, ConfiguredUpstreamImports, RunnerDirectory, type UpstreamToolClient } from '@switchyard/core';
import { ConfigError } from '../src/config.js';
import { configuredServers, refusingConfigProblems, upstreamAddress } from '../src/upstream-servers.js';

const stdio = { system: 'FIX', transport: 'stdio' as const, command: 'node', args: ['server.js'] };
const silent = { debug: () => {}, info: () => {}, warn: () => {} };

describe('adapter app: imported MCP servers from config', () => {
  it('addresses stdio servers by command and HTTP servers by URL with their headers', () => {
    expect(upstreamAddress('fix', { ...stdio, env: { A: '1' }, cwd: '/tmp' })).to.deep.equal({ url: 'stdio:fix', transport: 'stdio', command: 'node', args: ['server.js'], env: { A: '1' }, cwd: '/tmp' });
    expect(upstreamAddress('x', { system: 'X', transport: 'sse', url: 'http://h/sse', headers: { authorization: 'Bearer t' } })).to.deep.equal({ url: 'http://h/sse', transport: 'sse', headers: { authorization: 'Bearer t' } });
  });

  it('gives core each server with its address, tools, defaults and onChange', () => {
    expect(configuredServers({ fix: { ...stdio, tools: { one: { hidden: true } }, defaults: { auth: 'none' }, onChange: 'accept' } })).to.deep.equal({
      fix: { system: 'FIX', address: { url: 'stdio:fix', transport: 'stdio', command: 'node', args: ['server.js'] }, tools: { one: { hidden: true } }, defaults: { auth: 'none' }, onChange: 'accept' },
    });
  });

  it("refuses the start with a ConfigError naming the key when core finds a server's system taken", async () => {
    const registry = new CapabilityRegistry();
    registry.register({ key: 'EDGE_THING', system: 'EDGE', description: 'd', type: 'fn', runner: 'r', inputs: { type: 'object' }, auth: 'none', risk: 'low', approval: false, example: {} });
    const tools = {} as UpstreamToolClient;
    const refused = await refusingConfigProblems(() => new ConfiguredUpstreamImports(configuredServers({ a: { ...stdio, system: 'EDGE' } }), registry, new RunnerDirectory(), tools, silent, 1000)).catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(ConfigError);
    expect((refused as ConfigError).key).to.equal('upstreams.servers.a.system');
    expect((refused as Error).message).to.equal('config upstreams.servers.a.system: EDGE is already the system of a plugin');
    // Anything else passes through unchanged.
    const other = new Error('boom');
    expect(await refusingConfigProblems(() => { throw other; }).catch((e: unknown) => e)).to.equal(other);
  });
});
