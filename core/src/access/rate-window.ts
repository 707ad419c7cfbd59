// The rule of a client rate limit: a window of one minute opens at a client's first request, counts
// every request in it, and refuses those past the budget until it ends. The same rule decides for the
// in-process windows here and for the shared ones in PostgreSQL (adapters/storage-knex).
import type { ClientRateWindows, RateVerdict } from './ports.js';

export const RATE_WINDOW_MS = 60_000;

/** A window that opened at `start` is over at `now`: the next request opens a new one. */
export const windowOver = (start: number, now: number): boolean => now - start >= RATE_WINDOW_MS;

/** The verdict on the `count`th request of a window that opened at `start`. */
export const rateVerdict = (count: number, start: number, perMinute: number, now: number): RateVerdict => ({
  allowed: count <= perMinute,
  retryAfterS: Math.max(1, Math.ceil((start + RATE_WINDOW_MS - now) / 1000)),
});

/** Windows held by this process alone (one process, or SQLite). */
export class MemoryRateWindows implements ClientRateWindows {
  private readonly windows = new Map<string, { start: number; count: number }>();

  async take(bucket: string, client: string, perMinute: number, now: number): Promise<RateVerdict> {
    const key = `${bucket}\u0000${client}`;
    let w = this.windows.get(key);
    if (!w || windowOver(w.start, now)) {
      w = { start: now, count: 0 };
      this.windows.set(key, w);
      // Old windows go when the map grows; an address that stopped asking needs no entry.
      if (this.windows.size > 10_000) for (const [k, v] of this.windows) if (windowOver(v.start, now)) this.windows.delete(k);
    }
    w.count += 1;
    return rateVerdict(w.count, w.start, perMinute, now);
  }
}
