// Virtual MCP servers: one imported server as itself (/mcp/servers/<name>: its tools under their own
// names, its resources, resource templates, prompts and completions forwarded), or a curated set of
// capabilities from any systems (/mcp/v/<name>). Built on Switchyard's own server face, so every tool
// call is a run through the caller's port (access policy, ledger, approvals, progress, cancellation
// and content exactly as on /mcp); only the names and the forwarded requests differ.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CompleteRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListResourcesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { SwitchyardError, type CallerChannel, type Capability } from '@switchyard/core';
import { askingChannelOf, createSwitchyardMcpServer, rpcErrorOf, type CallerTools, type SwitchyardMcpServerOptions } from './switchyard-mcp-server.js';

/** What a virtual server forwards to its upstream as it is (an imported server only). */
export interface ServerPassThrough {
  /** False when this caller may not read the server's resources and prompts. */
  readable: boolean;
  /** `options`: the caller's era (callerProtocol, set by the 2026 face) and its channel for an upstream's questions meanwhile. */
  forward(method: string, params: Record<string, unknown> | undefined, options?: { callerProtocol?: string; channel?: CallerChannel }): Promise<Record<string, unknown>>;
  /**
   * The caller's resource subscriptions, kept with its session (notifications/resources/updated
   * reach its GET stream); absent for a caller without a session, which is then offered none.
   */
  subscriptions?: {
    subscribe(uri: string): Promise<void>;
    unsubscribe(uri: string): Promise<void>;
  };
}

export interface VirtualMcpServerOptions extends Omit<SwitchyardMcpServerOptions, 'nameOf' | 'info'> {
  /** Shown as the server's name to clients (`switchyard/<name>`). */
  name: string;
  /** The name a capability is offered under: its upstream tool name, or its key. */
  nameOf(capability: Capability): string;
  /** Told to clients at initialize (a curated server's description). */
  instructions?: string;
  passThrough?: ServerPassThrough;
}

/** The caller's tools under the virtual server's names: a call by name runs the capability's key. */
function namedTools(tools: CallerTools, nameOf: (c: Capability) => string, server: string): CallerTools {
  return {
    list: () => tools.list(),
    call(name, args, live, idempotencyKey) {
      const offered = tools.list();
      const capability = offered.find((c) => nameOf(c) === name);
      if (!capability) {
        throw new SwitchyardError('unknown_capability', `unknown tool ${JSON.stringify(name)} on ${server}`, { tools: offered.map(nameOf).sort() });
      }
      return tools.call(capability.key, args, live, idempotencyKey);
    },
  };
}

/** The options of Switchyard's server face that a virtual server is built on; a lean tools/call runs with them too. */
export function virtualServerOptions(options: VirtualMcpServerOptions): SwitchyardMcpServerOptions {
  const { name, nameOf, instructions, passThrough: pass, ...rest } = options;
  return {
    ...rest,
    tools: namedTools(options.tools, nameOf, name),
    nameOf,
    info: {
      name: `switchyard/${name}`,
      ...(instructions ? { instructions } : {}),
      // Subscriptions are offered to a caller with a session: its GET stream carries the updates.
      ...(pass ? { capabilities: { resources: pass.subscriptions ? { subscribe: true } : {}, prompts: {}, completions: {} } } : {}),
    },
  };
}

export function createVirtualMcpServer(options: VirtualMcpServerOptions): Server {
  const { name, passThrough: pass } = options;
  const server = createSwitchyardMcpServer(virtualServerOptions(options));
  if (pass) {
    const forward = async (method: string, params: Record<string, unknown> | undefined, extra: { requestId: string | number; signal: AbortSignal }): Promise<Record<string, unknown>> => {
      if (!pass.readable) throw new McpError(-32003, `this credential may not read the resources and prompts of ${name}: it needs every tool of the server`, { code: 'scope_denied' });
      try {
        // What the upstream asks meanwhile goes to this caller as for a tool call (its session, what its client declared).
        return await pass.forward(method, params, { channel: askingChannelOf(server, options, extra.requestId, extra.signal) });
      } catch (err) {
        throw rpcErrorOf(err);
      }
    };
    const forwarded = [ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, ReadResourceRequestSchema, ListPromptsRequestSchema, GetPromptRequestSchema, CompleteRequestSchema] as const;
    for (const schema of forwarded) {
      const method = schema.shape.method.value;
      server.setRequestHandler(schema, (async (request: { params?: Record<string, unknown> }, extra: { requestId: string | number; signal: AbortSignal }) => forward(method, request.params, extra)) as never);
    }
    const subscriptions = pass.subscriptions;
    if (subscriptions) {
      const change = (act: 'subscribe' | 'unsubscribe') => async (request: { params: { uri: string } }) => {
        if (!pass.readable) throw new McpError(-32003, `this credential may not read the resources and prompts of ${name}: it needs every tool of the server`, { code: 'scope_denied' });
        try {
          await subscriptions[act](request.params.uri);
          return {};
        } catch (err) {
          throw rpcErrorOf(err);
        }
      };
      server.setRequestHandler(SubscribeRequestSchema, change('subscribe'));
      server.setRequestHandler(UnsubscribeRequestSchema, change('unsubscribe'));
    }
  }
  return server;
}
