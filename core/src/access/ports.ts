// What access needs from the outside world: the ledger of token uses (TokenUseStore), client rate
// windows shared by processes (ClientRateWindows) and the owner's named API keys (ApiKeyStore). Each
// port is an interface and a same-named token the composition root binds an adapter to.
import type { TokenUse } from './token-use.js';

// The share-token uses' port: recorded uses and use limits.
export interface TokenUseStore {
  record(use: TokenUse): Promise<void>;
  /** Claims the next of `limit` uses for a token, atomically; false when all are spent. */
  claimUse(fingerprint: string, limit: number): Promise<boolean>;
  /** Uses claimed so far (for uses= caveats). */
  usesClaimed(fingerprint: string): Promise<number>;
  /** Newest first. */
  list(fingerprint: string, limit: number): Promise<TokenUse[]>;
}
export const TokenUseStore = Symbol.for('switchyard.TokenUseStore');

// The client rate-limit port: a fixed window of one minute per (bucket, client), opened by the
// client's first request in it. One process keeps its windows in memory (MemoryRateWindows); several
// processes on one PostgreSQL database count in one table, so N processes still allow the budget once.
/** What one request gets: allowed, or refused until its window ends. */
export interface RateVerdict {
  allowed: boolean;
  /** Seconds until the window ends (at least 1); meaningful when refused. */
  retryAfterS: number;
}

export interface ClientRateWindows {
  /** Counts one request of `client` in `bucket` at `now` (ms) against `perMinute`. */
  take(bucket: string, client: string, perMinute: number, now: number): Promise<RateVerdict>;
}
export const ClientRateWindows = Symbol.for('switchyard.ClientRateWindows');

// The API keys' port: keys stored hashed.
export interface ApiKeyStore {
  /** Stores a hash of the key; storing the same key twice is a no-op. */
  add(key: string, label: string): Promise<void>;
  verify(key: string): Promise<boolean>;
  count(): Promise<number>;
}
export const ApiKeyStore = Symbol.for('switchyard.ApiKeyStore');
