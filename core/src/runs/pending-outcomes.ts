// Outcomes the database did not take. A run or forwarding attempt that ended while the database was
// away still holds its reservation; its outcome is the truth the ledger must get, so it is kept in
// memory and written again, with backoff, once the database is back, and the reservation goes only
// then. Bounded in time and in number: past either bound the reservation is let go (abandoned),
// lapses and is swept `interrupted` (interrupted-runs.ts), so the ledger never misses the run.
import type { InvocationRecord, StoredInvocation } from './invocation.js';
import type { InvocationStore, RunReservations } from './ports.js';

export interface PendingOutcomeOptions {
  /** Outcomes kept at once; one more is let go at once (its reservation is swept interrupted). */
  maxHeld: number;
  /** How long an outcome is tried again before its reservation is let go. */
  maxMs: number;
  /** The first wait before trying again, doubled each time up to `maxDelayMs`. */
  firstDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_PENDING_OUTCOMES: PendingOutcomeOptions = { maxHeld: 1000, maxMs: 10 * 60_000, firstDelayMs: 200, maxDelayMs: 2000 };

interface Logger {
  warn(message: string, fields?: Record<string, unknown>): void;
}

/** What follows a run's record (settling a forwarding job): retried with it until it succeeds. */
export type AfterRecord = (stored: StoredInvocation) => Promise<void>;

interface Pending {
  record: InvocationRecord;
  then: AfterRecord | null;
  stored: StoredInvocation | null;
  since: number;
  delay: number;
}

export class PendingOutcomes {
  private readonly held = new Map<string, Pending>();

  constructor(
    private readonly store: InvocationStore,
    private readonly reservations: RunReservations | null,
    private readonly options: PendingOutcomeOptions = DEFAULT_PENDING_OUTCOMES,
    private readonly logger: Logger = { warn: () => {} },
  ) {}

  /** Outcomes waiting for the database. */
  get size(): number {
    return this.held.size;
  }

  /**
   * Appends a reserved run's outcome, ends its reservation, then runs `then`. If any of that fails,
   * the rest is kept and tried again later (see the class), and the error is thrown for the caller
   * to answer now. The reservation is renewed meanwhile: the run is neither lost nor swept early.
   */
  async record(record: InvocationRecord, then: AfterRecord | null = null): Promise<StoredInvocation> {
    const pending: Pending = { record, then, stored: null, since: Date.now(), delay: this.options.firstDelayMs };
    try {
      await this.write(pending, false);
      return pending.stored!;
    } catch (err) {
      this.keep(pending, err);
      throw err;
    }
  }

  /** One try: the record (unless it is in the ledger already: it landed, or was swept), the reservation's end, what follows. */
  private async write(pending: Pending, again: boolean): Promise<void> {
    if (!pending.stored) {
      // Tried before: the last append may have landed as its connection died, or a sweep beat it.
      pending.stored = (again ? await this.store.get(pending.record.id) : undefined) ?? (await this.store.append(pending.record));
      this.reservations?.end(pending.record.id);
    }
    if (pending.then) {
      await pending.then(pending.stored);
      pending.then = null;
    }
  }

  private keep(pending: Pending, err: unknown): void {
    const id = pending.record.id;
    if (this.held.size >= this.options.maxHeld) {
      this.letGo(pending, 'too many outcomes are waiting for the database', err);
      return;
    }
    this.held.set(id, pending);
    this.logger.warn('an outcome was not written; trying again', { invocation: id, error: (err as Error)?.message ?? String(err) });
    this.retryLater(pending);
  }

  private retryLater(pending: Pending): void {
    const timer = setTimeout(() => void this.retry(pending), pending.delay);
    timer.unref?.();
    pending.delay = Math.min(pending.delay * 2, this.options.maxDelayMs);
  }

  private async retry(pending: Pending): Promise<void> {
    try {
      await this.write(pending, true);
      this.held.delete(pending.record.id);
    } catch (err) {
      if (Date.now() - pending.since >= this.options.maxMs) {
        this.held.delete(pending.record.id);
        this.letGo(pending, 'the database did not take the outcome in time', err);
      } else this.retryLater(pending);
    }
  }

  /** Gives up: a record not written lets its reservation lapse (swept interrupted); what followed it is left to its own lease. */
  private letGo(pending: Pending, why: string, err: unknown): void {
    if (!pending.stored) this.reservations?.abandon(pending.record.id);
    this.logger.warn(`an outcome was given up: ${why}`, { invocation: pending.record.id, recorded: pending.stored !== null, error: (err as Error)?.message ?? String(err) });
  }
}
