// A fetch for the MCP transports built on node:http with keep-alive agents. The SDK's transports
// send every JSON-RPC message as its own POST; the platform fetch spends most of a proxied call's
// CPU on its spec machinery (profiled: ~29% of the service's busy time at load). This one does the
// same exchange over plain node:http; requests it does not handle go to the platform fetch.
import { traceHeaders } from '@switchyard/telemetry';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { setMaxListeners } from 'node:events';
import { Readable } from 'node:stream';

export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/**
 * The request's headers, with the body's length when it has one: the SDK's transports send none,
 * and a chunked body costs both ends more (a write of its own per message).
 */
function headerObject(headers: RequestInit['headers'], body: string | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(headers).forEach((value, name) => {
    out[name] = value;
  });
  // With traces on, the request carries the active span's traceparent (the tool call's, when it is one).
  Object.assign(out, traceHeaders());
  if (typeof body === 'string' && out['content-length'] === undefined && out['transfer-encoding'] === undefined) out['content-length'] = String(Buffer.byteLength(body));
  return out;
}

function responseHeaders(res: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = res.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  return headers;
}

export function createLeanFetch(): { fetch: FetchLike; close(): void } {
  const agents = { http: new HttpAgent({ keepAlive: true, maxSockets: 256 }), https: new HttpsAgent({ keepAlive: true, maxSockets: 256 }) };

  // The transports pass one long-lived signal with every request; each request in flight holds a
  // listener on it until it ends, so concurrency (not a leak) is what raises the count.
  const raised = new WeakSet<AbortSignal>();

  const leanFetch: FetchLike = (input, init = {}) => {
    const body = init.body;
    if (input instanceof Request || (body !== undefined && body !== null && typeof body !== 'string')) return fetch(input, init);
    const url = new URL(String(input));
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return fetch(input, init);
    const method = (init.method ?? 'GET').toUpperCase();
    const isHttps = url.protocol === 'https:';
    if (init.signal && !raised.has(init.signal)) {
      setMaxListeners(10_000, init.signal);
      raised.add(init.signal);
    }
    return new Promise<Response>((resolve, reject) => {
      const req = (isHttps ? httpsRequest : httpRequest)(
        url,
        { method, headers: headerObject(init.headers, body), agent: isHttps ? agents.https : agents.http, ...(init.signal ? { signal: init.signal } : {}) },
        (res) => {
          const status = res.statusCode ?? 0;
          const headers = responseHeaders(res);
          const base = { status, statusText: res.statusMessage ?? '', headers };
          if (NULL_BODY_STATUSES.has(status) || method === 'HEAD') {
            res.resume();
            return resolve(new Response(null, base));
          }
          if ((headers.get('content-type') ?? '').includes('text/event-stream')) {
            // A stream the transport reads event by event for as long as it lives.
            return resolve(new Response(Readable.toWeb(res) as ReadableStream<Uint8Array>, base));
          }
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve(new Response(Buffer.concat(chunks), base)));
          res.on('error', reject);
        },
      );
      req.on('error', (err: NodeJS.ErrnoException & { unsent?: boolean }) => {
        // A kept-alive socket the server had already closed: the request never reached it, and
        // Node's own advice is to send it again. Marked so the MCP client can tell.
        if (req.reusedSocket && err.code === 'ECONNRESET') err.unsent = true;
        reject(err);
      });
      req.end(body ?? undefined);
    });
  };

  return {
    fetch: leanFetch,
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
