// Switchyard's MCP server face: capabilities as MCP tools for one caller, built on the SDK's
// low-level Server (our input schemas are already JSON Schema, so McpServer's zod layer would only
// get in the way). It knows nothing of HTTP: whoever hosts it decides the caller and the transport.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { DEFAULT_PAGE_SIZE, pageOfTools } from './tool-pages.js';
import { SwitchyardError, authRisk, type Capability, type DispatchOutcome, type ErrorCode as SwitchyardErrorCode } from '@switchyard/core';

/** The port: the tools one caller may see, and running one of them as that caller. */
export interface CallerTools {
  /** The capabilities this caller's credential may invoke. */
  list(): Capability[];
  /**
   * Runs `key` with `args` as its inputs, exactly as the dispatch endpoint would. Throws a coded
   * error when no run happens at all (unknown key, scope denied); a run that failed or was refused
   * is an outcome, since it is an invocation in the ledger.
   */
  call(key: string, args: Record<string, unknown>): Promise<DispatchOutcome>;
}

export interface SwitchyardMcpServerOptions {
  tools: CallerTools;
  /** Public base URL, for the confirm, repair and approval links in results. */
  baseUrl: string;
  version: string;
  /** Tools per tools/list page (DEFAULT_PAGE_SIZE when left out). */
  pageSize?: number;
}

/** JSON-RPC codes for calls that never became a run. Unknown tools get -32602, as the SDK's own McpServer does. */
const RPC_CODE: Partial<Record<SwitchyardErrorCode, number>> = {
  unknown_capability: ErrorCode.InvalidParams,
  invalid_request: ErrorCode.InvalidParams,
  invocation_not_found: ErrorCode.InvalidParams,
  invalid_repair: ErrorCode.InvalidParams,
  // Server-defined range (-32000..-32099): the caller may not make this move.
  scope_denied: -32003,
  credential_required: -32001,
};

/** A coded error that prevented any run, as a JSON-RPC error whose data is our error body. */
export function rpcErrorOf(err: unknown): McpError {
  if (!SwitchyardError.is(err)) return err instanceof McpError ? err : new McpError(ErrorCode.InternalError, 'internal error');
  const rpc = new McpError(RPC_CODE[err.code] ?? ErrorCode.InternalError, err.message, err.toJSON());
  // McpError prefixes "MCP error <code>:" and SDK clients prefix it again on receipt: send it plain.
  rpc.message = err.message;
  return rpc;
}

export const toolOf = (c: Capability): Tool => ({
  name: c.key,
  title: c.path.join(' > '),
  // The spec's "auth · risk" line rides along so a model sees approval needs before calling.
  description: `${c.description} [${authRisk(c)}]`,
  inputSchema: c.inputs as Tool['inputSchema'],
  annotations: { destructiveHint: c.risk === 'high', openWorldHint: true },
});

/**
 * The tool result of a run. Failed and refused runs are `isError` results (the model should read
 * the error and repair); a run waiting for approval is not an error: it says so and links the approval.
 */
export function toolResultOf(outcome: DispatchOutcome, baseUrl: string): CallToolResult {
  const inv = outcome.invocation;
  const waiting = inv.status === 'awaiting_approval';
  const structured = {
    ok: inv.ok,
    status: inv.status,
    invocation: inv.id,
    result: inv.result,
    error: inv.error,
    yield: inv.yield,
    confirm: `${baseUrl}/api/dispatch?confirm=${inv.id}`,
    // The owner lists pending approvals there and decides with POST /api/approvals/<invocation>.
    ...(waiting ? { approvals: `${baseUrl}/api/approvals` } : {}),
    ...(inv.error && !waiting ? { repair: { key: inv.key, repairs: inv.id, how: `POST ${baseUrl}/api/dispatch {key, body: corrected arguments, repairs}` } } : {}),
  };
  const text = inv.ok
    ? JSON.stringify(inv.result)
    : waiting
      ? `${inv.key} is waiting for the owner's approval of these exact arguments (invocation ${inv.id}); it runs once the owner approves it at ${baseUrl}/api/approvals`
      : JSON.stringify({ error: inv.error, invocation: inv.id });
  return { content: [{ type: 'text', text }], structuredContent: structured, isError: !inv.ok && !waiting };
}

// The SDK builds a new Ajv (with its formats) for every Server unless given one; a server per
// request made that most of /mcp's CPU. It only checks elicitation schemas, which we never send.
const sharedValidator = new AjvJsonSchemaValidator();

/** A fresh server for one caller; cheap enough to build per HTTP request (stateless transport). */
export function createSwitchyardMcpServer(options: SwitchyardMcpServerOptions): Server {
  const server = new Server({ name: 'switchyard', version: options.version }, { capabilities: { tools: { listChanged: false } }, jsonSchemaValidator: sharedValidator });
  server.setRequestHandler(ListToolsRequestSchema, async (request) => pageOfTools(options.tools.list().map(toolOf), request.params?.cursor, options.pageSize ?? DEFAULT_PAGE_SIZE));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    try {
      return toolResultOf(await options.tools.call(name, args ?? {}), options.baseUrl);
    } catch (err) {
      throw rpcErrorOf(err);
    }
  });
  return server;
}
