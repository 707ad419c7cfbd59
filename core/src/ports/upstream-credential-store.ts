// The upstream credentials' port: one sealed (encrypted) record per upstream that signs in with
// OAuth, shared by every process, written by compare-and-swap, with a short lease so one process
// at a time refreshes a token.

/** What is stored for one upstream: the sealed record, its version, and the state shown to the owner. */
export interface StoredUpstreamCredentials {
  upstream: string;
  /** The encrypted record (client registration, tokens, a pending connection); opaque here. */
  sealed: string;
  /** Bumped by every write; a write names the version it read. */
  version: number;
  state: UpstreamAuthState;
  updatedAt: string;
}

/** connected: tokens stored; not_connected: the owner has not connected it yet; reconnect: the tokens were refused. */
export type UpstreamAuthState = 'connected' | 'not_connected' | 'reconnect';

export interface UpstreamCredentialStore {
  get(upstream: string): Promise<StoredUpstreamCredentials | undefined>;
  /** Writes when the stored version is still `expected` (null: nothing stored yet); false when another write came first. */
  put(upstream: string, sealed: string, state: UpstreamAuthState, expected: number | null): Promise<boolean>;
  /** Takes the upstream's refresh lease for `ms` unless another holder's lease is still running. */
  lease(upstream: string, holder: string, ms: number): Promise<boolean>;
  release(upstream: string, holder: string): Promise<void>;
  /** Every upstream's state, without the sealed records. */
  states(): Promise<Array<{ upstream: string; state: UpstreamAuthState; updatedAt: string }>>;
}
export const UpstreamCredentialStore = Symbol.for('switchyard.UpstreamCredentialStore');
