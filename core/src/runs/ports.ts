// What a run needs from the outside world: the invocation ledger (InvocationStore), write-ahead
// reservations (RunReservations), Idempotency-Key claims (IdempotencyKeyStore) and the owner's
// decisions (ApprovalStore). Each port is an interface and a same-named token the composition root
// binds an adapter to.
import type { InvocationRecord, RepairLink, StoredInvocation } from './invocation.js';
import type { LedgerPageRequest } from '../ledger-paging.js';
import type { Page } from '../page.js';
import type { ApprovalRecord } from './approval-record.js';

// The invocation ledger's port: append, read, list and follow repair chains.
export interface InvocationStore {
  append(record: InvocationRecord): Promise<StoredInvocation>;
  get(id: string): Promise<StoredInvocation | undefined>;
  /** Invocations (of one capability key when `key` is given) in the ledger listings' order. */
  list(options: LedgerPageRequest & { key?: string }): Promise<Page<StoredInvocation>>;
  /** Every invocation that repairs `id`, directly or down a chain of repairs, in append order. */
  repairChain(id: string): Promise<RepairLink[]>;
}
export const InvocationStore = Symbol.for('switchyard.InvocationStore');

// The write-ahead port: a run is reserved durably before its runner is called, and the reservation
// is let go once the run's outcome is in the ledger. A reservation outlives its process: one whose
// holder stopped renewing it (the process died, or could not write the outcome) lapses, and the
// record it holds (the run as `interrupted`, see interrupted-runs.ts) is appended in its place.
export interface RunReservations {
  /**
   * Durably reserves a run; rejects (nothing reserved) when the database cannot take the write, and
   * with repair_in_progress (see repairInFlight) when the run repairs a failure that
   * another reserved run already repairs: one repair per failure at a time, across processes.
   */
  begin(interrupted: InvocationRecord): Promise<void>;
  /** The run's outcome is in the ledger: the reservation goes (lazily; a leftover is swept). */
  end(id: string): void;
  /** The outcome could not be written: stop renewing, so the reservation lapses and is swept. */
  abandon(id: string): void;
  /** Reservations whose lease lapsed (their holder is gone or gave up), oldest first: id and held record. */
  lapsed(limit: number): Promise<InvocationRecord[]>;
  /** Whether a run is reserved (in flight in some process, or waiting to be swept). */
  isReserved(id: string): Promise<boolean>;
  /** Removes a reservation once its run is in the ledger one way or the other. */
  drop(id: string): Promise<void>;
  /**
   * Renews this process's reservations on a timer (every third of the lease) until stopRenewing:
   * a reservation lapses only when its holder is gone, or gave it up.
   */
  startRenewing(onError: (err: unknown) => void): void;
  stopRenewing(): void;
}
export const RunReservations = Symbol.for('switchyard.RunReservations');

// The Idempotency-Key port: one claim per key and credential, shared by every process through the
// database, naming the run it started.
export interface IdempotencyClaim {
  /** Whose key it is: the credential (see idempotency.ts). */
  scope: string;
  key: string;
  /** sha256:… of the canonical request the key was first sent with. */
  request_hash: string;
  /** The invocation the claim's run has (or will have) in the ledger. */
  invocation: string;
  /** Until when (ms) a claim whose run is not yet reserved counts as in progress. */
  lease_until: number;
  /** When the key was first used (ms); it is remembered for 24 h from then. */
  created_at: number;
}

export interface IdempotencyKeyStore {
  /** Claims the key; answers null when this claim is now the key's, else the claim already there. */
  claim(claim: IdempotencyClaim): Promise<IdempotencyClaim | null>;
  /** Replaces the claim naming `from` with `to` (a retry of a run that never ran, or a forgotten key); false if another got there first. */
  takeOver(from: IdempotencyClaim, to: IdempotencyClaim): Promise<boolean>;
  /** Ends the claim's lease: its request failed before it became a run, so a retry need not wait. */
  release(claim: IdempotencyClaim): Promise<void>;
  /** Deletes up to `limit` claims first used at or before `cutoff` (ms), oldest first; answers how many went. */
  forgetUsedBy(cutoff: number, limit: number): Promise<number>;
}
export const IdempotencyKeyStore = Symbol.for('switchyard.IdempotencyKeyStore');

// The approvals' port: one decision per waiting invocation.
export interface ApprovalStore {
  /** Records a decision; an invocation is decided once (already_decided otherwise, atomically). */
  decide(record: ApprovalRecord): Promise<void>;
  get(invocation: string): Promise<ApprovalRecord | undefined>;
  /** Invocations awaiting approval with no decision yet, newest first. */
  pending(limit: number): Promise<StoredInvocation[]>;
}
export const ApprovalStore = Symbol.for('switchyard.ApprovalStore');
