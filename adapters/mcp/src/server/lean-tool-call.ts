// A 2025 tools/call answered without building an SDK server: the stateless faces' hot request (one
// JSON-RPC request answered as JSON, with no progress token, no log level and no caller that may be
// asked). Built per request, the SDK's server was most of our adapter's share of a call: its
// construction, its message routing (a schema check per message kind) and the request parsed twice
// more. This runs the server's own tools/call handler (runToolCall) and answers what the server
// would: the request parsed once by the same schema, the result held to CallToolResultSchema, an
// error written as the SDK's Protocol writes it. Any other request builds the server as before.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, CallToolResultSchema, ErrorCode, McpError, type JSONRPCMessage, type JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { NO_CALLER_CAPABILITIES } from './caller-exchange.js';
import { createSwitchyardMcpServer, runToolCall, type SwitchyardMcpServerOptions } from './switchyard-mcp-server.js';
import { createVirtualMcpServer, virtualServerOptions, type VirtualMcpServerOptions } from './virtual-mcp-server.js';

/** A 2025 face's server for one request: the options a lean tools/call runs with, and the SDK server, built only when needed. */
export interface ServerFace {
  options: SwitchyardMcpServerOptions;
  create(): Server;
}

export const switchyardFace = (options: SwitchyardMcpServerOptions): ServerFace => ({ options, create: () => createSwitchyardMcpServer(options) });
export const virtualFace = (options: VirtualMcpServerOptions): ServerFace => ({ options: virtualServerOptions(options), create: () => createVirtualMcpServer(options) });

/** Runs the call; answers its JSON-RPC response, or undefined when `signal` withdrew it (the caller went away). */
export type LeanCall = (signal: AbortSignal) => Promise<JSONRPCMessage | undefined>;

/** The lean answer to `request`, or null when it is not a tools/call the server would answer the same way without talking back. */
export function leanToolCall(options: SwitchyardMcpServerOptions, request: JSONRPCRequest): LeanCall | null {
  if (request.method !== 'tools/call') return null;
  const parsed = CallToolRequestSchema.safeParse(request);
  // A request the schema refuses gets the server's own error.
  if (!parsed.success) return null;
  const params = parsed.data.params;
  // A task-augmented call, or one that may send progress or log messages, or ask its caller: the server's.
  if (params.task !== undefined || params._meta?.progressToken !== undefined || options.logging?.level !== undefined) return null;
  const capabilities = options.session?.capabilities ?? NO_CALLER_CAPABILITIES;
  if (options.exchange && (capabilities.elicitation || capabilities.sampling)) return null;
  return async (signal) => {
    let response: JSONRPCMessage;
    try {
      // Nothing talks back on this path: the channel is empty, as the server's is for such a call.
      const result = await runToolCall(options, params, request.id, signal, () => ({}));
      const checked = CallToolResultSchema.safeParse(result);
      if (!checked.success) throw new McpError(ErrorCode.InvalidParams, `Invalid tools/call result: ${checked.error.message}`);
      response = { result: checked.data, jsonrpc: '2.0', id: request.id };
    } catch (error) {
      const { code, message, data } = error as { code?: unknown; message?: string; data?: unknown };
      response = { jsonrpc: '2.0', id: request.id, error: { code: Number.isSafeInteger(code) ? (code as number) : ErrorCode.InternalError, message: message ?? 'Internal error', ...(data !== undefined && { data }) } };
    }
    // The server sends nothing for a request withdrawn while it ran.
    return signal.aborted ? undefined : response;
  };
}
