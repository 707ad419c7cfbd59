// Switchyard's MCP server faces at protocol 2026-07-28, for one request: the same tools of the same
// caller as the 2025 faces (createSwitchyardMcpServer, createVirtualMcpServer), on the v2 server
// SDK, which speaks that revision (server/discover, the per-request _meta envelope, its wire
// errors). A tools/call is the same run through the caller's port; the result is the same.
// Talking back mid-call is the revision's: progress, and an upstream's questions (elicitation,
// sampling) as InputRequiredResult with a requestState we mint, the run paused until the caller
// retries with the answers (paused-calls.ts). No logging/setLevel.
import { CLIENT_CAPABILITIES_META_KEY, ProtocolError, Server, type CallToolResult, type ServerCapabilities, type ServerContext } from '@modelcontextprotocol/server';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { SwitchyardError, type CallerChannel, type Capability } from '@switchyard/core';
import { DEFAULT_PAGE_SIZE, pageOfTools } from './tool-pages.js';
import { cacheHintsFor, forwardedWithHints, isCacheable } from './cache-hints.js';
import { IDEMPOTENCY_META_KEY, rpcErrorOf, toolOf, toolResultOf, type CallerTools, type SwitchyardMcpServerOptions } from './switchyard-mcp-server.js';
import type { ServerPassThrough } from './virtual-mcp-server.js';
import { answerRound, resumeRound, startAsking, type RoundContext } from './input-rounds.js';
import type { PausedCalls } from './paused-calls.js';
import type { Holder } from './caller-sessions.js';
import { argumentsDigest, type RequestStateClaims } from './request-state-seal.js';
import { MODERN_PROTOCOL_VERSION } from '../eras.js';
import { askedOf, asksForInput, retryFieldsOf } from './forwarded-input.js';

/** What this face tells the runs it starts and the requests it forwards: its caller speaks 2026-07-28 (an upstream of both eras is spoken that too). */
const CALLER = { callerProtocol: MODERN_PROTOCOL_VERSION };

export interface ModernMcpServerOptions extends Pick<SwitchyardMcpServerOptions, 'tools' | 'baseUrl' | 'version' | 'blobs' | 'pageSize' | 'nameOf'> {
  /** How long cacheable results stay fresh (ttlMs, mcp.cacheTtlMs; 0 when left out); always private. */
  cacheTtlMs?: number;
  /** Shown as the server's name (`switchyard` when left out). */
  name?: string;
  instructions?: string;
  /** An imported server's resources, templates, prompts and completions, forwarded as they are. */
  passThrough?: Pick<ServerPassThrough, 'readable' | 'forward'>;
  /** Where runs wait for the caller's input, and the caller's credential its requestState is bound to; without them nothing is asked. */
  paused?: { calls: PausedCalls; holder: Holder };
}

/**
 * Without paused calls this server never answers InputRequiredResult, so it mints no requestState:
 * any a caller echoes is forged, tampered or replayed from elsewhere. Refusing it here makes the SDK
 * answer -32602 "Invalid or expired requestState" before the handler, so the tool does not run.
 */
const refuseRequestState = (): never => {
  throw new Error('this server issues no requestState');
};

/** Our coded errors, and an upstream's JSON-RPC errors, as the v2 SDK sends them. */
export function protocolErrorOf(err: unknown): ProtocolError {
  if (err instanceof ProtocolError) return err;
  const rpc = err instanceof McpError || SwitchyardError.is(err) ? rpcErrorOf(err) : rpcErrorOf(null);
  const error = new ProtocolError(rpc.code, rpc.message, rpc.data);
  // Sent plain, as the 2025 faces send it: the SDK would prefix "MCP error <code>:".
  error.message = rpc.message;
  return error;
}

/** Progress notifications for a call that gave a progress token; nothing else talks back mid-call. */
function channelOf(ctx: ServerContext, sent: Promise<unknown>[]): CallerChannel {
  const progressToken = ctx.mcpReq._meta?.progressToken;
  if (progressToken === undefined) return {};
  return { progress: (step) => void sent.push(ctx.mcpReq.notify({ method: 'notifications/progress', params: { ...step, progressToken } }).catch(() => {})) };
}

/** The caller's tools under their offered names: a call by name runs the capability's key. */
function callByName(tools: CallerTools, nameOf: ((c: Capability) => string) | undefined, server: string): CallerTools['call'] {
  if (!nameOf) return (key, args, live, idempotencyKey) => tools.call(key, args, live, idempotencyKey);
  return (name, args, live, idempotencyKey) => {
    const offered = tools.list();
    const capability = offered.find((c) => nameOf(c) === name);
    if (!capability) throw new SwitchyardError('unknown_capability', `unknown tool ${JSON.stringify(name)} on ${server}`, { tools: offered.map(nameOf).sort() });
    return tools.call(capability.key, args, live, idempotencyKey);
  };
}

