// A forwarding attempt as an invocation of the webhook in the ledger: begun before it is sent
// (write-ahead), recorded with the destination's answer, or left interrupted if that never comes.
import { type InvocationRecord, INTERRUPTED_MESSAGE } from '../runs/index.js';
import { newInvocationId } from '../ids.js';
import { computeYield } from '../capabilities/index.js';
import type { Destination } from './destination.js';
import type { SendOutcome } from './ports.js';
import type { ForwardJob } from '../webhooks/index.js';

/** The key of forwarding attempts in the ledger (not a capability: nobody dispatches it). */
export const FORWARD_KEY = 'WEBHOOK_FORWARD';
export const FORWARD_PATH = 'webhook › forward';

/** The attempt before it is sent; `links` say what it repairs (a failed attempt) or replays (a delivered one). */
export function attemptRecord(job: ForwardJob, dst: Destination, started: Date, transformed: string | null, links: { repairs: string | null; replays: string | null }): InvocationRecord {
  // A transformed body is kept as sent: the delivery's own bytes are in its entry already.
  const args = { delivery: job.delivery, destination: dst.id, url: dst.url, attempt: job.attempts + 1, ...(transformed !== null ? { sent_body: transformed } : {}) };
  const bodyText = JSON.stringify(args);
  return {
    id: newInvocationId(),
    key: FORWARD_KEY,
    path: FORWARD_PATH,
    actor: `hook:${job.hook_id}`,
    fingerprint: null,
    body: bodyText,
    args,
    status: 'failed',
    ok: false,
    ran: false,
    error: null,
    result: null,
    yield: computeYield({ bodyText, resultText: '', ok: false, ran: false, cost: undefined, args }),
    repairs: links.repairs,
    replays: links.replays,
    source: `hook:${job.hook_id}/${job.delivery}`,
    created_at: started.toISOString(),
    duration_ms: 0,
    request_id: null,
  };
}

/** The attempt with its outcome, as appended to the ledger. */
export function outcomeRecord(attempt: InvocationRecord, outcome: SendOutcome, ok: boolean): InvocationRecord {
  const result = ok && outcome.kind === 'answered' ? { status: outcome.status, answer: outcome.excerpt } : null;
  const resultText = ok ? JSON.stringify(result) : '';
  const ran = outcome.kind !== 'blocked' && outcome.kind !== 'transform_failed';
  return {
    ...attempt,
    status: ok ? 'ok' : 'failed',
    ok,
    ran,
    error: ok ? null : errorOf(outcome),
    result,
    yield: computeYield({ bodyText: attempt.body, resultText, ok, ran, cost: undefined, args: attempt.args }),
    duration_ms: outcome.duration_ms,
  };
}

/** The attempt as recorded if its outcome never arrives: sent, outcome unknown. */
export const interruptedAttempt = (attempt: InvocationRecord): InvocationRecord => ({
  ...attempt,
  status: 'interrupted',
  ok: false,
  ran: true,
  error: { code: 'interrupted', message: INTERRUPTED_MESSAGE },
  yield: computeYield({ bodyText: attempt.body, resultText: '', ok: false, ran: true, cost: undefined, args: attempt.args }),
});

function errorOf(outcome: SendOutcome): InvocationRecord['error'] {
  switch (outcome.kind) {
    case 'answered':
      return { code: 'upstream_unavailable', message: `the destination answered ${outcome.status}`, status: outcome.status, answer: outcome.excerpt };
    case 'timeout':
      return { code: 'upstream_timeout', message: 'the destination did not answer in time' };
    case 'unreachable':
      return { code: 'upstream_unavailable', message: outcome.message };
    case 'blocked':
      return { code: 'blocked_address', message: outcome.message };
    case 'transform_failed':
      return { code: 'transform_failed', message: `the destination's transform failed: ${outcome.message}` };
  }
}
