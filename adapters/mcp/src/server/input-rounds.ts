// The rounds of a 2026-07-28 tools/call whose upstream asks its caller something: the first
// request starts the run with a channel that can ask, and each request (the first, then each
// retry) answers what the run came to: its result, or InputRequiredResult with the questions and
// a requestState naming the paused run. A retry's answers go to the upstream waiting for them.
import { ProtocolError, type CallToolResult, type ServerContext } from '@modelcontextprotocol/server';
import type { BlobStore, DispatchOutcome, LiveCall } from '@switchyard/core';
import { RequestStateRefused, type PausedCalls, type PausedRun } from './paused-calls.js';
import type { RequestStateClaims } from './request-state-seal.js';
import type { Holder } from './caller-sessions.js';
import { toolResultOf } from './switchyard-mcp-server.js';

/** What a round needs: the paused calls, the caller's credential, the request answering it. */
export interface RoundContext {
  calls: PausedCalls;
  holder: Holder;
  ctx: ServerContext;
  baseUrl: string;
  blobs: Pick<BlobStore, 'get'> | undefined;
}

type Run = PausedRun<DispatchOutcome>;

/** The spec's answer to a requestState that cannot be honoured: -32602, as the SDK's verify seam answers it. */
const refused = (why: string): ProtocolError => new ProtocolError(-32602, `Invalid or expired requestState: ${why}`, { reason: 'invalid_request_state', code: 'invalid_request_state' });

/** Starts a run whose channel asks the caller what its client declared (elicitation, sampling). */
export function startAsking(round: RoundContext, tool: string, args: string, declared: { elicitation: boolean; sampling: boolean; roots: boolean }, call: (live: LiveCall) => Promise<DispatchOutcome>): Run {
  const run = round.calls.begin<DispatchOutcome>(round.holder, tool, args);
  run.start(
    call({
      signal: run.signal,
      channel: {
        progress: (step) => run.progress?.(step),
        ...(declared.elicitation ? { elicit: (params, key) => run.ask('elicitation/create', params, key) } : {}),
        ...(declared.sampling ? { sample: (params, key) => run.ask('sampling/createMessage', params, key) } : {}),
        ...(declared.roots ? { listRoots: (params, key) => run.ask('roots/list', params, key) } : {}),
      },
    }),
  );
  return run;
}

/**
 * Waits for the run to end or to ask, on behalf of this round's request. The request's progress
 * token gets the run's progress meanwhile; the request withdrawn (closed, cancelled) withdraws the run.
 */
export async function answerRound(round: RoundContext, run: Run): Promise<CallToolResult> {
  const { ctx } = round;
  const token = ctx.mcpReq._meta?.progressToken;
  const sent: Promise<unknown>[] = [];
  run.progress = token === undefined ? undefined : (step) => void sent.push(ctx.mcpReq.notify({ method: 'notifications/progress', params: { ...step, progressToken: token } }).catch(() => {}));
  const withdraw = () => run.withdraw('the caller withdrew the call');
  ctx.mcpReq.signal.addEventListener('abort', withdraw, { once: true });
  try {
    const step = await run.next();
    if (step.done) {
      round.calls.end(run);
      await Promise.allSettled(sent);
      return await toolResultOf(step.outcome, round.baseUrl, round.blobs);
    }
    const requestState = round.calls.pause(run);
    const inputRequests = Object.fromEntries(step.questions.map((q) => [q.key, { method: q.method, params: q.params }]));
    return { resultType: 'input_required', inputRequests, requestState } as unknown as CallToolResult;
  } catch (err) {
    round.calls.end(run);
    throw err;
  } finally {
    run.progress = undefined;
    ctx.mcpReq.signal.removeEventListener('abort', withdraw);
  }
}

/** A retry with a verified requestState: its answers go to the waiting run, then the next round is answered. */
export async function resumeRound(round: RoundContext, claims: RequestStateClaims, tool: string, args: string): Promise<CallToolResult> {
  let run: Run;
  try {
    run = round.calls.resume(claims, tool, args) as Run;
  } catch (err) {
    if (err instanceof RequestStateRefused) throw refused(err.message);
    throw err;
  }
  const responses = (round.ctx.mcpReq.inputResponses ?? {}) as Record<string, unknown>;
  const missing = run.missing(responses);
  if (missing.length > 0) {
    // The spec: ask again rather than fail; every question of the round, so one retry answers them all.
    const requestState = round.calls.askAgain(run);
    const step = await run.next();
    if (step.done) return answerRound(round, run);
    const inputRequests = Object.fromEntries(step.questions.map((q) => [q.key, { method: q.method, params: q.params }]));
    return { resultType: 'input_required', inputRequests, requestState } as unknown as CallToolResult;
  }
  run.answer(responses);
  return answerRound(round, run);
}