export function createModernMcpServer(options: ModernMcpServerOptions): Server {
  const pass = options.passThrough;
  const ttlMs = options.cacheTtlMs ?? 0;
  const paused = options.paused;
  const capabilities: ServerCapabilities = { tools: { listChanged: false }, ...(pass ? { resources: {}, prompts: {}, completions: {} } : {}) };
  const server = new Server(
    { name: options.name ?? 'switchyard', version: options.version },
    // A requestState opens only under our key, unexpired, for this caller's credential; else -32602 before any handler.
    { capabilities, requestState: { verify: paused ? async (state: string) => paused.calls.seal.open(state, paused.holder.id) : refuseRequestState }, cacheHints: cacheHintsFor(ttlMs), ...(options.instructions ? { instructions: options.instructions } : {}) },
  );
  const nameOf = options.nameOf;
  const call = callByName(options.tools, nameOf, options.name ?? 'switchyard');

  server.setRequestHandler('tools/list', async (request) =>
    pageOfTools(options.tools.list().map((c) => (nameOf ? { ...toolOf(c), name: nameOf(c) } : toolOf(c))), request.params?.cursor, options.pageSize ?? DEFAULT_PAGE_SIZE) as never,
  );
  server.setRequestHandler('tools/call', async (request, ctx): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params;
    try {
      const round: RoundContext | undefined = paused && { ...paused, ctx, baseUrl: options.baseUrl, blobs: options.blobs };
      const claims = ctx.mcpReq.requestState<RequestStateClaims>();
      if (round && claims) return await resumeRound(round, claims, name, argumentsDigest(args ?? {}));
      const declared = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as { elicitation?: unknown; sampling?: unknown; roots?: unknown } | undefined;
      if (round && (declared?.elicitation !== undefined || declared?.sampling !== undefined || declared?.roots !== undefined)) {
        const idempotencyKey = (request.params._meta as Record<string, unknown> | undefined)?.[IDEMPOTENCY_META_KEY];
        const run = startAsking(round, name, argumentsDigest(args ?? {}), { elicitation: declared.elicitation !== undefined, sampling: declared.sampling !== undefined, roots: declared.roots !== undefined }, (live) => call(name, (args ?? {}) as Record<string, unknown>, { ...live, ...CALLER }, idempotencyKey));
        return await answerRound(round, run);
      }
      const sent: Promise<unknown>[] = [];
      // The idempotency key rides in _meta, as on the 2025 faces (IDEMPOTENCY_META_KEY).
      const idempotencyKey = (request.params._meta as Record<string, unknown> | undefined)?.[IDEMPOTENCY_META_KEY];
      const outcome = await call(name, (args ?? {}) as Record<string, unknown>, { signal: ctx.mcpReq.signal, channel: channelOf(ctx, sent), ...CALLER }, idempotencyKey);
      await Promise.allSettled(sent);
      return (await toolResultOf(outcome, options.baseUrl, options.blobs)) as unknown as CallToolResult;
    } catch (err) {
      throw protocolErrorOf(err);
    }
  });

  if (pass) {
    const forward = async (method: string, params: unknown, ctx: ServerContext): Promise<never> => {
      if (!pass.readable) throw new ProtocolError(-32003, `this credential may not read the resources and prompts of ${options.name}: it needs every tool of the server`, { code: 'scope_denied' });
      try {
        // The envelope is ours with our caller; the upstream gets the request's own params, and a
        // retry's answers and the upstream's requestState (forwarded-input.ts).
        const { _meta: _envelope, ...own } = (params ?? {}) as Record<string, unknown>;
        const result = await pass.forward(method, { ...own, ...retryFieldsOf(ctx, method, own) }, CALLER);
        if (asksForInput(result)) return askedOf(result, method, own, paused) as never;
        return (isCacheable(method) ? forwardedWithHints(result, ttlMs) : result) as never;
      } catch (err) {
        throw protocolErrorOf(err);
      }
    };
    for (const method of ['resources/list', 'resources/templates/list', 'resources/read', 'prompts/list', 'prompts/get', 'completion/complete'] as const) {
      server.setRequestHandler(method, ((request: { params?: unknown }, ctx: ServerContext) => forward(method, request.params, ctx)) as never);
    }
  }
  return server;
}
