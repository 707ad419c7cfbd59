// McpUpstreamClient against real MCP servers on loopback, over both transports: connection reuse,
// tool errors, an upstream that is down, one that hangs, and one that restarts.
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SwitchyardError } from '@switchyard/core';
import { McpUpstreamClient, hostMcpServer, type HostedMcpServer } from '../../src/index.js';

function testServerFactory(counter: { sessions: number }) {
  return () => {
    counter.sessions++;
    const server = new McpServer({ name: 'test-upstream', version: '1.0.0' });
    server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({
      content: [{ type: 'text', text: JSON.stringify({ echoed: text }) }],
      structuredContent: { echoed: text },
    }));
    server.registerTool('plain', { inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text: `plain ${text}` }] }));
    server.registerTool('fails', {}, async () => ({ isError: true, content: [{ type: 'text', text: 'plan_required: upgrade' }] }));
    server.registerTool('slow', {}, async () => {
      await new Promise((r) => setTimeout(r, 2000));
      return { content: [{ type: 'text', text: 'late' }] };
    });
    return server;
  };
}

const freePort = async (): Promise<number> => {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
};

for (const transport of ['sse', 'streamable-http'] as const) {
  describe(`adapter mcp: McpUpstreamClient over ${transport}`, function () {
    const counter = { sessions: 0 };
    let hosted: HostedMcpServer;
    let client: McpUpstreamClient;
    const path = transport === 'sse' ? '/sse' : '/v4/mcp';

    before(async () => {
      hosted = await hostMcpServer({ host: '127.0.0.1', port: 0, transport, path, createServer: testServerFactory(counter) });
      client = new McpUpstreamClient({ connectTimeoutMs: 1000 });
    });
    after(async () => {
      await client.close();
      await hosted.close();
    });

    it('reuses one connection for many calls, including concurrent ones', async () => {
      const upstream = { url: hosted.url, transport };
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => client.callTool(upstream, 'echo', { text: `n${i}` }, { timeoutMs: 2000 })));
      for (let i = 0; i < 3; i++) await client.callTool(upstream, 'echo', { text: 'again' }, { timeoutMs: 2000 });
      expect(results.map((r) => (r.value as { echoed: string }).echoed)).to.deep.equal(Array.from({ length: 20 }, (_, i) => `n${i}`));
      expect(counter.sessions).to.equal(1);
    });

    it('parses JSON-less text content as text, and keeps the content blocks as sent', async () => {
      const r = await client.callTool({ url: hosted.url, transport }, 'plain', { text: 'x' }, { timeoutMs: 2000 });
      expect(r).to.deep.equal({ isError: false, value: 'plain x', text: 'plain x', content: [{ type: 'text', text: 'plain x' }] });
    });

    it('passes tool errors back as isError results, not exceptions', async () => {
      const r = await client.callTool({ url: hosted.url, transport }, 'fails', {}, { timeoutMs: 2000 });
      expect(r.isError).to.equal(true);
      expect(r.text).to.equal('plan_required: upgrade');
      const unknown = await client.callTool({ url: hosted.url, transport }, 'no_such_tool', {}, { timeoutMs: 2000 });
      expect(unknown.isError).to.equal(true);
    });

    it('gives upstream_timeout when a call is slower than its timeout, and the connection stays usable', async () => {
      try {
        await client.callTool({ url: hosted.url, transport }, 'slow', {}, { timeoutMs: 100 });
        expect.fail('should time out');
      } catch (err) {
        expect(SwitchyardError.is(err, 'upstream_timeout'), String(err)).to.equal(true);
      }
      const r = await client.callTool({ url: hosted.url, transport }, 'echo', { text: 'still here' }, { timeoutMs: 2000 });
      expect((r.value as { echoed: string }).echoed).to.equal('still here');
    });

    it('gives upstream_unavailable when nothing listens', async () => {
      const port = await freePort();
      try {
        await client.callTool({ url: `http://127.0.0.1:${port}${path}`, transport }, 'echo', { text: 'x' }, { timeoutMs: 1000 });
        expect.fail('should fail');
      } catch (err) {
        expect(SwitchyardError.is(err, 'upstream_unavailable'), String(err)).to.equal(true);
      }
    });

    it('gives upstream_timeout when the upstream accepts but never answers the handshake', async () => {
      const sockets = new Set<import('node:net').Socket>();
      const blackHole: Server = createServer(() => {});
      blackHole.on('connection', (s) => sockets.add(s));
      await new Promise<void>((r) => blackHole.listen(0, '127.0.0.1', () => r()));
      const { port } = blackHole.address() as AddressInfo;
      const quick = new McpUpstreamClient({ connectTimeoutMs: 300 });
      try {
        await quick.callTool({ url: `http://127.0.0.1:${port}${path}`, transport }, 'echo', { text: 'x' }, { timeoutMs: 300 });
        expect.fail('should fail');
      } catch (err) {
        expect(SwitchyardError.is(err, 'upstream_timeout'), String(err)).to.equal(true);
      } finally {
        await quick.close();
        for (const s of sockets) s.destroy();
        await new Promise<void>((r) => blackHole.close(() => r()));
      }
    });

    it('reconnects after the upstream restarts on the same port', async () => {
      const port = await freePort();
      const restartCounter = { sessions: 0 };
      const upstream = { url: `http://127.0.0.1:${port}${path}`, transport };
      let server = await hostMcpServer({ host: '127.0.0.1', port, transport, path, createServer: testServerFactory(restartCounter) });
      expect((await client.callTool(upstream, 'echo', { text: 'one' }, { timeoutMs: 2000 })).value).to.deep.equal({ echoed: 'one' });
      await server.close();
      try {
        await client.callTool(upstream, 'echo', { text: 'down' }, { timeoutMs: 1000 });
        expect.fail('should fail while down');
      } catch (err) {
        expect(SwitchyardError.is(err, 'upstream_unavailable') || SwitchyardError.is(err, 'upstream_timeout'), String(err)).to.equal(true);
      }
      server = await hostMcpServer({ host: '127.0.0.1', port, transport, path, createServer: testServerFactory(restartCounter) });
      try {
        expect((await client.callTool(upstream, 'echo', { text: 'two' }, { timeoutMs: 2000 })).value).to.deep.equal({ echoed: 'two' });
        expect(restartCounter.sessions).to.equal(2);
      } finally {
        await server.close();
      }
    });
  });
}

