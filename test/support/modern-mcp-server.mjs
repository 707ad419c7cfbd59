// The stdio twin of modern-mcp-server.ts: an MCP server that speaks only protocol 2026-07-28 (the
// v2 server SDK's serveStdio with `legacy: 'reject'`), one `echo` tool that says which era served it.
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod/v4';

serveStdio(
  (ctx) => {
    const server = new McpServer({ name: 'modern-only-stdio', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.registerTool(
      'echo',
      { title: 'Echo', description: 'Echoes the message back, with the era that served it', inputSchema: z.object({ message: z.string().min(1) }) },
      async ({ message }) => ({ content: [{ type: 'text', text: `${message} (${ctx.era})` }], structuredContent: { message, era: ctx.era } }),
    );
    return server;
  },
  { legacy: 'reject' },
);
