// The initialize a client of both eras sends before it knows the server's: it carries the
// Mcp-Method header the 2026-07-28 revision requires on every POST; nothing else is touched.
import { expect } from 'chai';
import { announcingInitialize } from '../../src/upstream/era-probe.js';

function recording(): { fetch: typeof fetch; seen: Array<Record<string, string>> } {
  const seen: Array<Record<string, string>> = [];
  const fetchFn = (async (_input: unknown, init?: RequestInit) => {
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => (headers[name] = value));
    seen.push(headers);
    return new Response('{}');
  }) as typeof fetch;
  return { fetch: fetchFn, seen };
}

describe('announcingInitialize', () => {
  it('adds Mcp-Method: initialize to an initialize POST, keeping its other headers', async () => {
    const { fetch, seen } = recording();
    const body = JSON.stringify({ method: 'initialize', params: { protocolVersion: '2025-11-25' }, jsonrpc: '2.0', id: 0 });
    await announcingInitialize(fetch)('http://upstream/mcp', { method: 'POST', body, headers: { authorization: 'Bearer t', 'content-type': 'application/json' } });
    expect(seen[0]).to.deep.equal({ authorization: 'Bearer t', 'content-type': 'application/json', 'mcp-method': 'initialize' });
  });

  it('leaves every other request as it is: other methods, a result naming "initialize", a GET', async () => {
    const { fetch, seen } = recording();
    const wrapped = announcingInitialize(fetch);
    await wrapped('http://upstream/mcp', { method: 'POST', body: JSON.stringify({ method: 'tools/call', params: { name: 'initialize' }, jsonrpc: '2.0', id: 1 }), headers: { a: '1' } });
    await wrapped('http://upstream/mcp', { method: 'POST', body: JSON.stringify({ result: { method: 'initialize' }, jsonrpc: '2.0', id: 2 }) });
    await wrapped('http://upstream/mcp', { method: 'GET' });
    expect(seen).to.deep.equal([{ a: '1' }, {}, {}]);
  });
});
