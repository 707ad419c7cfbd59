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