describe('adapter mcp: McpUpstreamClient over stdio', function () {
  this.timeout(30_000);
  // The listing fixture: tools from TOOLS_FILE, two per page; each call answers its own pid.
  const fixture = new URL('../../../../test/support/listing-mcp-server.mjs', import.meta.url).pathname;
  let dir: string;
  let toolsFile: string;
  let client: McpUpstreamClient;
  const upstream = () => ({ url: 'stdio:listing', transport: 'stdio' as const, command: process.execPath, args: [fixture], env: { TOOLS_FILE: toolsFile } });
  const pidOf = async (): Promise<number> => {
    const r = await client.callTool(upstream(), 'alpha', { text: 'x' }, { timeoutMs: 5000 });
    return (r.value as { pid: number }).pid;
  };

  before(async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    dir = mkdtempSync(`${tmpdir()}/sy-stdio-`);
    toolsFile = `${dir}/tools.json`;
    writeFileSync(toolsFile, JSON.stringify(['alpha', 'beta', 'gamma', 'delta', 'epsilon']));
  });
  beforeEach(() => {
    client = new McpUpstreamClient({ connectTimeoutMs: 5000 });
  });
  afterEach(async () => client.close());
  after(async () => (await import('node:fs')).rmSync(dir, { recursive: true, force: true }));

  it('lists every page of tools/list', async () => {
    const tools = await client.listTools(upstream(), { timeoutMs: 5000 });
    expect(tools.map((t) => t.name)).to.deep.equal(['alpha', 'beta', 'gamma', 'delta', 'epsilon']);
    expect(tools[0]!.inputSchema).to.deep.include({ type: 'object', required: ['text'] });
  });

  it('starts the program once and reuses it; starts it again after it exits', async () => {
    const first = await pidOf();
    expect(await pidOf()).to.equal(first);
    process.kill(first, 'SIGKILL');
    for (let i = 0; i < 100; i++) {
      try {
        process.kill(first, 0);
        await new Promise((r) => setTimeout(r, 20));
      } catch {
        break;
      }
    }
    const second = await pidOf();
    expect(second).to.not.equal(first);
  });

  it('refuses an answer past maxResultBytes as upstream_answer_too_large (weighed once it has arrived), and keeps the program', async () => {
    const small = new McpUpstreamClient({ connectTimeoutMs: 5000, maxResultBytes: 1024 });
    try {
      const fits = await small.callTool(upstream(), 'alpha', { text: 'x'.repeat(100) }, { timeoutMs: 5000 });
      const err = await small.callTool(upstream(), 'alpha', { text: 'x'.repeat(2000) }, { timeoutMs: 5000 }).catch((e: unknown) => e);
      expect(SwitchyardError.is(err, 'upstream_answer_too_large'), String(err)).to.equal(true);
      expect((err as SwitchyardError).details).to.include({ max_bytes: 1024, tool: 'alpha' });
      const again = await small.callTool(upstream(), 'alpha', { text: 'y' }, { timeoutMs: 5000 });
      expect((again.value as { pid: number }).pid).to.equal((fits.value as { pid: number }).pid);
    } finally {
      await small.close();
    }
  });

  it('stops the program on close', async () => {
    const pid = await pidOf();
    await client.close();
    await new Promise((r) => setTimeout(r, 300));
    expect(() => process.kill(pid, 0)).to.throw();
  });

  it('answers upstream_unavailable, with what the program said, when it will not start', async () => {
    const broken = { url: 'stdio:broken', transport: 'stdio' as const, command: process.execPath, args: ['-e', 'console.error("no config here"); process.exit(3)'] };
    const err = await client.listTools(broken, { timeoutMs: 2000 }).catch((e: unknown) => e);
    expect(SwitchyardError.is(err, 'upstream_unavailable'), String(err)).to.equal(true);
    expect((err as Error).message).to.contain('no config here');
  });
});
