// Which call an upstream's message belongs to. MCP does not say which call a log message or a server
// request (elicitation, sampling, roots) is about: each call in flight is registered on its
// connection, and a message is matched to the call whose async context it arrives in, else to the
// only call in flight on that connection. The matched call's caller is asked, its run gets the log.
import { AsyncLocalStorage } from 'node:async_hooks';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { SwitchyardError, type CallerChannel, type UpstreamLogEntry } from '@switchyard/core';
import type { UpstreamConnection } from './upstream-connection.js';

/** One tools/call (or forwarded request) in flight: where the upstream's messages about it go. */
export interface InFlightCall {
  channel: CallerChannel | undefined;
  onLog: ((entry: UpstreamLogEntry) => void) | undefined;
  /** Set when the upstream asked the caller something it cannot answer: the run fails with it. */
  unanswered: SwitchyardError | null;
  /** Set when the call's answer broke off (too large, or the connection closed mid-answer): the run fails with it at once. */
  broken: Error | null;
  fail(err: Error): void;
  /** The call's time limit stops while the caller is being asked (a person may take a while) and starts over once answered. */
  pauseClock(): void;
  resumeClock(): void;
}

/** What an upstream may ask a call's caller: elicitation/create or sampling/createMessage. */
export type CallerQuestion = 'elicit' | 'sample' | 'listRoots';

/**
 * MCP does not say which call a log message or a server request belongs to. Over streamable HTTP
 * it arrives on the call's own response stream, whose reading runs in the call's async context;
 * over stdio and SSE it belongs to the call when only one is in flight on that connection.
 */
export const currentCall = new AsyncLocalStorage<InFlightCall>();

/**
 * The legacy SSE transport answers every call on its connection's one event stream, opened while
 * connecting: when that stream breaks off (too large, or the upstream went away), every call in
 * flight on the connection has lost its answer and fails at once.
 */
export const currentStream = new AsyncLocalStorage<{ failAll(err: Error): void }>();

/** The calls in flight on each connection. */
export class InFlightCalls {
  private readonly byConnection = new WeakMap<UpstreamConnection, Set<InFlightCall>>();

  /** Registers `call` on `connection`; `untrack` takes it off (a call moved to a new connection is untracked from the old one first). */
  track(connection: UpstreamConnection, call: InFlightCall): void {
    let calls = this.byConnection.get(connection);
    if (!calls) this.byConnection.set(connection, (calls = new Set()));
    calls.add(call);
  }

  untrack(connection: UpstreamConnection, call: InFlightCall): void {
    this.byConnection.get(connection)?.delete(call);
  }

  /** The call a message from this connection belongs to: its own stream's, else the only one in flight. */
  callFor(connection: UpstreamConnection): InFlightCall | undefined {
    const scoped = currentCall.getStore();
    if (scoped) return scoped;
    const calls = this.byConnection.get(connection);
    return calls && calls.size === 1 ? [...calls][0] : undefined;
  }

  /** Every call in flight on the connection has lost its answer (its one event stream broke off). */
  failAll(connection: UpstreamConnection, err: Error): void {
    for (const call of this.byConnection.get(connection) ?? []) call.fail(err);
  }
}

/** An upstream's log message goes to the run of the call it belongs to, and to its caller when it asked for them. */
export function passLog(call: InFlightCall | undefined, entry: UpstreamLogEntry): void {
  call?.onLog?.(entry);
  call?.channel?.log?.(entry);
}

/**
 * Asks the caller of `call` (elicitation or sampling), its clock paused meanwhile; when it cannot
 * answer, the run fails with a coded reason and the upstream is told (`several`: the question may
 * have come while more than one call was in flight on the connection).
 */
export async function askCaller(kind: CallerQuestion, params: Record<string, unknown>, call: InFlightCall | undefined, several: boolean, key?: string): Promise<Record<string, unknown>> {
  const code = kind === 'elicit' ? 'elicitation_unsupported' : kind === 'sample' ? 'sampling_unsupported' : 'roots_unsupported';
  const what = kind === 'elicit' ? 'elicitation/create' : kind === 'sample' ? 'sampling/createMessage' : 'roots/list';
  const answer = call?.channel?.[kind];
  if (!answer) {
    const reason = call || !several
      ? `the upstream asked the caller for ${what}, which the caller's MCP client does not support`
      : `the upstream asked for ${what} while several calls were in flight on one connection; it cannot be told which caller to ask`;
    const error = new SwitchyardError(code, reason, { method: what });
    if (call) call.unanswered ??= error;
    throw new McpError(ErrorCode.MethodNotFound, reason);
  }
  call.pauseClock();
  try {
    return await answer(params, key);
  } finally {
    call.resumeClock();
  }
}
