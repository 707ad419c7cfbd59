// A forwarded request (prompts/get, resources/read) that a 2026-07-28 upstream answers with
// InputRequiredResult, for a 2026-07-28 caller: passed through as it is. The caller answers the
// questions and retries; the retry's inputResponses go to the upstream unchanged, and so does the
// upstream's requestState, which the caller holds sealed inside ours (our face verifies every
// requestState it is given, and binds it to the caller's credential and to the same request).
//
// Why not a paused run, as for tools/call: a forwarded request is no run (nothing is recorded), so
// there is nothing to pause, and the upstream's own state already says where it stands. Left to the
// v2 client SDK, request() would fulfil the questions itself through the connection's handlers,
// which ask the caller of a call in flight: there is none, so the questions would fail. So the
// upstream client sends a 2026 caller's forwarded requests with allowInputRequired, and this file
// carries the rounds, statelessly: any service process with the shared key can take the retry.
import { ProtocolError, type ServerContext } from '@modelcontextprotocol/server';
import type { PausedCalls } from './paused-calls.js';
import type { Holder } from './caller-sessions.js';
import { argumentsDigest, type RequestStateClaims } from './request-state-seal.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The retry fields for the upstream: the caller's answers and the upstream's requestState (from ours, checked). */
export function retryFieldsOf(ctx: ServerContext, method: string, params: Record<string, unknown>): Record<string, unknown> {
  const claims = ctx.mcpReq.requestState<RequestStateClaims>();
  const fields: Record<string, unknown> = {};
  if (claims) {
    // Ours, unexpired, for this credential (verified before the handler); it must be one we minted for this same request.
    if (claims.upstream === undefined || claims.tool !== method || claims.args !== argumentsDigest(params)) {
      throw new ProtocolError(-32602, 'Invalid or expired requestState: it was issued for another request (method or params differ)', { reason: 'invalid_request_state', code: 'invalid_request_state' });
    }
    fields['requestState'] = claims.upstream;
  }
  if (ctx.mcpReq.inputResponses !== undefined) fields['inputResponses'] = ctx.mcpReq.inputResponses;
  return fields;
}

/** Whether an upstream's answer is an InputRequiredResult (its questions for the caller). */
export const asksForInput = (result: Record<string, unknown>): boolean => result['resultType'] === 'input_required';

/**
 * The upstream's InputRequiredResult as the caller gets it: its questions as they are, its
 * requestState sealed in ours (none given, none sent). Without paused calls this face mints no
 * requestState, so an upstream state cannot be carried: refused with a coded error rather than
 * handed out to be refused on the retry.
 */
export function askedOf(result: Record<string, unknown>, method: string, params: Record<string, unknown>, paused: { calls: PausedCalls; holder: Holder } | undefined): Record<string, unknown> {
  const inputRequests = isObject(result['inputRequests']) ? result['inputRequests'] : undefined;
  const theirs = typeof result['requestState'] === 'string' ? result['requestState'] : undefined;
  if (theirs === undefined) return { resultType: 'input_required', ...(inputRequests ? { inputRequests } : {}) };
  if (!paused) throw new ProtocolError(-32603, `the upstream asked for input on ${method}, and this face cannot carry its requestState`, { code: 'input_unsupported' });
  const claims: RequestStateClaims = { run: '', round: 0, process: '', tool: method, args: argumentsDigest(params), exp: Date.now() + paused.calls.ttlMs, upstream: theirs };
  return { resultType: 'input_required', ...(inputRequests ? { inputRequests } : {}), requestState: paused.calls.seal.seal(claims, paused.holder.id) };
}
