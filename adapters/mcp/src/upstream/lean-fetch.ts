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

/**
 * What an answer from an upstream may cost: `maxMessageBytes` bounds a JSON answer's body and each
 * event of an event stream (one JSON-RPC message each), so a huge answer is read no further than
 * that. `brokenAnswerReporter` is asked when a request goes out (in the caller's async context) for
 * whom to tell when its answer breaks off: too large, or the connection closed before its end.
 */
export interface LeanFetchOptions {
  maxMessageBytes?: number;
  brokenAnswerReporter?: () => ((err: Error) => void) | undefined;
}

/** An answer past the bound: the response is destroyed, its bytes never read further. */
export class AnswerTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`the upstream's answer passed ${limit} bytes`);
  }
}

/** The connection closed before the answer ended (the upstream died or dropped it mid-call). */
export class AnswerCutOffError extends Error {
  constructor(why: string) {
    super(`the upstream closed the connection before its answer ended (${why})`);
  }
}

/**
 * Counts the bytes of each server-sent event (since the last blank line) and destroys the stream
 * with AnswerTooLargeError once one passes `limit`; an event ends at "\n\n", "\r\r" or "\r\n\r\n".
 */
function boundEvents(res: IncomingMessage, limit: number, fail: (err: Error) => void): void {
  let inEvent = 0;
  let last = -1;
  let beforeLast = -1;
  let third = -1;
  res.on('data', (chunk: Buffer) => {
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      inEvent++;
      if ((b === 10 && (last === 10 || (last === 13 && beforeLast === 10 && third === 13))) || (b === 13 && last === 13)) inEvent = 0;
      third = beforeLast;
      beforeLast = last;
      last = b;
    }
    if (inEvent > limit) fail(new AnswerTooLargeError(limit));
  });
}

export function createLeanFetch(options: LeanFetchOptions = {}): { fetch: FetchLike; close(): void } {
  const maxMessageBytes = options.maxMessageBytes ?? Infinity;
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
    const report = options.brokenAnswerReporter?.();
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
          let broken: Error | null = null;
          const fail = (err: Error) => {
            if (broken) return;
            broken = err;
            report?.(err);
            res.destroy(err);
          };
          // Closed before its end and not by us: the upstream went away mid-answer.
          res.on('close', () => {
            if (!res.complete && !broken && !init.signal?.aborted) fail(new AnswerCutOffError('connection closed'));
          });
          if ((headers.get('content-type') ?? '').includes('text/event-stream')) {
            // A stream the transport reads event by event for as long as it lives; each event bounded.
            if (maxMessageBytes !== Infinity) boundEvents(res, maxMessageBytes, fail);
            return resolve(new Response(Readable.toWeb(res) as ReadableStream<Uint8Array>, base));
          }
          const declared = Number(headers.get('content-length') ?? NaN);
          if (declared > maxMessageBytes) {
            fail(new AnswerTooLargeError(maxMessageBytes));
            return reject(broken);
          }
          const chunks: Buffer[] = [];
          let bytes = 0;
          res.on('data', (c: Buffer) => {
            bytes += c.length;
            if (bytes > maxMessageBytes) {
              chunks.length = 0;
              fail(new AnswerTooLargeError(maxMessageBytes));
              return reject(broken);
            }
            chunks.push(c);
          });
          res.on('end', () => resolve(new Response(Buffer.concat(chunks), base)));
          res.on('error', (err) => reject(broken ?? err));
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
