// Client rate limits shared by every process on one database: one upsert per request counts it in
// its window (or opens a new one when the old one is over) and returns the count, atomically, so
// two processes never both hand out the last request of a budget. Ended windows are swept once a
// minute by each process.
import type { Knex } from 'knex';
import { RATE_WINDOW_MS, rateVerdict, type ClientRateWindows, type RateVerdict } from '@switchyard/core';

/** Longer client addresses (there are none: IPv6 text is at most 45 characters) are cut, not refused. */
const CLIENT_CHARS = 64;

export class KnexClientRateWindows implements ClientRateWindows {
  private lastSweep = 0;

  constructor(private readonly knex: Knex) {}

  async take(bucket: string, client: string, perMinute: number, now: number): Promise<RateVerdict> {
    if (now - this.lastSweep >= RATE_WINDOW_MS) {
      this.lastSweep = now;
      await this.knex('client_rate_windows').where('window_start', '<=', now - RATE_WINDOW_MS).delete();
    }
    // In ON CONFLICT's SET every expression reads the row as it was, so both CASEs see the old window.
    const { rows } = (await this.knex.raw(
      `INSERT INTO client_rate_windows (bucket, client, window_start, count) VALUES (?, ?, ?, 1)
       ON CONFLICT (bucket, client) DO UPDATE SET
         window_start = CASE WHEN ? - client_rate_windows.window_start >= ? THEN EXCLUDED.window_start ELSE client_rate_windows.window_start END,
         count = CASE WHEN ? - client_rate_windows.window_start >= ? THEN 1 ELSE client_rate_windows.count + 1 END
       RETURNING window_start, count`,
      [bucket, client.slice(0, CLIENT_CHARS), now, now, RATE_WINDOW_MS, now, RATE_WINDOW_MS],
    )) as { rows: Array<{ window_start: string | number; count: number }> };
    const row = rows[0]!;
    return rateVerdict(Number(row.count), Number(row.window_start), perMinute, now);
  }
}
