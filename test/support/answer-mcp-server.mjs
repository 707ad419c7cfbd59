#!/usr/bin/env node
// A streamable HTTP MCP server for the answer-size and crash tests, run as its own process on the
// PORT it is given (stateless: a server and transport per request). ANSWER_MODE=json answers each
// call with one JSON body; ANSWER_MODE=legacy-sse serves the old SSE transport (GET /sse, answers on
// that stream, POST /messages); otherwise the answer is an event stream. Tools: `big` answers `bytes`
// characters of text; `crash` kills this process with SIGKILL mid-call (over an event stream after
// a log message has gone out, so the answer has begun).
import { createServer } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const json = process.env.ANSWER_MODE === 'json';
const legacy = process.env.ANSWER_MODE === 'legacy-sse';
const sessions = new Map();
const TOOLS = [
  { name: 'big', description: 'Answers `bytes` characters of text', inputSchema: { type: 'object', properties: { bytes: { type: 'integer' } }, required: ['bytes'] } },
  { name: 'crash', description: 'Dies in the middle of the call', inputSchema: { type: 'object', properties: {} } },
];

function mcpServer() {
  const server = new Server({ name: 'answer-fixture', version: '1.0.0' }, { capabilities: { tools: {}, logging: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    if (request.params.name === 'big') return { content: [{ type: 'text', text: 'x'.repeat(Number(request.params.arguments?.bytes ?? 0)) }] };
    if (request.params.name === 'crash') {
      if (!json) await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data: 'about to die' } });
      setTimeout(() => process.kill(process.pid, 'SIGKILL'), 50);
      return new Promise(() => {});
    }
    return { isError: true, content: [{ type: 'text', text: `unknown tool ${request.params.name}` }] };
  });
  return server;
}

const http = createServer(async (req, res) => {
  if (legacy) {
    if (req.method === 'GET' && req.url === '/sse') {
      const transport = new SSEServerTransport('/messages', res);
      sessions.set(transport.sessionId, transport);
      res.on('close', () => sessions.delete(transport.sessionId));
      return void (await mcpServer().connect(transport));
    }
    const transport = sessions.get(new URL(req.url, 'http://x').searchParams.get('sessionId'));
    if (req.method !== 'POST' || !transport) return void res.writeHead(404).end();
    return void (await transport.handlePostMessage(req, res));
  }
  if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: json });
  const server = mcpServer();
  res.on('close', () => void server.close());
  await server.connect(transport);
  await transport.handleRequest(req, res);
});
http.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => console.log(`answer server listening on port ${http.address().port}`));
