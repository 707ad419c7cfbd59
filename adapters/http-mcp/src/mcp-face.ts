// What every MCP face (/mcp, /mcp/servers/<name>, /mcp/v/<name>, a session's stream) shares: the
// credential check with its OAuth challenge, the caller's tools, JSON-RPC answers to bad bodies, and
// answering one POST with a fresh SDK server for the caller. The routes of each face use these.
import { type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import type { Server as ModernServer } from '@modelcontextprotocol/server';
import { capabilitiesOf, holderOf, isInitialize, type Holder, type PausedCalls, type SessionIds, type CallerExchange, type CallerSessions, type CallerTools, type ModernMcpServerOptions, type ServerFace, type SwitchyardMcpServerOptions } from '@switchyard/mcp';
import { SwitchyardError, checkIdempotencyKey, mayInvoke } from '@switchyard/core';
import { credentialOf, declareAccess, presentedTo, storageFailure, type Credential } from '@switchyard/http-kit';
import { metadataUrlOf, requestResource } from '@switchyard/http-kit';
import { baseUrlOf } from '@switchyard/http-kit';
import type { Needs } from '@switchyard/http-kit';
import { serveMcp, serveModernMcp } from './mcp-transport.js';
import { isModernRequest } from './mcp-era.js';
import type { CallerListens, ListenFace } from './mcp-listen.js';

/** What this module uses of the HTTP context: it receives nothing else. */
export type McpCtx = Needs<'access' | 'apiKeys' | 'blobs' | 'bodyLimitBytes' | 'dispatch' | 'idempotentRuns' | 'logger' | 'mcp' | 'publicBaseUrl' | 'registry' | 'storageFailures' | 'tokenUses' | 'tokens' | 'upstreams'>;
type Ctx = McpCtx;

export const MCP_VERSION = '0.1.0';

/** What the MCP faces are called in their refusals. */
const SERVING = 'the MCP server';

/** The tools of one request's credential (owner or token; the public credential never gets here). */
export function callerTools(req: Request, ctx: Ctx, cred: Exclude<Credential, { kind: 'public' }>): CallerTools {
  return {
    list() {
      // Listing is not a use of the token (nothing runs), so no token use is recorded per key.
      // Keyless tokens would only ever be refused an auth-required run: not offered as tools.
      return ctx.registry.list().filter((c) => mayInvoke(cred, c));
    },
    async call(key, args, live, idempotencyKey) {
      try {
        // registry.require throws unknown_capability with did_you_mean before any token use.
        // A tool name matches its key in any letter case; the move and the record use the registered key.
        const { capability } = ctx.registry.require(key);
        const { caller } = await ctx.access.admitRun(req, cred, SERVING, capability);
        const request = { key: capability.key, body: args, source: 'mcp', ...live };
        if (idempotencyKey === undefined) return await ctx.dispatch.dispatch(request, caller);
        // The same rules as POST /api/dispatch's Idempotency-Key (core/src/runs/idempotency.ts), bound to the key and arguments.
        const answer = await ctx.idempotentRuns.run(caller, checkIdempotencyKey(idempotencyKey), { key: capability.key, body: args }, (id) => ctx.dispatch.dispatch({ ...request, id }, caller));
        return answer.ran ?? { capability, invocation: answer.replayed };
      } catch (err) {
        // A database that did not serve the call: storage_unavailable, as on every face, never an internal error.
        const storage = storageFailure(err, ctx.storageFailures);
        if (storage) throw storage;
        // The client only sees "internal error" for these; the log keeps the cause, as the error middleware does.
        if (!SwitchyardError.is(err)) ctx.logger.error('unhandled error', { path: req.path, tool: key, error: (err as Error)?.stack ?? String(err) });
        throw err;
      }
    },
  };
}

/** Stateless mode has no stream to open (GET) or session to end (DELETE): 405, as the SDK's examples answer. */
export const methodNotAllowed: RequestHandler = declareAccess({ kind: 'public', why: 'answers 405: a stateless server has no stream to open' }, (_req, res) => {
  res.status(405).set('allow', 'POST').json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; send JSON-RPC by POST' }, id: null });
});

/**
 * A request naming a session the service did not issue (its id does not verify: forged, or from
 * before the service's keys changed), or one its holder ended (DELETE), is answered 404, as the
 * spec has it for an unknown or terminated session: the client then starts a new one. An id issued
 * to another credential is scope_denied (403). True when it answered. Any process can tell, as the
 * id authenticates itself (session-ids.ts): nothing is looked up.
 */
export function refusedSession(req: Request, res: Response, ids: SessionIds, sessions: CallerSessions): boolean {
  const sessionId = req.get('mcp-session-id');
  if (sessionId === undefined) return false;
  const holder = holderOf(mcpCaller(res));
  const issued = ids.check(sessionId, holder.share.key);
  if (issued === 'another') throw new SwitchyardError('scope_denied', 'this MCP session was opened with another credential', {});
  if (issued === 'ours' && !sessions.hasEnded(sessionId, holder)) return false;
  const why = issued === 'unknown' ? 'the service did not issue this session id' : 'this session was ended (DELETE)';
  res.status(404).json({ jsonrpc: '2.0', error: { code: -32001, message: `Session not found: ${why}; start a new one with initialize` }, id: null });
  return true;
}

/** Forwarded requests an upstream may answer by asking the caller first (elicitation, sampling). */
const FORWARDED_ASKING = new Set(['prompts/get', 'resources/read']);

/**
 * A tools/call answered as a stream (SSE) rather than one JSON body: when the caller asked for
 * progress or log messages, or its client can be asked things (elicitation, sampling) while the
 * call runs; a forwarded prompts/get or resources/read too when it can be asked.
 */
function streams(body: unknown, sessionId: string | undefined, logging: boolean): boolean {
  const messages = Array.isArray(body) ? body : [body];
  const caps = capabilitiesOf(sessionId);
  return messages.some((m) => {
    if (typeof m !== 'object' || m === null) return false;
    const method = (m as { method?: unknown }).method;
    if (typeof method === 'string' && FORWARDED_ASKING.has(method)) return caps.elicitation || caps.sampling;
    if (method !== 'tools/call') return false;
    const meta = ((m as { params?: { _meta?: { progressToken?: unknown } } }).params ?? {})._meta;
    return meta?.progressToken !== undefined || logging || caps.elicitation || caps.sampling;
  });
}

/**
 * A message as an RFC 6750 §3 error_description: printable ASCII without `"` and `\`. The message
 * may quote a token's own caveats, which any holder can write offline in any characters, and a
 * header refuses most of them (a 500 instead of the 401).
 */
const challengeText = (message: string): string => message.replace(/["\\]/g, "'").replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, '?');

/** Token problems an OAuth client answers by refreshing or asking again (RFC 6750 §3.1 invalid_token). */
const INVALID_TOKEN = new Set(['token_corrupted', 'token_expired', 'token_revoked', 'token_wrong_resource']);
/** Whether a POST body is one request for `method`. */
const asksOnly = (body: unknown, method: string): boolean => typeof body === 'object' && body !== null && !Array.isArray(body) && (body as { method?: unknown }).method === method && (body as { id?: unknown }).id !== undefined;

/** Whether a POST body (one message or a batch) holds a request for `method`. */
function asks(body: unknown, method: string): boolean {
  return (Array.isArray(body) ? body : [body]).some((m) => typeof m === 'object' && m !== null && (m as { method?: unknown }).method === method);
}

/**
 * The credential is decided before the body is read or any MCP processing: a bad key or token is
 * our coded 401, and so is no credential at all (tools are for callers who may invoke). Every such
 * 401 says `WWW-Authenticate: Bearer` with where this resource's metadata is (RFC 9728 §5.1) and the
 * scope to ask for, as MCP clients expect; a bad token adds error="invalid_token".
 */
export const mcpCredential = (ctx: Ctx): RequestHandler => declareAccess({ kind: 'run', what: SERVING }, async (req, res, next) => {
  const { resource, path } = requestResource(req, ctx);
  const base = baseUrlOf(req, ctx.publicBaseUrl);
  const challenge = `Bearer resource_metadata="${metadataUrlOf(base, path)}", scope="invoke:*"`;
  res.set('www-authenticate', challenge);
  presentedTo(req, resource);
  let cred: Credential;
  try {
    cred = await credentialOf(req, ctx);
  } catch (err) {
    if (SwitchyardError.is(err) && INVALID_TOKEN.has(err.code)) res.set('www-authenticate', `${challenge}, error="invalid_token", error_description="${challengeText(err.message)}"`);
    throw err;
  }
  // Tools are for callers who may run them: the public credential is refused here, judged by the policy.
  await ctx.access.admitRun(req, cred, SERVING, null);
  res.removeHeader('www-authenticate');
  res.locals['credential'] = cred;
  next();
});

/** A body that is not JSON, or too large, is a JSON-RPC error (-32700 parse error, -32600 too large), not our envelope. */
export const mcpBodyErrors: ErrorRequestHandler = (err, _req, res, next) => {
  const type = (err as { type?: string }).type;
  if (type === 'entity.parse.failed') {
    res.status(400).json({ jsonrpc: '2.0', error: { code: -32700, message: `Parse error: ${(err as Error).message}`, data: { code: 'invalid_request' } }, id: null });
  } else if (type === 'entity.too.large') {
    const limit = (err as { limit?: number }).limit;
    res.status(413).json({ jsonrpc: '2.0', error: { code: -32600, message: `Invalid Request: body larger than ${limit} bytes`, data: { code: 'payload_too_large', limit } }, id: null });
  } else next(err);
};

/** The caller's credential, once mcpCredential let the request through. */
export const mcpCaller = (res: { locals: Record<string, unknown> }) => res.locals['credential'] as Exclude<Credential, { kind: 'public' }>;

/** What every face's server shares for one request: the caller, its session, the exchange and its log level. */
export type FaceOptions = Pick<SwitchyardMcpServerOptions, 'baseUrl' | 'version' | 'blobs' | 'exchange' | 'session' | 'pageSize' | 'logging'> & { holder: Holder };

/** What every face's 2026-07-28 server shares for one request. */
export type ModernFaceOptions = Pick<ModernMcpServerOptions, 'baseUrl' | 'version' | 'blobs' | 'pageSize' | 'cacheTtlMs' | 'paused'>;

/**
 * Answers one MCP POST on any face. A 2026-07-28 request goes to `buildModern`'s server (stateless
 * by the revision's design: no session; only a run paused for the caller's input is kept, in `paused`). Otherwise, in the 2025 era: answers to our
 * questions and withdrawn calls go to the exchange; `build` makes the face's server for this
 * caller (built only when the request needs it: see serveMcp), answered as JSON, or as a stream when the call may send progress or ask the caller something.
 */
export async function answerMcp(req: Request, res: Response, ctx: Ctx, exchange: CallerExchange, sessions: CallerSessions, ids: SessionIds, build: (options: FaceOptions) => ServerFace, buildModern: (options: ModernFaceOptions) => ModernServer, paused: PausedCalls, listen: { listens: CallerListens; face: Omit<ListenFace, 'version'> }): Promise<void> {
  if (isModernRequest(req)) {
    // A stream that outlives the request: answered by hand (mcp-listen.ts says why), after the SDK's checks.
    if (asksOnly(req.body, 'subscriptions/listen')) return listen.listens.serve(req, res, holderOf(mcpCaller(res)), { ...listen.face, version: MCP_VERSION });
    // A run waiting for this caller's input is bound to its credential (the requestState says whose).
    const calls = { calls: paused, holder: holderOf(mcpCaller(res)) };
    await serveModernMcp(buildModern({ baseUrl: baseUrlOf(req, ctx.publicBaseUrl), version: MCP_VERSION, blobs: ctx.blobs, pageSize: ctx.mcp.pageSize, cacheTtlMs: ctx.mcp.cacheTtlMs, paused: calls }), req, res);
    return;
  }
  // An initialize starts a new session whatever id it names; every other request's id must be ours.
  if (!isInitialize(req.body) && refusedSession(req, res, ids, sessions)) return;
  const sessionHeader = req.get('mcp-session-id');
  const holder = holderOf(mcpCaller(res));
  if (exchange.intercept(req.body, sessionHeader)) {
    res.status(202).end();
    return;
  }
  // The session id carries what the caller's client declared; a log level it sets is kept below.
  const sessionId = isInitialize(req.body) ? ids.issue(req.body.params, holder.share.key) : sessionHeader;
  if (isInitialize(req.body)) res.setHeader('mcp-session-id', sessionId!);
  // The log level a session set is kept in this process (bounded); without a session it cannot be kept.
  const level = sessions.levelOf(sessionId, holder);
  // Logging is declared and answered where it matters (building it costs every request otherwise):
  // at initialize, for setLevel, and for the calls of a session that set a level.
  const logging = level !== undefined || isInitialize(req.body) || asks(req.body, 'logging/setLevel');
  const face = build({
    holder,
    ...(logging ? { logging: { level, setLevel: (l) => sessionId !== undefined && sessions.setLevel(sessionId, holder, l) } } : {}),
    baseUrl: baseUrlOf(req, ctx.publicBaseUrl),
    version: MCP_VERSION,
    blobs: ctx.blobs,
    exchange,
    pageSize: ctx.mcp.pageSize,
    ...(sessionId ? { session: { id: sessionId, capabilities: capabilitiesOf(sessionId) } } : {}),
  });
  await serveMcp(face, req, res, { json: !streams(req.body, sessionHeader, level !== undefined) });
}
