// The payments upstream simulator: a real MCP server over streamable HTTP that searches the catalogue.
import { z, McpServer, hostMcpServer } from '@switchyard/plugin-kit/simulator';
import type { RunningSimulator } from '@switchyard/plugin-kit';
import { SEARCH_TOOL } from '../manifest.js';
import { operations } from './catalogue.js';
import { OperationIndex } from './search.js';

export function createPaymentsServer(index: OperationIndex): McpServer {
  const server = new McpServer({ name: 'payments-api-simulator', version: '1.0.0' });
  server.registerTool(
    SEARCH_TOOL,
    {
      description: "Searches the payment processor's API operations by keyword",
      inputSchema: { query: z.string().min(1), limit: z.number().int().min(1).max(20).default(5) },
    },
    async ({ query, limit }) => {
      // Parameter descriptions are never returned: names and types only.
      const hits = index.search(query, limit).map(({ method, path, summary, parameters }) => ({ method, path, summary, parameters }));
      const value = { query, count: hits.length, operations: hits };
      return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
    },
  );
  return server;
}

export async function startPaymentsSimulator(options: { host: string; port: number }): Promise<RunningSimulator> {
  const index = new OperationIndex(operations);
  return hostMcpServer({ host: options.host, port: options.port, transport: 'streamable-http', path: '/mcp', createServer: () => createPaymentsServer(index) });
}
