// Runs that wait for their 2026-07-28 caller's input. An upstream that asks mid-call (2025
// elicitation or sampling, or a 2026 InputRequiredResult its connection fulfils through us) keeps
// its call open; the caller is answered InputRequiredResult and retries with the answers, which go
// to the waiting call. The call lives in the process that started it, so a retry must reach that
// process; the requestState names the process, and any other refuses it clearly. One per process,
// bounded by the fair-share rule (core's fair-share.ts: each credential's share, and a reserve
// keyless credentials cannot take): a run that would pause past it is withdrawn (session_limit), and shutdown
// withdraws every paused run, so each ends recorded as cancelled rather than cut off.
import { randomBytes } from 'node:crypto';
import { ShareCounts, SwitchyardError, shareRefusalText, type ProgressStep } from '@switchyard/core';
import type { Holder } from './caller-sessions.js';
import type { RequestStateClaims, RequestStateSeal } from './request-state-seal.js';

/** A question the run's upstream asked, as it goes into InputRequiredResult.inputRequests. */
export interface InputQuestion {
  key: string;
  method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list';
  params: Record<string, unknown>;
}

/** What a round of a run came to: its outcome, or the questions that pause it. */
export type RoundStep<T> = { done: true; outcome: T } | { done: false; questions: InputQuestion[] };

/** How long a paused run waits for its caller's retry before it is withdrawn (ten minutes). */
export const DEFAULT_PAUSE_TTL_MS = 10 * 60_000;

/** How many runs may wait for their callers' input in one process, and for one credential. */
export interface PausedCallLimits {
  /** Paused runs in this process (mcp.pausedCalls.max). */
  max: number;
  /** Paused runs of one credential (mcp.pausedCalls.maxPerCredential). */
  maxPerCredential: number;
  /** The part of max (0 to below 1) keyless credentials together may not take (mcp.sessions.keyedReserve). */
  keyedReserve: number;
  /** How long a paused run waits for its caller's retry (mcp.pausedCalls.ttlMs). */
  ttlMs: number;
}

export const DEFAULT_PAUSED_CALL_LIMITS: PausedCallLimits = { max: 1000, maxPerCredential: 32, keyedReserve: 0.25, ttlMs: DEFAULT_PAUSE_TTL_MS };

/** Where the paused calls' fair share is configured, for their refusals. */
const SHARE_CONFIG = { perCredential: 'mcp.pausedCalls.maxPerCredential', reserve: 'mcp.sessions.keyedReserve', total: 'mcp.pausedCalls.max' };

/** How long shutdown waits for withdrawn runs to record their end. */
const SHUTDOWN_WAIT_MS = 5000;

