// One MCP request answered by an SDK server. A single JSON-RPC request answered as JSON (the common
// case) goes through a one-request transport (OneRequestTransport) and is written straight back;
// everything else (batches, notifications and answers, initialize, streamed answers, and any
// request the SDK's transport would refuse) goes to the SDK's web-standard streamable HTTP
// transport, with the Node ↔ web conversion kept to what that transport reads (method, URL,
// headers) and what it answers (status, headers, a body or a stream).
import { Readable } from 'node:stream';
import type { Request, Response } from 'express';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import { JSONRPCRequestSchema, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { createMcpHandler, Server as ModernServerClass, type Server as ModernServer } from '@modelcontextprotocol/server';
import { OneRequestTransport, leanToolCall, type LeanCall, type ServerFace } from '@switchyard/mcp';

/** The parts of a fetch Request the transport reads; the body is passed parsed. */
function webRequestOf(req: Request): globalThis.Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  return { method: req.method, url: `${req.protocol}://${req.get('host') ?? 'localhost'}${req.originalUrl}`, headers } as unknown as globalThis.Request;
}

/** The request headers as the SDK hands them to handlers (names in lower case, repeats joined). */
function headerRecord(req: Request): Record<string, string> {
  const headers: Record<string, string> = {};
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    headers[name] = headers[name] === undefined ? raw[i + 1]! : `${headers[name]}, ${raw[i + 1]!}`;
  }
  return headers;
}

/**
 * The body as the one request a one-request transport can answer, or null: only when the SDK's
 * transport would take it as it is (both media types accepted, a JSON body, a supported protocol
 * version, a valid JSON-RPC request that is not initialize), so every refusal stays the SDK's own.
 */
function singleRequest(req: Request, headers: Record<string, string>): JSONRPCRequest | null {
  const body = req.body as unknown;
  if (typeof body !== 'object' || body === null || Array.isArray(body) || (body as { method?: unknown }).method === 'initialize') return null;
  const accept = headers['accept'];
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) return null;
  if (!isJsonContentType(headers['content-type'])) return null;
  const version = headers['mcp-protocol-version'];
  if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return null;
  const parsed = JSONRPCRequestSchema.safeParse(body);
  return parsed.success ? (parsed.data as JSONRPCRequest) : null;
}

/**
 * Stateless: a fresh server and transport per request, both closed when the response is done; a
 * plain tools/call answered as JSON runs without a server (leanToolCall).
 */
export async function serveMcp(face: ServerFace, req: Request, res: Response, options: { json: boolean }): Promise<void> {
  if (options.json) {
    const headers = headerRecord(req);
    const request = singleRequest(req, headers);
    if (request) {
      const lean = leanToolCall(face.options, request);
      return lean ? answerLean(lean, res) : answerOne(face.create(), request, headers, req, res);
    }
  }
  const server = face.create();
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: options.json });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  const answer = await transport.handleRequest(webRequestOf(req), { parsedBody: req.body });
  res.status(answer.status);
  answer.headers.forEach((value, name) => res.setHeader(name, value));
  if (!answer.body) {
    res.end();
  } else if ((answer.headers.get('content-type') ?? '').includes('text/event-stream')) {
    // A stream of events (progress, requests to the client) goes out as it comes.
    res.flushHeaders();
    Readable.fromWeb(answer.body as import('node:stream/web').ReadableStream<Uint8Array>).pipe(res);
  } else {
    res.end(Buffer.from(await answer.arrayBuffer()));
  }
}

/**
 * One request, one JSON answer, as the SDK's transport would write it. A caller that goes away
 * first closes the transport, which stops the server's handler (a tools/call is withdrawn); after
 * the answer nothing is pending, so there is nothing to close.
 */
async function answerOne(server: Server, request: JSONRPCRequest, headers: Record<string, string>, req: Request, res: Response): Promise<void> {
  const transport = new OneRequestTransport();
  res.on('close', () => {
    if (!res.writableFinished) void transport.close();
  });
  await server.connect(transport);
  const url = new URL(`${req.protocol}://${req.get('host') ?? 'localhost'}${req.originalUrl}`);
  const answer = await transport.answer(request, { requestInfo: { headers, url } });
  if (answer === undefined || res.destroyed) return;
  res.status(200).setHeader('content-type', 'application/json');
  res.end(JSON.stringify(answer));
}

