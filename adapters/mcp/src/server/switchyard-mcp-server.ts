// Switchyard's MCP server face: capabilities as MCP tools for one caller, built on the SDK's
// low-level Server (our input schemas are already JSON Schema, so McpServer's zod layer would only
// get in the way). It knows nothing of HTTP: whoever hosts it decides the caller and the transport.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, SetLevelRequestSchema, type CallToolRequest, type CallToolResult, type RequestId, type ServerCapabilities, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { SwitchyardError, authRisk, inlineBlobs, isImportedTool, readableTitleOf, type BlobStore, type CallerChannel, type Capability, type DispatchOutcome, type LiveCall, type ErrorCode as SwitchyardErrorCode } from '@switchyard/core';
import { DEFAULT_PAGE_SIZE, pageOfTools } from './tool-pages.js';
import { NO_CALLER_CAPABILITIES, type CallerCapabilities, type CallerExchange } from './caller-exchange.js';
import { logNotificationOf, logPasses, type LogLevel } from './caller-sessions.js';

/** The port: the tools one caller may see, and running one of them as that caller. */
export interface CallerTools {
  /** The capabilities this caller's credential may invoke. */
  list(): Capability[];
  /**
   * Runs `key` with `args` as its inputs, exactly as the dispatch endpoint would. Throws a coded
   * error when no run happens at all (unknown key, scope denied); a run that failed or was refused
   * is an outcome, since it is an invocation in the ledger.
   */
  call(key: string, args: Record<string, unknown>, live?: LiveCall, idempotencyKey?: unknown): Promise<DispatchOutcome>;
}

/** Where an MCP caller puts its idempotency key: tools/call's `params._meta` (the HTTP face's Idempotency-Key). */
export const IDEMPOTENCY_META_KEY = 'io.switchyard/idempotency-key';

export interface SwitchyardMcpServerOptions {
  tools: CallerTools;
  /** Public base URL, for the confirm, repair and approval links in results. */
  baseUrl: string;
  version: string;
  /** Where large binary content of runs is kept, to hand it back inline. */
  blobs?: Pick<BlobStore, 'get'>;
  /** The caller's session: its id (for cancellation) and what its client can answer. */
  session?: { id: string; capabilities: CallerCapabilities };
  /** Questions to the caller and withdrawals of calls, across the caller's HTTP requests. */
  exchange?: CallerExchange;
  /** Tools per tools/list page (DEFAULT_PAGE_SIZE when left out). */
  pageSize?: number;
  /** The name a capability is offered under (its key when left out; a virtual server's own names). */
  nameOf?: (capability: Capability) => string;
  /**
   * The caller's log level (logging/setLevel, kept by whoever hosts the server): upstream log
   * messages at or above it reach the caller during its tool calls; none before it set one.
   */
  logging?: { level: LogLevel | undefined; setLevel(level: LogLevel): void };
  /** The server as clients see it (switchyard, tools only, when left out). */
  info?: { name: string; instructions?: string; capabilities?: ServerCapabilities };
}

/** JSON-RPC codes for calls that never became a run. Unknown tools get -32602, as the SDK's own McpServer does. */
const RPC_CODE: Partial<Record<SwitchyardErrorCode, number>> = {
  unknown_capability: ErrorCode.InvalidParams,
  invalid_request: ErrorCode.InvalidParams,
  invocation_not_found: ErrorCode.InvalidParams,
  invalid_repair: ErrorCode.InvalidParams,
  // A held tool is not offered (not in tools/list): as for an unknown tool, the params are wrong.
  tool_changed: ErrorCode.InvalidParams,
  // Server-defined range (-32000..-32099): the caller may not make this move.
  scope_denied: -32003,
  credential_required: -32001,
  // Server-defined: the session holds as much as config allows.
  session_limit: -32000,
  // An idempotency key sent with other arguments; one whose first call has not ended; a database
  // that did not take the run (nothing ran; retry later).
  idempotency_key_reused: ErrorCode.InvalidParams,
  idempotency_key_in_progress: -32000,
  storage_unavailable: -32000,
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
  // An imported tool's title as its upstream gave it (none stays none); our own a readable name.
  ...(c.title !== undefined ? { title: c.title } : isImportedTool(c) ? {} : { title: readableTitleOf(c) }),
  // The spec's "auth · risk" line rides along so a model sees approval needs before calling.
  description: `${c.description} [${authRisk(c)}]`,
  inputSchema: c.inputs as Tool['inputSchema'],
  // As declared (an imported tool's exactly as its upstream listed them); none declared, none sent.
  ...(c.outputSchema ? { outputSchema: c.outputSchema as Tool['outputSchema'] } : {}),
  ...(c.annotations ? { annotations: c.annotations } : {}),
  ...toolMeta(c),
});

/** The upstream's _meta as given, plus the hash of the pinned definition the tool is served under. */
const toolMeta = (c: Capability): { _meta?: Record<string, unknown> } =>
  c.definition_hash !== undefined ? { _meta: { ...c.meta, 'switchyard/definition_hash': c.definition_hash } } : c.meta ? { _meta: c.meta } : {};

/**
 * The tool result of a run. Failed and refused runs are `isError` results (the model should read
 * the error and repair); a run waiting for approval is not an error: it says so and links the approval.
 */
