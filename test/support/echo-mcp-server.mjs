// An MCP server over stdio that speaks both eras (the v2 server SDK's serveStdio, legacy served):
// one `echo` tool, the upstream bench:mcp-peers calls directly, through Switchyard and through the
// proxies, so every path ends at the same process doing the same work.
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod/v4';

serveStdio(() => {
  const server = new McpServer({ name: 'echo-stdio', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.registerTool('echo', { title: 'Echo', description: 'Echoes the message back', inputSchema: z.object({ message: z.string() }) }, async ({ message }) => ({
    content: [{ type: 'text', text: message }],
  }));
  return server;
});
