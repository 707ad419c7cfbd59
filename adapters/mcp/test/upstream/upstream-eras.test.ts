// McpUpstreamClient in front of an upstream that speaks both eras (the v2 server SDK, 2025-11-25
// stateless and 2026-07-28): each caller is spoken its own era, over one reused connection per era,
// the probe's verdict kept (one server/discover, one initialize); a 2026 run still records the
// upstream's log messages (the level asked in _meta); subscriptions stay on the 2025 connection.
import { expect } from 'chai';
import type { UpstreamLogEntry } from '@switchyard/core';
import { McpUpstreamClient } from '../../src/index.js';
import { ModernUpstreamConnection } from '../../src/upstream/modern-upstream.js';
import { startModernUpstream, type ModernUpstream } from '../../../../test/support/modern-mcp-server.js';

const MODERN = '2026-07-28';

describe('adapter mcp: McpUpstreamClient speaks each caller its era, to an upstream of both', function () {
  let upstream: ModernUpstream;
  let client: McpUpstreamClient;
  const open = ModernUpstreamConnection.open.bind(ModernUpstreamConnection);
  let opened = 0;
  const address = () => ({ url: upstream.url, transport: 'streamable-http' as const });
  const count = (method: string) => upstream.seen.filter((s) => s.method === method).length;

  before(async () => {
    upstream = await startModernUpstream({ asking: true, bothEras: true });
    client = new McpUpstreamClient({ connectTimeoutMs: 5000 });
    // Counts the 2026 connections opened (each still opens for real).
    ModernUpstreamConnection.open = ((...args: Parameters<typeof open>) => {
      opened++;
      return open(...args);
    }) as typeof ModernUpstreamConnection.open;
  });
  after(async () => {
    ModernUpstreamConnection.open = open;
    await client.close();
    await upstream.close();
  });

  it('2026 callers over one 2026 connection, everyone else over one 2025 connection; probed once', async () => {
    const eraOf = async (callerProtocol?: string) => {
      const r = await client.callTool(address(), 'echo', { message: 'hi' }, { timeoutMs: 5000, ...(callerProtocol ? { callerProtocol } : {}) });
      return (r.structuredContent as { era: string }).era;
    };
    const modern = [await eraOf(MODERN), await eraOf(MODERN), await eraOf(MODERN)];
    const legacy = [await eraOf(), await eraOf('2025-11-25'), await eraOf()];
    const concurrent = await Promise.all([eraOf(MODERN), eraOf(), eraOf(MODERN), eraOf()]);
    expect(modern).to.deep.equal(['modern', 'modern', 'modern']);
    expect(legacy).to.deep.equal(['legacy', 'legacy', 'legacy']);
    expect(concurrent).to.deep.equal(['modern', 'legacy', 'modern', 'legacy']);
    expect([count('initialize'), count('server/discover'), opened]).to.deep.equal([1, 1, 1]);
    const calls = upstream.seen.filter((s) => s.method === 'tools/call').map((s) => s.version);
    expect(calls.filter((v) => v === MODERN)).to.have.length(5);
    expect(calls.filter((v) => v !== MODERN)).to.have.length(5);
  });

  it('a run over the 2026 connection records the upstream\'s log messages (the level asked in _meta)', async () => {
    const logs: UpstreamLogEntry[] = [];
    const r = await client.callTool(address(), 'chatty', {}, { timeoutMs: 5000, callerProtocol: MODERN, onLog: (e) => logs.push(e) });
    expect(r.text).to.equal('chatty done (modern)');
    expect(logs.map((l) => [l.level, l.data])).to.deep.equal([['info', 'chatty started'], ['debug', 'chatty details']]);
  });

  it('a 2026 caller\'s forwarded prompts/get gets the upstream\'s InputRequiredResult as it is; a 2025 caller\'s request stays on 2025', async () => {
    const asked = await client.request(address(), 'prompts/get', { name: 'briefing', arguments: { team: 'ops' } }, { timeoutMs: 5000, callerProtocol: MODERN });
    expect(asked).to.deep.include({ resultType: 'input_required', requestState: 'briefing:ops' });
    expect(Object.keys(asked['inputRequests'] as object)).to.deep.equal(['topic']);
    const answered = await client.request(address(), 'prompts/get', { name: 'briefing', arguments: { team: 'ops' }, inputResponses: { topic: { action: 'accept', content: { topic: 'the outage' } } }, requestState: 'briefing:ops' }, { timeoutMs: 5000, callerProtocol: MODERN });
    expect(answered['messages']).to.deep.equal([{ role: 'user', content: { type: 'text', text: 'Brief ops on the outage' } }]);
    const before = upstream.seen.length;
    await client.request(address(), 'prompts/list', undefined, { timeoutMs: 5000 });
    expect(upstream.seen.slice(before).map((s) => [s.method, s.version === MODERN])).to.deep.equal([['prompts/list', false]]);
    expect([count('initialize'), count('server/discover'), opened]).to.deep.equal([1, 1, 1]);
  });
});
