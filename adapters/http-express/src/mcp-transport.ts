// One MCP request answered by an SDK server over the SDK's web-standard streamable HTTP transport,
// with the Node ↔ web conversion kept to what that transport reads (method, URL, headers) and what
// it answers (status, headers, a body or a stream). The SDK's Node wrapper builds a full fetch
// Request and reads the Response back through a web stream: most of a stateless call's time.
import { Readable } from 'node:stream';
import type { Request, Response } from 'express';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';

/** The parts of a fetch Request the transport reads; the body is passed parsed. */
function webRequestOf(req: Request): globalThis.Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  return { method: req.method, url: `${req.protocol}://${req.get('host') ?? 'localhost'}${req.originalUrl}`, headers } as unknown as globalThis.Request;
}

/** Stateless: a fresh server and transport per request, both closed when the response is done. */
export async function serveMcp(server: Server, req: Request, res: Response, options: { json: boolean }): Promise<void> {
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