/** A lean tools/call, answered as answerOne answers: a caller that goes away first withdraws it and gets nothing. */
async function answerLean(call: LeanCall, res: Response): Promise<void> {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const answer = await call(controller.signal);
  if (answer === undefined || res.destroyed) return;
  res.status(200).setHeader('content-type', 'application/json');
  res.end(JSON.stringify(answer));
}

/**
 * One 2026-07-28 request, answered by the v2 SDK's per-request handler with 2025 traffic refused
 * (the 2025 faces answer it before this): it checks the envelope and headers and answers their
 * errors as the spec has them (-32022 naming the supported versions, -32020 for a header that
 * contradicts the body), then hands the request to `server`.
 */
export async function serveModernMcp(server: ModernServer, req: Request, res: Response): Promise<void> {
  const request = webRequestFor(req, res);
  serverFor.set(request, server);
  await writeModernAnswer(await modernHandler.fetch(request, { parsedBody: req.body }), res);
}

/** The server each request is answered by, found by the one handler's factory from the request it was given. */
const serverFor = new WeakMap<globalThis.Request, ModernServer>();

/**
 * One v2 handler for every request, its server given per request: a handler built per request
 * (its event bus and listen router each time) cost more than the tools/call it answered.
 */
const modernHandler = createMcpHandler((ctx) => {
  const server = serverFor.get(ctx.requestInfo as globalThis.Request);
  if (!server) throw new Error('no server was given for this request');
  return server;
}, { legacy: 'reject' });

/**
 * Whether the v2 SDK would serve this 2026-07-28 request, as serveModernMcp does: its envelope,
 * headers, version and params (the subscriptions/listen filter among them) are as the revision
 * has them. When not, the SDK's own refusal is written and false returned. For a request answered
 * by hand (subscriptions/listen, see routes/mcp-listen.ts) that still gets every check the SDK makes.
 */
export async function admitModern(req: Request, res: Response): Promise<boolean> {
  // A server with no capabilities: a listen it serves honors nothing and ends at once.
  const handler = createMcpHandler(() => new ModernServerClass({ name: 'switchyard', version: '0' }, { capabilities: {} }), { legacy: 'reject' });
  const answer = await handler.fetch(webRequestFor(req, res), { parsedBody: req.body });
  if (answer.status === 200 && (answer.headers.get('content-type') ?? '').includes('text/event-stream')) {
    await answer.body?.cancel().catch(() => {});
    return true;
  }
  await writeModernAnswer(answer, res);
  return false;
}

/** The fetch Request the v2 SDK's handler reads, aborted when the caller goes away first. */
function webRequestFor(req: Request, res: Response): globalThis.Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const url = `${req.protocol}://${req.get('host') ?? 'localhost'}${req.originalUrl}`;
  // Given the parsed body, the handler reads only the method, headers and signal (and hands the
  // request to handlers, which read none of it): no fetch Request is built for that. Without a
  // parsed body it reads the body itself, from a real Request (an empty one: express read it).
  return req.body === undefined
    ? new globalThis.Request(url, { method: req.method, headers, signal: controller.signal })
    : ({ method: req.method, url, headers, signal: controller.signal } as unknown as globalThis.Request);
}

async function writeModernAnswer(answer: globalThis.Response, res: Response): Promise<void> {
  res.status(answer.status);
  answer.headers.forEach((value, name) => res.setHeader(name, value));
  if (answer.status === 400 && (answer.headers.get('content-type') ?? '').includes('application/json')) {
    // An unsupported version names every version this face speaks: the 2025 ones are served too.
    res.end(JSON.stringify(withEverySupportedVersion(await answer.json())));
  } else if (!answer.body) {
    res.end();
  } else if ((answer.headers.get('content-type') ?? '').includes('text/event-stream')) {
    res.flushHeaders();
    Readable.fromWeb(answer.body as import('node:stream/web').ReadableStream<Uint8Array>).pipe(res);
  } else {
    res.end(Buffer.from(await answer.arrayBuffer()));
  }
}

/** A -32022 answer's `data.supported` with the 2025 versions the same URL serves added after the 2026 ones. */
function withEverySupportedVersion(body: unknown): unknown {
  const error = (body as { error?: { code?: unknown; data?: { supported?: unknown } } } | null)?.error;
  if (error?.code !== -32022 || !Array.isArray(error.data?.supported)) return body;
  error.data.supported = [...new Set([...(error.data.supported as string[]), ...SUPPORTED_PROTOCOL_VERSIONS])];
  return body;
}
