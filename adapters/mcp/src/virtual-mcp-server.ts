// Virtual MCP servers: one imported server as itself (/mcp/servers/<name>: its tools under their own
// names, its resources, resource templates, prompts and completions forwarded), or a curated set of
// capabilities from any systems (/mcp/v/<name>). Every tool call is a run through the caller's port,
// so the access policy, the ledger and approvals are those of /mcp.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { Capability, DispatchOutcome } from '@switchyard/core';
import { rpcErrorOf, toolOf, toolResultOf, type CallerTools } from './switchyard-mcp-server.js';
import { DEFAULT_PAGE_SIZE, pageOfTools } from './tool-pages.js';

/** What a virtual server forwards to its upstream as it is (an imported server only). */
export interface ServerPassThrough {
  /** False when this caller may not read the server's resources and prompts. */
  readable: boolean;
  forward(method: string, params: Record<string, unknown> | undefined): Promise<Record<string, unknown>>;
}

export interface VirtualMcpServerOptions {
  /** Shown as the server's name to clients (`switchyard/<name>`). */
  name: string;
  version: string;
  /** The caller's tools (already cut to what the caller may invoke) and its runs. */
  tools: CallerTools;
  /** The name a capability is offered under: its upstream tool name, or its key. */
  nameOf(capability: Capability): string;
  baseUrl: string;
  pageSize?: number;
  /** Told to clients at initialize (a curated server's description). */
  instructions?: string;
  passThrough?: ServerPassThrough;
}

const sharedValidator = new AjvJsonSchemaValidator();

/**
 * The answer of a run, as the upstream gave it when it can be: a successful run's text is the
 * result itself (a string is not quoted again); failures and approvals read as on /mcp.
 */
export function virtualToolResultOf(outcome: DispatchOutcome, baseUrl: string): CallToolResult {
  const answer = toolResultOf(outcome, baseUrl);
  const result = outcome.invocation.result;
  if (outcome.invocation.ok && typeof result === 'string') return { ...answer, content: [{ type: 'text', text: result }] };
  return answer;
}

export function createVirtualMcpServer(options: VirtualMcpServerOptions): Server {
  const pass = options.passThrough;
  const server = new Server(
    { name: `switchyard/${options.name}`, version: options.version },
    {
      capabilities: {
        tools: { listChanged: false },
        // logging/setLevel is answered here (the SDK keeps the level); resources are not
        // subscribable: a stateless face has no stream to carry notifications/resources/updated.
        ...(pass ? { resources: {}, prompts: {}, completions: {}, logging: {} } : {}),
      },
      jsonSchemaValidator: sharedValidator,
      ...(options.instructions ? { instructions: options.instructions } : {}),
    },
  );
  const offered = (): Map<string, Capability> => new Map(options.tools.list().map((c) => [options.nameOf(c), c]));

  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    const tools: Tool[] = [...offered()].map(([name, c]) => ({ ...toolOf(c), name }));
    return pageOfTools(tools, request.params?.cursor, options.pageSize ?? DEFAULT_PAGE_SIZE);
  });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    const capability = offered().get(name);
    if (!capability) throw new McpError(ErrorCode.InvalidParams, `unknown tool ${JSON.stringify(name)} on ${options.name}`, { code: 'unknown_capability', tools: [...offered().keys()].sort() });
    try {
      return virtualToolResultOf(await options.tools.call(capability.key, args ?? {}), options.baseUrl);
    } catch (err) {
      throw rpcErrorOf(err);
    }
  });

  if (pass) {
    const forward = async (method: string, params: Record<string, unknown> | undefined): Promise<Record<string, unknown>> => {
      if (!pass.readable) throw new McpError(-32003, `this credential may not read the resources and prompts of ${options.name}: it needs every tool of the server`, { code: 'scope_denied' });
      try {
        return await pass.forward(method, params);
      } catch (err) {
        throw rpcErrorOf(err);
      }
    };
    const forwarded = [ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, ReadResourceRequestSchema, ListPromptsRequestSchema, GetPromptRequestSchema, CompleteRequestSchema] as const;
    for (const schema of forwarded) {
      const method = schema.shape.method.value;
      server.setRequestHandler(schema, (async (request: { params?: Record<string, unknown> }) => forward(method, request.params)) as never);
    }
  }
  return server;
}
