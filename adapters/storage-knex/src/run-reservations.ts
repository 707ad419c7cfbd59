// Write-ahead reservations on knex: one row per run in flight, outside the ledger (the ledger stays
// append-only; a reservation is deleted once its run's outcome, or its interrupted record, is in
// the ledger). Each row holds the record the run ends with if its outcome never arrives, and a
// lease its process renews while the run lasts; a lapsed lease means the process is gone or gave up.
// A repair's row names the failure it repairs, unique (migration 024): the database, not a process,
// decides which of two simultaneous repairs of one failure runs.
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { repairInFlight, type InvocationRecord, type RunReservations } from '@switchyard/core';
import { dialectFor, isUniqueViolation, type Dialect, type Statements } from './dialect.js';
import { GroupCommit } from './group-commit.js';
import { UnknownFates } from './unknown-fate.js';
import { chunks } from './sql-batches.js';

export interface RunReservationOptions {
  /** How long a reservation stays held without renewal; renewed every third of it. */
  leaseMs: number;
}

const COLUMNS = ['id', 'holder', 'lease_until', 'record', 'repairs'] as const;

/**
 * How long ended reservations gather before one DELETE takes them all. Each DELETE is a statement
 * on the one writer; gathered over a tick, runs ending in a burst still cost one per burst. An ended
 * reservation is no longer renewed and its outcome is in the ledger, so waiting is safe: if the
 * process stops first, the sweep drops it as it drops any whose delete failed.
 */
const END_GATHER_MS = 50;
const insertSql = (rows: number): string =>
  `INSERT INTO run_reservations (${COLUMNS.join(', ')}) VALUES ${Array.from({ length: rows }, () => `(${COLUMNS.map(() => '?').join(', ')})`).join(', ')} RETURNING id`;

export class KnexRunReservations implements RunReservations {
  /** This process's name on its reservations. */
  readonly holder = `rh_${randomBytes(8).toString('hex')}`;
  /** Runs of this process in flight (renewed); an abandoned or ended run leaves this set. */
  private readonly held = new Set<string>();
  /** Reservations to delete, gathered so runs ending together share one statement. */
  private ended: string[] = [];
  private deleting = false;
  private readonly begins: GroupCommit<InvocationRecord, void>;
  private readonly statements: Statements;
  private readonly dialect: Dialect;
  private renewTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly knex: Knex,
    private readonly options: RunReservationOptions,
    private readonly now: () => number = Date.now,
  ) {
    const dialect = (this.dialect = dialectFor(knex));
    this.statements = dialect.statements(knex);
    // Runs starting together share one INSERT (one commit), like their outcomes do.
    this.begins = new GroupCommit<InvocationRecord, void>(
      async (records) => this.insert(records),
      async (record) => this.insertOne(record),
      dialect.writersInFlight,
    );
  }

  /** Reservations whose write died with its connection: looked up before they are failed. */
  private readonly fates = new UnknownFates();

  /**
   * A reservation whose write died with its connection is looked up first (unknown-fate.ts): one
   * that landed is held (renewed, and its run goes ahead) rather than left to be swept as an
   * interrupted run that never ran.
   */
  async begin(interrupted: InvocationRecord): Promise<void> {
    try {
      await this.begins.submit(interrupted);
      this.fates.settled(interrupted.id);
    } catch (err) {
      await this.fates.resolve(interrupted.id, err, async () => ((await this.isReservedBy(interrupted.id)) ? true : undefined));
    }
    this.held.add(interrupted.id);
  }

  /** Whether this process holds the reservation `id` in the database. */
  private async isReservedBy(id: string): Promise<boolean> {
    return (await this.knex('run_reservations').select('id').where({ id, holder: this.holder }).first()) !== undefined;
  }

  end(id: string): void {
    this.held.delete(id);
    this.ended.push(id);
    if (!this.deleting) {
      this.deleting = true;
      setTimeout(() => void this.deleteEnded(), END_GATHER_MS).unref();
    }
  }

  abandon(id: string): void {
    this.held.delete(id);
  }

  /**
   * Lapsed reservations, but none this process still holds: one whose lease lapsed while the
   * database was away is renewed again once it is back, and its outcome written (pending-outcomes.ts).
   */
  async lapsed(limit: number): Promise<InvocationRecord[]> {
    const rows = (await this.knex('run_reservations').select('record').where('lease_until', '<', this.now()).orderBy('lease_until').limit(limit + this.held.size)) as Array<{ record: string }>;
    return rows.map((r) => JSON.parse(r.record) as InvocationRecord).filter((r) => !this.held.has(r.id)).slice(0, limit);
  }

  async isReserved(id: string): Promise<boolean> {
    return (await this.knex('run_reservations').select('id').where({ id }).first()) !== undefined;
  }

  async drop(id: string): Promise<void> {
    await this.knex('run_reservations').where({ id }).delete();
  }

  /** Renews this process's leases every third of the lease, until stopped. */
  startRenewing(onError: (err: unknown) => void): void {
    if (this.renewTimer) return;
    this.renewTimer = setInterval(() => void this.renew().catch(onError), Math.max(50, Math.floor(this.options.leaseMs / 3)));
    this.renewTimer.unref();
  }

  stopRenewing(): void {
    if (this.renewTimer) clearInterval(this.renewTimer);
    this.renewTimer = null;
  }

  /** Extends the lease of every run of this process still in flight. */
  async renew(): Promise<void> {
    if (this.held.size === 0) return;
    const until = this.now() + this.options.leaseMs;
    for (const ids of chunks([...this.held])) await this.knex('run_reservations').whereIn('id', ids).andWhere('holder', this.holder).update({ lease_until: until });
  }

  private async insert(records: InvocationRecord[]): Promise<void[]> {
    const until = this.now() + this.options.leaseMs;
    const values = records.map((r) => [r.id, this.holder, until, JSON.stringify(r), r.repairs ?? null]);
    await this.fates.watch(records.map((r) => r.id), () => this.statements.all(insertSql(records.length), values.flat()));
    return records.map(() => undefined);
  }

  /** One reservation alone (a batch fell back to these): a repair that lost the race is refused, naming the winner. */
  private async insertOne(record: InvocationRecord): Promise<void> {
    try {
      await this.insert([record]);
    } catch (err) {
      if (record.repairs === null || !isUniqueViolation(err)) throw err;
      const holder = (await this.knex('run_reservations').select('id').where({ repairs: record.repairs }).first()) as { id: string } | undefined;
      if (holder?.id === record.id) throw err; // the id itself collided, not the repair
      throw repairInFlight(record.repairs, holder?.id ?? null);
    }
  }

  /** Deletes ended reservations in groups. A failure leaves them to the sweep (their outcome is in the ledger). */
  private async deleteEnded(): Promise<void> {
    try {
      while (this.ended.length > 0) {
        const ids = this.ended.splice(0, 500);
        await this.dialect.deleteKeys(this.knex, 'run_reservations', 'id', ids, this.statements).catch(() => {});
      }
    } finally {
      this.deleting = false;
    }
  }
}
