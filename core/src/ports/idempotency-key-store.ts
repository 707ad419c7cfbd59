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