interface Asked extends InputQuestion {
  resolve(result: Record<string, unknown>): void;
  reject(error: Error): void;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export class PausedRun<T> {
  readonly id = randomBytes(12).toString('base64url');
  /** The round the caller is asked to answer (0 until the run first pauses). */
  round = 0;
  /** Whether the current round waits for an answer (a retry consumes it, so a replay finds none). */
  awaiting = false;
  /** Where progress goes: the request of the current round, when it gave a progress token. */
  progress: ((step: ProgressStep) => void) | undefined;
  private readonly controller = new AbortController();
  private asked: Asked[] = [];
  private asks = 0;
  private settled: { outcome: T } | { error: unknown } | undefined;
  private wake: (() => void) | undefined;
  /** Settles when the run has ended (its record written), whatever its outcome. */
  ended: Promise<void> = Promise.resolve();

  constructor(
    readonly holder: Holder,
    readonly tool: string,
    readonly args: string,
  ) {}

  /** Aborted when the caller withdraws the call or never comes back for it. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  start(outcome: Promise<T>): void {
    this.ended = outcome.then(
      (value) => void (this.settled = { outcome: value }),
      (error: unknown) => void (this.settled = { error }),
    ).finally(() => this.wake?.());
  }

  /** What the run's channel calls when its upstream asks: resolves with the caller's answer. */
  ask(method: InputQuestion['method'], params: Record<string, unknown>, upstreamKey?: string): Promise<Record<string, unknown>> {
    if (this.signal.aborted) return Promise.reject(new Error(`the call was withdrawn before the caller answered ${method}`));
    return new Promise((resolve, reject) => {
      // The upstream's own key when it gave one (unique within the round), else ours.
      this.asks += 1;
      const taken = upstreamKey !== undefined && this.asked.some((q) => q.key === upstreamKey);
      const key = upstreamKey !== undefined && !taken ? upstreamKey : `${method.split('/')[0]}-${this.asks}`;
      this.asked.push({ key, method, params, resolve, reject });
      this.wake?.();
    });
  }

  /** Waits for the run to end or to ask; questions asked together (one upstream round) go out together. */
  async next(): Promise<RoundStep<T>> {
    for (;;) {
      if (this.asked.length > 0) {
        await new Promise((resolve) => setImmediate(resolve));
        return { done: false, questions: this.asked.map(({ key, method, params }) => ({ key, method, params })) };
      }
      const settled = this.settled;
      if (settled) {
        if ('error' in settled) throw settled.error;
        return { done: true, outcome: settled.outcome };
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }

  /** The keys of the current questions that `responses` leaves unanswered. */
  missing(responses: Record<string, unknown>): string[] {
    return this.asked.filter((q) => !isObject(responses[q.key])).map((q) => q.key);
  }

  /** Hands every answer to the upstream waiting for it; the round is consumed. */
  answer(responses: Record<string, unknown>): void {
    const asked = this.asked;
    this.asked = [];
    this.awaiting = false;
    for (const q of asked) q.resolve(responses[q.key] as Record<string, unknown>);
  }

  /** The caller went away or never retried: the questions fail and the run is cancelled. */
  withdraw(reason: string): void {
    const asked = this.asked;
    this.asked = [];
    this.awaiting = false;
    for (const q of asked) q.reject(new Error(reason));
    // The reason rides on the abort, so the run's record says why it was cancelled.
    this.controller.abort(new CallWithdrawn(reason));
  }
}

/** Why a paused run was cancelled: its caller withdrew it, never came back, or it could not be kept. */
export class CallWithdrawn extends Error {
  override readonly name = 'CallWithdrawn';
}

/** Why a requestState that verified finds no call to resume (answered as the spec's -32602). */
export class RequestStateRefused extends Error {}

export class PausedCalls {
  /** Names this process inside the states it mints. */
  readonly process = randomBytes(6).toString('base64url');
  private readonly runs = new Map<string, { run: PausedRun<unknown>; timer: NodeJS.Timeout }>();
  /** Paused runs per credential and keyless pool, for their fair shares. */
  private readonly shares = new ShareCounts();
  /** How long a paused run waits for its caller's retry (mcp.pausedCalls.ttlMs). */
  readonly ttlMs: number;
  private closed = false;

  constructor(
    readonly seal: RequestStateSeal,
    private readonly limits: PausedCallLimits = DEFAULT_PAUSED_CALL_LIMITS,
    private readonly now: () => number = Date.now,
  ) {
    this.ttlMs = limits.ttlMs;
  }

  /** Paused runs now held (for tests and metrics). */
  get size(): number {
    return this.runs.size;
  }

  begin<T>(holder: Holder, tool: string, args: string): PausedRun<T> {
    return new PausedRun<T>(holder, tool, args);
  }

  /**
   * Pauses the run for a new round: the requestState its caller echoes to answer it. Past the
   * limits (or while shutting down) the run is withdrawn instead, its questions unanswered, and
   * session_limit thrown: the caller is told, the upstream is cancelled, the run is recorded as such.
   */
  pause(run: PausedRun<unknown>): string {
    if (!this.runs.has(run.id)) {
      const refusal = this.refusalFor(run.holder);
      if (refusal) {
        run.withdraw(refusal.why);
        throw new SwitchyardError('session_limit', refusal.why, { limit: refusal.limit });
      }
      this.shares.add(run.holder.share);
    }
    run.round += 1;
    run.awaiting = true;
    return this.keep(run);
  }

  /** Why a new run of `holder` may not pause now, with the limit it met; null when it may. */
  private refusalFor(holder: Holder): { why: string; limit: number } | null {
    if (this.closed) return { why: 'this service process is shutting down; retry the call on another', limit: 0 };
    const refusal = this.shares.refusal(holder.share, { total: this.limits.max, perCredential: this.limits.maxPerCredential, keyedReserve: this.limits.keyedReserve });
    if (!refusal) return null;
    return { why: `${shareRefusalText(refusal, 'calls waiting for their callers\' input', SHARE_CONFIG)}; answering or withdrawing one makes room`, limit: refusal.limit };
  }

  /** The same round asked again (the retry left some question unanswered): a fresh expiry. */
  askAgain(run: PausedRun<unknown>): string {
    run.awaiting = true;
    return this.keep(run);
  }

  private keep(run: PausedRun<unknown>): string {
    const previous = this.runs.get(run.id);
    if (previous) clearTimeout(previous.timer);
    const timer = setTimeout(() => {
      if (this.runs.get(run.id)?.run !== run || !run.awaiting) return;
      this.forget(run);
      run.withdraw(`the caller did not answer within ${this.ttlMs} ms`);
    }, this.ttlMs);
    timer.unref();
    this.runs.set(run.id, { run, timer });
    const claims: RequestStateClaims = { run: run.id, round: run.round, process: this.process, tool: run.tool, args: run.args, exp: this.now() + this.ttlMs };
    return this.seal.seal(claims, run.holder.id);
  }

  /** The run a verified state's retry answers; refuses a state from another process, another call, or a round already answered. */
  resume(claims: RequestStateClaims, tool: string, args: string): PausedRun<unknown> {
    if (claims.process !== this.process) {
      throw new RequestStateRefused('this call waits in another service process: a retry must reach the process that answered input_required (route a 2026-07-28 tools/call by its credential and Mcp-Name, as deploy/nginx.conf does)');
    }
    if (claims.tool !== tool || claims.args !== args) throw new RequestStateRefused('this requestState was issued for another tool call (name or arguments differ)');
    const kept = this.runs.get(claims.run)?.run;
    if (!kept || kept.round !== claims.round || !kept.awaiting) throw new RequestStateRefused('no call waits on this requestState: its round was answered already (a replay), or the call ended or expired');
    kept.awaiting = false;
    return kept;
  }

  /** The run ended: nothing is kept for it. */
  end(run: PausedRun<unknown>): void {
    this.forget(run);
  }

  /**
   * Shutdown: no run pauses any more, and every paused one is withdrawn (its upstream told, its
   * record written as cancelled) before the connections and the database close; waits for those
   * records, at most a few seconds.
   */
  async close(): Promise<void> {
    this.closed = true;
    const runs = [...this.runs.values()].map(({ run }) => run);
    for (const run of runs) {
      this.forget(run);
      run.withdraw('this service process is shutting down');
    }
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, SHUTDOWN_WAIT_MS)));
    await Promise.race([Promise.all(runs.map((r) => r.ended)), waited]);
    clearTimeout(timer);
  }

  private forget(run: PausedRun<unknown>): void {
    const kept = this.runs.get(run.id);
    if (kept?.run !== run) return;
    clearTimeout(kept.timer);
    this.runs.delete(run.id);
    this.shares.remove(run.holder.share);
  }
}