export async function toolResultOf(outcome: DispatchOutcome, baseUrl: string, blobs?: Pick<BlobStore, 'get'>): Promise<CallToolResult> {
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
  if (inv.ok && inv.content && isImportedTool(outcome.capability)) {
    // A gateway call: the upstream's answer as it gave it; our run envelope rides in _meta, and
    // stands in for structuredContent only when the upstream gave none. (Switchyard's own
    // capabilities answer with the envelope below, their documented tool result.)
    const content = blobs ? await inlineBlobs(inv.content, blobs) : inv.content;
    return { content: content as CallToolResult['content'], structuredContent: (inv.structured_content ?? structured) as Record<string, unknown>, _meta: { 'switchyard/run': structured }, isError: false };
  }
  const text = inv.ok
    ? typeof inv.result === 'string' ? inv.result : JSON.stringify(inv.result)
    : waiting
      ? `${inv.key} is waiting for the owner's approval of these exact arguments (invocation ${inv.id}); it runs once the owner approves it at ${baseUrl}/api/approvals`
      : JSON.stringify({ error: inv.error, invocation: inv.id });
  return { content: [{ type: 'text', text }], structuredContent: structured, _meta: { 'switchyard/run': structured }, isError: !inv.ok && !waiting };
}

// The SDK builds a new Ajv (with its formats) for every Server unless given one; a server per
// request made that most of /mcp's CPU. It only checks elicitation schemas, which we never send.
const sharedValidator = new AjvJsonSchemaValidator();

/** A fresh server for one caller; cheap enough to build per HTTP request (stateless transport). */
export function createSwitchyardMcpServer(options: SwitchyardMcpServerOptions): Server {
  const server = new Server(
    { name: options.info?.name ?? 'switchyard', version: options.version },
    {
      capabilities: { tools: { listChanged: false }, ...options.info?.capabilities },
      jsonSchemaValidator: sharedValidator,
      ...(options.info?.instructions ? { instructions: options.info.instructions } : {}),
    },
  );
  const nameOf = options.nameOf;
  const logging = options.logging;
  if (logging) {
    // Declared after construction, so the SDK does not first install a setLevel handler of its own
    // (which keeps levels per transport session: none here, a server lives for one request).
    server.registerCapabilities({ logging: {} });
    server.setRequestHandler(SetLevelRequestSchema, async (request) => {
      try {
        logging.setLevel(request.params.level);
      } catch (err) {
        throw rpcErrorOf(err);
      }
      return {};
    });
  }
  server.setRequestHandler(ListToolsRequestSchema, async (request) =>
    pageOfTools(options.tools.list().map((c) => (nameOf ? { ...toolOf(c), name: nameOf(c) } : toolOf(c))), request.params?.cursor, options.pageSize ?? DEFAULT_PAGE_SIZE),
  );
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) =>
    runToolCall(options, request.params, extra.requestId, extra.signal, (signal, sent) => channelOf(server, options, request.params._meta?.progressToken, extra.requestId, signal, sent)),
  );
  return server;
}

/**
 * What this server's tools/call handler does, given the call's params, its JSON-RPC id and the
 * signal that withdraws it: a run through the caller's port, answered as a tool result or thrown
 * as a JSON-RPC error. The lean path (lean-tool-call.ts) runs the same, without a server.
 */
export async function runToolCall(
  options: SwitchyardMcpServerOptions,
  params: CallToolRequest['params'],
  requestId: RequestId,
  signal: AbortSignal,
  channelFor: (signal: AbortSignal, sent: Promise<unknown>[]) => CallerChannel,
): Promise<CallToolResult> {
  const { name, arguments: args } = params;
  const controller = new AbortController();
  const withdraw = () => controller.abort();
  signal.addEventListener('abort', withdraw, { once: true });
  if (signal.aborted) withdraw();
  const untrack = options.session && options.exchange ? options.exchange.track(options.session.id, requestId, controller) : () => {};
  try {
    const sent: Promise<unknown>[] = [];
    const outcome = await options.tools.call(name, args ?? {}, { signal: controller.signal, channel: channelFor(controller.signal, sent) }, params._meta?.[IDEMPOTENCY_META_KEY]);
    // Progress goes out before the answer, which closes the caller's stream.
    await Promise.allSettled(sent);
    return await toolResultOf(outcome, options.baseUrl, options.blobs);
  } catch (err) {
    throw rpcErrorOf(err);
  } finally {
    untrack();
    signal.removeEventListener('abort', withdraw);
  }
}

/**
 * The caller's side of one tools/call: progress goes out when the caller gave a progress token,
 * log messages when it set a log level;
 * elicitation and sampling are offered only when its client declared them at initialize.
 */
function channelOf(server: Server, options: SwitchyardMcpServerOptions, progressToken: string | number | undefined, requestId: string | number, signal: AbortSignal, sent: Promise<unknown>[]): CallerChannel {
  const level = options.logging?.level;
  return {
    ...(progressToken !== undefined
      ? { progress: (step) => void sent.push(server.notification({ method: 'notifications/progress', params: { ...step, progressToken } }, { relatedRequestId: requestId })) }
      : {}),
    ...(level ? { log: (entry) => void (logPasses(entry.level, level) && sent.push(server.notification(logNotificationOf(entry), { relatedRequestId: requestId }))) } : {}),
    ...askingChannelOf(server, options, requestId, signal),
  };
}

/**
 * What an upstream may ask the caller of one request (a tools/call, or a forwarded prompts/get or
 * resources/read): elicitation and sampling, each only when its client declared it at initialize.
 */
export function askingChannelOf(server: Server, options: Pick<SwitchyardMcpServerOptions, 'session' | 'exchange'>, requestId: string | number, signal: AbortSignal): CallerChannel {
  const capabilities = options.session?.capabilities ?? NO_CALLER_CAPABILITIES;
  const exchange = options.exchange;
  const ask = (method: string) => (params: Record<string, unknown>) => exchange!.ask(server.transport!, options.session?.id, requestId, method, params, signal);
  return {
    ...(exchange && capabilities.elicitation ? { elicit: ask('elicitation/create') } : {}),
    ...(exchange && capabilities.sampling ? { sample: ask('sampling/createMessage') } : {}),
  };
}
