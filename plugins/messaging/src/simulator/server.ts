// The messaging upstream simulator: a real MCP server over streamable HTTP at /v4/mcp.
import { z, McpServer, hostMcpServer, type CallToolResult } from '@switchyard/plugin-kit/simulator';
import type { RunningSimulator } from '@switchyard/plugin-kit';
import { BATCH_LOOKUP_TOOL, E164_PATTERN, MAX_NUMBERS, UPDATE_GROUP_TOOL } from '../manifest.js';
import type { Plan } from '../options.js';
import { Groups, UnknownGroupError } from './groups.js';
import { lookupPhoneNumber } from './phone-lookup.js';

const answer = (value: Record<string, unknown>): CallToolResult => ({ content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value });
const toolError = (text: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text }] });

export interface MessagingState {
  groups: Groups;
  plan: Plan;
}

export function createMessagingServer(state: MessagingState): McpServer {
  const server = new McpServer({ name: 'messaging-simulator', version: '4.0.0' });
  server.registerTool(
    UPDATE_GROUP_TOOL,
    { description: 'Renames a group', inputSchema: { group_id: z.string(), name: z.string().min(1) } },
    async ({ group_id, name }) => {
      try {
        const { group, previous_name } = state.groups.rename(group_id, name);
        return answer({ group, previous_name });
      } catch (error) {
        if (error instanceof UnknownGroupError) return toolError(error.message);
        throw error;
      }
    },
  );
  server.registerTool(
    BATCH_LOOKUP_TOOL,
    {
      description: 'Looks up up to 100 phone numbers at once; needs an enterprise plan',
      inputSchema: { numbers: z.array(z.string().regex(new RegExp(E164_PATTERN))).min(1).max(MAX_NUMBERS) },
    },
    async ({ numbers }) => {
      if (state.plan !== 'enterprise') return toolError(`plan_required: batch phone number lookup needs an enterprise plan (this account is on ${state.plan})`);
      const results = numbers.map(lookupPhoneNumber);
      return answer({ results, count: results.length, valid: results.filter((r) => r.valid).length });
    },
  );
  server.registerTool('list_groups', { description: 'Lists the groups of the account', inputSchema: {} }, async () => answer({ groups: state.groups.list() }));
  return server;
}

export async function startMessagingSimulator(options: { host: string; port: number; settings?: Record<string, unknown> }): Promise<RunningSimulator> {
  const plan = (options.settings?.['plan'] as Plan | undefined) ?? 'enterprise';
  const state: MessagingState = { groups: new Groups(), plan };
  return hostMcpServer({ host: options.host, port: options.port, transport: 'streamable-http', path: '/v4/mcp', createServer: () => createMessagingServer(state) });
}
