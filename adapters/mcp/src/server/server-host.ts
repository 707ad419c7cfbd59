// Hosting an MCP server over HTTP on loopback: SSE (GET /sse + POST /messages) or streamable HTTP
// (one path, stateful sessions). Used by the upstream simulators, each session getting its own
// McpServer built over state the simulator shares between sessions.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

export interface HostedMcpServer {
  /** The URL a client connects to (the SSE stream, or the streamable HTTP endpoint). */
  url: string;
  close(): Promise<void>;
}

export interface HostOptions {
  host: string;
  port: number;
  transport: 'sse' | 'streamable-http';
  /** Endpoint path: for SSE the stream path (messages go to <path>/messages), for HTTP the endpoint. */
  path: string;
  createServer(): McpServer;
}

const readJson = async (req: IncomingMessage): Promise<unknown> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
};

const notFound = (res: ServerResponse): void => {
  res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'not found' }));
};

export async function hostMcpServer(options: HostOptions): Promise<HostedMcpServer> {
  const sessions = new Map<string, { transport: SSEServerTransport | StreamableHTTPServerTransport; server: McpServer }>();
  const messagesPath = `${options.path.replace(/\/$/, '')}/messages`;

  const handleSse = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    if (req.method === 'GET' && url.pathname === options.path) {
      const transport = new SSEServerTransport(messagesPath, res);
      const server = options.createServer();
      sessions.set(transport.sessionId, { transport, server });
      transport.onclose = () => sessions.delete(transport.sessionId);
      await server.connect(transport);
      return;
    }
    if (req.method === 'POST' && url.pathname === messagesPath) {
      const session = sessions.get(url.searchParams.get('sessionId') ?? '');
      if (!session) return notFound(res);
      await (session.transport as SSEServerTransport).handlePostMessage(req, res);
      return;
    }
    notFound(res);
  };

  const handleStreamable = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    if (url.pathname !== options.path) return notFound(res);
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    const body = req.method === 'POST' ? await readJson(req) : undefined;
    if (existing) {
      await (existing.transport as StreamableHTTPServerTransport).handleRequest(req, res, body);
      return;
    }
    if (req.method !== 'POST') return notFound(res);
    // Only an initialize starts a session: anything else without one (a 2026-07-28 client's
    // server/discover probe among them) is refused as the SDK's transport would, without building
    // a server that no session would ever hold.
    if (!isInitializeRequest(body)) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: Server not initialized' }, id: null }));
      return;
    }
    const server = options.createServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const http = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const handler = options.transport === 'sse' ? handleSse : handleStreamable;
    handler(req, res, url).catch((err: Error) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: err.message }));
    });
  });
  http.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}${options.path}`,
    async close() {
      await Promise.all([...sessions.values()].map((s) => s.transport.close().catch(() => {})));
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
