// The write-ahead port: a run is reserved durably before its runner is called, and the reservation
// is let go once the run's outcome is in the ledger. A reservation outlives its process: one whose
// holder stopped renewing it (the process died, or could not write the outcome) lapses, and the
// record it holds (the run as `interrupted`, see interrupted-runs.ts) is appended in its place.
import type { InvocationRecord } from '../invocation.js';

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
