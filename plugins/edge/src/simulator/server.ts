// The edge upstream simulator: a real MCP server over SSE, built with the official SDK.
import { z, McpServer, hostMcpServer } from '@switchyard/plugin-kit/simulator';
import type { RunningSimulator } from '@switchyard/plugin-kit';
import { SET_ACTIVE_WORKER_TOOL } from '../manifest.js';
import { ActiveWorkers } from './state.js';

// Hexadecimal in either letter case; one worker whichever case names it, so kept in lower case.
const WORKER_ID = z
  .string()
  .regex(/^[0-9a-fA-F]{32}$/, 'workerId must be 32 hexadecimal characters')
  .transform((id) => id.toLowerCase());

export function createEdgeServer(state: ActiveWorkers): McpServer {
  const server = new McpServer({ name: 'edge-builds-simulator', version: '1.0.0' });
  server.registerTool(
    SET_ACTIVE_WORKER_TOOL,
    {
      description: 'Sets the active worker id used by later calls; returns the previous one',
      inputSchema: { workerId: WORKER_ID, account_id: z.string().optional() },
    },
    async ({ workerId, account_id }) => {
      const result = state.activate(workerId, account_id);
      return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: { ...result } };
    },
  );
  server.registerTool(
    'workers_builds_get_active_worker',
    { description: 'Reads the active worker id', inputSchema: { account_id: z.string().optional() } },
    async ({ account_id }) => {
      const result = state.current(account_id);
      return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: { ...result } };
    },
  );
  return server;
}

export async function startEdgeSimulator(options: { host: string; port: number; settings?: Record<string, unknown> }): Promise<RunningSimulator> {
  const accountId = typeof options.settings?.['accountId'] === 'string' ? (options.settings['accountId'] as string) : '0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f';
  const state = new ActiveWorkers(accountId);
  return hostMcpServer({ host: options.host, port: options.port, transport: 'sse', path: '/sse', createServer: () => createEdgeServer(state) });
}
