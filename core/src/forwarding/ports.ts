// What forwarding needs from the outside world: destinations (DestinationStore), the schedule of
// attempts (ForwardJobStore; its job records are webhooks/forward-job.ts's, as intake writes them in
// a delivery's commit), the run-time allowlist (ForwardAllowStore), a sender (OutboundSender), a
// sandbox for transforms (TransformSandbox) and circuits (CircuitStore).
import type { Page } from '../page.js';
import type { Destination } from './destination.js';
import type { TransformInput, TransformResult } from './transform.js';
import type { Circuit } from './circuit.js';
import type { ForwardJob, ForwardState, NewForwardJob } from '../webhooks/index.js';

export interface DestinationStore {
  create(destination: Destination): Promise<Destination>;
  /** The webhook's destinations, deleted ones only when asked. */
  list(hookId: string, options?: { includeDeleted?: boolean }): Promise<Destination[]>;
  get(hookId: string, id: string): Promise<Destination | undefined>;
  update(hookId: string, id: string, changes: Partial<Destination>): Promise<Destination | undefined>;
  /** Replaces the secret if it is still `expected` (false when another rotation came first). */
  rotate(hookId: string, id: string, expected: string, next: Pick<Destination, 'secret' | 'previous_secret' | 'previous_secret_until' | 'updated_at'>): Promise<boolean>;
}
export const DestinationStore = Symbol.for('switchyard.DestinationStore');

/** Which jobs a bulk retry re-forwards. */
export type RetrySelector = { state: 'dead' } | { from: string; to: string } | { entries: string[] };

/** How a claim shares itself among destinations: so one with a backlog does not take every slot. */
export interface ClaimShare {
  perDestination: number;
  /** Destinations whose sends in this process are at their share. */
  exclude: string[];
}

export interface ForwardJobStore {
  /**
   * Leases up to `limit` due jobs to `owner` until `leaseUntil`: no other claim returns them until
   * the lease ends. An ordered job waits while an earlier job of its destination is unfinished.
   * At most `share.perDestination` jobs of one destination, none of `share.exclude`'s.
   */
  claimDue(owner: string, now: number, leaseUntil: number, limit: number, share: ClaimShare): Promise<ForwardJob[]>;
  /** Writes an attempt's outcome and ends the lease; false when the lease was lost. */
  settle(job: ForwardJob, owner: string): Promise<boolean>;
  /** The jobs of these deliveries, in creation order. */
  forDeliveries(deliveries: string[]): Promise<ForwardJob[]>;
  /** A destination's dead jobs, oldest first, after the cursor. */
  dead(destination: string, after: string | null, limit: number): Promise<Page<ForwardJob>>;
  /**
   * Puts a destination's matching jobs back in the schedule, due now, with a fresh series; answers
   * how many. Dead ones; for `entries`, delivered ones too (sent again).
   */
  requeue(destination: string, selector: RetrySelector, now: number): Promise<number>;
}
export const ForwardJobStore = Symbol.for('switchyard.ForwardJobStore');

/** Allowlist entries the owner added at run time (beside the configuration's), shared by every process. */
export interface ForwardAllowStore {
  list(): Promise<Array<{ entry: string; created_at: string }>>;
  /** False when it was already listed. */
  add(entry: string, createdAt: string): Promise<boolean>;
  /** False when it was not listed. */
  remove(entry: string): Promise<boolean>;
}
export const ForwardAllowStore = Symbol.for('switchyard.ForwardAllowStore');

export type SendOutcome =
  | { kind: 'answered'; status: number; excerpt: string; duration_ms: number }
  | { kind: 'timeout'; duration_ms: number }
  | { kind: 'unreachable'; message: string; duration_ms: number }
  | { kind: 'blocked'; message: string; duration_ms: number }
  /** The destination's transform failed: nothing was sent (never a sender's answer). */
  | { kind: 'transform_failed'; message: string; duration_ms: number };

/**
 * Where transforms run (transform.ts says what one may do): away from the event loop and the
 * process, so that one that runs away is stopped (sandboxStopped) and the service goes on. Never
 * throws for anything the expression does.
 */
export interface TransformSandbox {
  evaluate(expression: string, input: TransformInput): Promise<TransformResult>;
  /** Stops its evaluators; the next evaluation starts them again. */
  close(): Promise<void>;
}
export const TransformSandbox = Symbol.for('switchyard.TransformSandbox');

/** Sends one POST. Never throws for anything the destination does. */
export interface OutboundSender {
  /** A header with several values is sent as several lines, in order. */
  post(url: string, headers: Record<string, string | string[]>, body: Uint8Array, timeoutMs: number): Promise<SendOutcome>;
  /** Null when the address policy admits the URL as far as can be told before sending, else why not. */
  refusal(url: string): Promise<string | null>;
  /** The run-time allowlist entries (replacing the last ones given), beside the configuration's. */
  admitAlso(entries: string[]): void;
}
export const OutboundSender = Symbol.for('switchyard.OutboundSender');

// Where destinations' circuits live: one process's memory (SQLite, a single process), or a table
// every process reads and changes atomically (PostgreSQL), so a circuit opened by one holds in all.
export interface CircuitStore {
  /** The circuits of these destinations as they are (closed for any never seen). */
  read(destinations: string[]): Promise<Map<string, Circuit>>;
  /**
   * Decides on one destination's circuit and keeps what `decide` makes of it, with no other change
   * in between (across processes when shared). `decide` gives back the same object to change nothing.
   */
  change<T>(destination: string, decide: (circuit: Circuit) => { result: T; next: Circuit }): Promise<T>;
}
export const CircuitStore = Symbol.for('switchyard.CircuitStore');
