// Whether the database takes writes, for /healthz: a read, then a small write of this process's
// probe row (storage_probes). A write can also fail for a large request while a small probe still
// fits (a nearly full disk), so any storage failure a request met in the last few seconds makes
// the database not ready too, with its kind and reason; readiness returns on its own once writes
// succeed again for that long.
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { storageFailureKind, type StorageFailureKind } from './storage-failure.js';

export interface StorageHealthReading {
  ok: boolean;
  engine: string;
  /** Whether the database answered a read. */
  reads: boolean;
  /** Whether it takes writes: the probe's result, or the last failure a request met within the window. */
  write: { ok: boolean; kind?: StorageFailureKind | 'other'; reason?: string; at?: string };
}

export class StorageHealth {
  private readonly holder = `hp_${randomBytes(8).toString('hex')}`;
  private lastFailure: { kind: StorageFailureKind | 'other'; reason: string; at: number } | null = null;
  /** When the probe row last went in: a probe writes at most once a second, however often /healthz is asked. */
  private probedAt = -Infinity;

  constructor(
    private readonly knex: Knex,
    private readonly engine: string,
    /** How long a write failure a request met keeps the database not ready. */
    private readonly windowMs = 5000,
    private readonly now: () => number = Date.now,
  ) {}

  /** A request met a storage failure. */
  noteFailure(kind: string, err: unknown): void {
    const reason = String((err as Error)?.message ?? err).split('\n')[0]!.slice(0, 300);
    this.lastFailure = { kind: (kind as StorageFailureKind) ?? 'other', reason, at: this.now() };
  }

  async check(): Promise<StorageHealthReading> {
    try {
      await this.knex.raw('select 1');
    } catch (err) {
      return { ok: false, engine: this.engine, reads: false, write: { ok: false, kind: storageFailureKind(err) ?? 'other', reason: firstLine(err) } };
    }
    try {
      if (this.now() - this.probedAt >= PROBE_EVERY_MS) {
        await this.knex('storage_probes').insert({ holder: this.holder, at: new Date(this.now()).toISOString() }).onConflict('holder').merge();
        this.probedAt = this.now();
      }
    } catch (err) {
      const kind = storageFailureKind(err) ?? 'other';
      this.noteFailure(kind, err);
      return { ok: false, engine: this.engine, reads: true, write: { ok: false, kind, reason: firstLine(err) } };
    }
    const recent = this.lastFailure && this.now() - this.lastFailure.at < this.windowMs ? this.lastFailure : null;
    if (recent) return { ok: false, engine: this.engine, reads: true, write: { ok: false, kind: recent.kind, reason: recent.reason, at: new Date(recent.at).toISOString() } };
    return { ok: true, engine: this.engine, reads: true, write: { ok: true } };
  }
}

const PROBE_EVERY_MS = 1000;

const firstLine = (err: unknown): string => String((err as Error)?.message ?? err).split('\n')[0]!.slice(0, 300);
