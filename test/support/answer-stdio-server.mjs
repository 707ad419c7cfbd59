#!/usr/bin/env node
// A stdio MCP server for the answer-size tests: ANSWER_ERA=modern speaks only 2026-07-28 (the v2
// server SDK's serveStdio, legacy rejected), otherwise 2025 (the v1 SDK's Server). Tools: `big`
// answers `bytes` characters of text in one line however long; `pid` says which process answers
// (the same one after an oversized answer shows the connection was kept, not restarted).
const TOOLS = [
  { name: 'big', description: 'Answers `bytes` characters of text', inputSchema: { type: 'object', properties: { bytes: { type: 'integer' } }, required: ['bytes'] } },
  { name: 'pid', description: 'Says which process answers', inputSchema: { type: 'object', properties: {} } },
];
const answer = (name, args) =>
  name === 'big' ? { content: [{ type: 'text', text: 'x'.repeat(Number(args?.bytes ?? 0)) }] } : { content: [{ type: 'text', text: String(process.pid) }] };

if (process.env.ANSWER_ERA === 'modern') {
  const { McpServer } = await import('@modelcontextprotocol/server');
  const { serveStdio } = await import('@modelcontextprotocol/server/stdio');
  const z = await import('zod/v4');
  serveStdio(
    () => {
      const server = new McpServer({ name: 'answer-stdio-modern', version: '1.0.0' }, { capabilities: { tools: {} } });
      server.registerTool('big', { description: TOOLS[0].description, inputSchema: z.object({ bytes: z.number().int() }) }, async (args) => answer('big', args));
      server.registerTool('pid', { description: TOOLS[1].description, inputSchema: z.object({}) }, async () => answer('pid'));
      return server;
    },
    { legacy: 'reject' },
  );
} else {
  const { Server } = await import('@modelcontextprotocol/sdk/server/index.js');
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const { CallToolRequestSchema, ListToolsRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
  const server = new Server({ name: 'answer-stdio', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => answer(request.params.name, request.params.arguments));
  await server.connect(new StdioServerTransport());
}
