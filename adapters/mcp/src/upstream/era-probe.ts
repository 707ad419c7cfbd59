// Which era an upstream over streamable HTTP speaks, found as the 2026-07-28 revision says a client
// that speaks both finds it (basic/transports/streamable-http, Backward Compatibility): a modern
// request first, server/discover with the per-request envelope and headers; a recognized modern
// answer (a discover result naming 2026-07-28, or one of the revision's own errors) means modern,
// anything else legacy (initialize). One small request per connection, and it runs nothing.
import { randomBytes } from 'node:crypto';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { MODERN_PROTOCOL_VERSION as MODERN_VERSION } from '../eras.js';

/** The revision's own error codes: only a 2026-era server answers with them. */
const MODERN_ERRORS = new Set([-32020, -32021, -32022]);

/** The probe had no answer in time: over HTTP that is an outage, not a sign of a legacy server. */
export class ProbeTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no answer to server/discover within ${timeoutMs} ms`);
  }
}

export type EraVerdict =
  /**
   * Speaks 2026-07-28; `discover` when the probe's own answer can be adopted as it is; `only` when
   * the server listed the versions it speaks (-32022's data.supported) and none is a 2025 one. A
   * discover result lists 2026-era versions only, so it cannot say whether initialize works too.
   */
  | { era: 'modern'; discover?: Record<string, unknown>; only: boolean }
  | { era: 'legacy' };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The JSON-RPC message of a JSON or SSE answer whose id is `id`, if any. */
function messageOf(text: string, contentType: string, id: string): Record<string, unknown> | undefined {
  const candidates = contentType.includes('text/event-stream')
    ? text.split(/\r?\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim())
    : [text];
  for (const candidate of candidates) {
    try {
      const parsed = JSON.parse(candidate) as unknown;
      if (isObject(parsed) && (parsed['id'] === id || parsed['id'] === null)) return parsed;
    } catch {
      // Not JSON: not a modern answer.
    }
  }
  return undefined;
}

/**
 * Sends server/discover as a 2026-07-28 client does (MCP-Protocol-Version and Mcp-Method headers,
 * the _meta envelope with our client info and capabilities). No answer in time is thrown as
 * ProbeTimeoutError; any other network failure as it came.
 */
export async function probeEra(url: URL, fetchFn: typeof fetch, headers: Record<string, string> | undefined, clientInfo: { name: string; version: string }, capabilities: Record<string, unknown>, timeoutMs: number): Promise<EraVerdict> {
  const id = `probe-${randomBytes(6).toString('hex')}`;
  const body = {
    jsonrpc: '2.0',
    id,
    method: 'server/discover',
    params: { _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN_VERSION, 'io.modelcontextprotocol/clientInfo': clientInfo, 'io.modelcontextprotocol/clientCapabilities': capabilities } },
  };
  const signal = AbortSignal.timeout(timeoutMs);
  let answer: Response;
  let text: string;
  try {
    answer = await fetchFn(url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN_VERSION, 'mcp-method': 'server/discover' },
      body: JSON.stringify(body),
      signal,
    });
    text = await answer.text();
  } catch (err) {
    if (signal.aborted) throw new ProbeTimeoutError(timeoutMs);
    throw err;
  }
  const message = messageOf(text, answer.headers.get('content-type') ?? '', id);
  const result = message?.['result'];
  if (answer.ok && isObject(result) && Array.isArray(result['supportedVersions'])) {
    return (result['supportedVersions'] as unknown[]).includes(MODERN_VERSION) ? { era: 'modern', discover: result, only: false } : { era: 'legacy' };
  }
  const error = message?.['error'];
  if (isObject(error) && MODERN_ERRORS.has(error['code'] as number)) {
    // An unsupported-version answer that does not offer 2026-07-28 leaves the legacy versions.
    const supported = isObject(error['data']) && Array.isArray(error['data']['supported']) ? (error['data']['supported'] as unknown[]) : undefined;
    if (error['code'] === -32022 && supported && !supported.includes(MODERN_VERSION)) return { era: 'legacy' };
    return { era: 'modern', only: supported !== undefined && !supported.some((v) => SUPPORTED_PROTOCOL_VERSIONS.includes(v as string)) };
  }
  return { era: 'legacy' };
}

/**
 * A fetch that adds `Mcp-Method: initialize` to an initialize POST: the one request a client of both
 * eras sends before it knows the server's (when the probe could not tell). The 2026-07-28 revision
 * requires the header on every POST, and a server of that revision checks it; a 2025 server ignores
 * it. (The SDK writes a request's method first, so the body's start tells.)
 */
export function announcingInitialize(fetchFn: typeof fetch): typeof fetch {
  return (input, init) => {
    const body = init?.body;
    if (typeof body !== 'string' || !body.startsWith('{"method":"initialize"')) return fetchFn(input, init);
    const headers = new Headers(init!.headers);
    headers.set('mcp-method', 'initialize');
    return fetchFn(input, { ...init, headers });
  };
}
