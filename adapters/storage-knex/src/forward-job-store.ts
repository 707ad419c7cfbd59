// The forwarding schedule on knex: one row per delivery and destination, claimed with leases so
// that every process may work it and each attempt is made once.
import type { Knex } from 'knex';
import type { ClaimShare, ForwardJob, ForwardJobStore, NewForwardJob, Page, RetrySelector } from '@switchyard/core';
import { dialectFor, type Statements } from './dialect.js';
import { GroupCommit } from './group-commit.js';
import { chunks } from './sql-batches.js';

interface JobRow {
  seq: number | string;
  id: string;
  delivery: string;
  hook_id: string;
  destination: string;
  state: ForwardJob['state'];
  attempts: number | string;
  last_status: number | string | null;
  due_at: number | string | null;
  invocations: string;
  ordered: number | string;
  lease_owner: string | null;
  lease_until: number | string | null;
  created_at: string;
  traceparent: string | null;
}

const toJob = (r: JobRow): ForwardJob => ({
  id: r.id,
  delivery: r.delivery,
  hook_id: r.hook_id,
  destination: r.destination,
  state: r.state,
  attempts: Number(r.attempts),
  last_status: r.last_status === null ? null : Number(r.last_status),
  due_at: r.due_at === null ? null : Number(r.due_at),
  invocations: JSON.parse(r.invocations) as string[],
  ordered: Number(r.ordered) === 1,
  created_at: r.created_at,
  traceparent: r.traceparent ?? null,
});

/** A new job as its row (the delivery store writes a delivery's jobs in its own commit). */
export const forwardJobRow = (j: NewForwardJob) => ({
  id: j.id,
  delivery: j.delivery,
  hook_id: j.hook_id,
  destination: j.destination,
  state: j.state,
  attempts: j.attempts,
  last_status: j.last_status,
  due_at: j.due_at,
  invocations: JSON.stringify(j.invocations),
  ordered: j.ordered ? 1 : 0,
  lease_owner: j.lease?.owner ?? null,
  lease_until: j.lease?.until ?? null,
  created_at: j.created_at,
  traceparent: j.traceparent ?? null,
});

/** Attempts settled per statement: a batch of any size is at most a few of these. */
const SETTLE_ROWS = 64;
const SETTLE_TUPLE = '(?, ?, CAST(? AS INTEGER), CAST(? AS INTEGER), CAST(? AS BIGINT), ?, ?)';
const settleSqlBySize = new Map<number, string>();
/**
 * Attempts' outcomes, each written only while the lease is still its settler's. A VALUES list names
 * its columns column1… on both engines; the casts give PostgreSQL the types of the bound values.
 */
const settleSql = (rows: number): string => {
  let sql = settleSqlBySize.get(rows);
  if (sql === undefined) {
    settleSqlBySize.set(rows, (sql = `UPDATE forward_jobs SET state = v.column2, attempts = v.column3, last_status = v.column4, due_at = v.column5, invocations = v.column6, lease_owner = NULL, lease_until = NULL
      FROM (VALUES ${Array.from({ length: rows }, () => SETTLE_TUPLE).join(', ')}) AS v
      WHERE forward_jobs.id = v.column1 AND forward_jobs.lease_owner = v.column7
      RETURNING forward_jobs.id`));
  }
  return sql;
};

/** Due jobs a claim looks at per slot it fills. */
const CANDIDATES_PER_SLOT = 4;

export class KnexForwardJobStore implements ForwardJobStore {
  private readonly statements: Statements;
  /** The claim, by how many destinations it passes over (each count its own prepared statement). */
  private readonly claimSqlByExcluded = new Map<number, string>();
  private readonly skipLockedRows: string;
  private readonly settles: GroupCommit<{ job: ForwardJob; owner: string }, boolean>;

  constructor(private readonly knex: Knex) {
    const dialect = dialectFor(knex);
    this.statements = dialect.statements(knex);
    // The attempts settled together are one UPDATE (prepared once per batch size on SQLite).
    this.settles = new GroupCommit(
      async (items) => {
        const settled = new Set<string>();
        for (const part of chunks(items, SETTLE_ROWS)) {
          const bindings = part.flatMap(({ job, owner }) => [job.id, job.state, job.attempts, job.last_status, job.due_at, JSON.stringify(job.invocations), owner]);
          for (const row of await this.statements.all<{ id: string }>(settleSql(part.length), bindings)) settled.add(row.id);
        }
        return items.map(({ job }) => settled.has(job.id));
      },
      async ({ job, owner }) => (await this.statements.all<{ id: string }>(settleSql(1), [job.id, job.state, job.attempts, job.last_status, job.due_at, JSON.stringify(job.invocations), owner])).length > 0,
      dialect.writersInFlight,
    );
    this.skipLockedRows = dialect.skipLockedRows;
  }

  /**
   * Due, unleased (or the lease ran out), for an ordered destination first in line, and not of a
   * destination at its share. The innermost SELECT locks what it picks (a few times the limit) and
   * passes over rows another claimer holds; of those, each destination's first few are taken, so a
   * destination with a backlog cannot fill the claim.
   */
  private claimSql(excluded: number): string {
    let sql = this.claimSqlByExcluded.get(excluded);
    if (sql === undefined) {
      const notFull = excluded > 0 ? `AND j.destination NOT IN (${Array.from({ length: excluded }, () => '?').join(', ')})` : '';
      sql = `UPDATE forward_jobs SET lease_owner = ?, lease_until = ?
      WHERE id IN (
        SELECT w.id FROM (
          SELECT c.id, c.due_at, c.seq, ROW_NUMBER() OVER (PARTITION BY c.destination ORDER BY c.due_at, c.seq) AS nth FROM (
            SELECT j.id, j.destination, j.due_at, j.seq FROM forward_jobs j
            WHERE j.state IN ('pending', 'retrying') AND j.due_at <= ? AND (j.lease_until IS NULL OR j.lease_until < ?) ${notFull}
              AND (j.ordered = 0 OR NOT EXISTS (
                SELECT 1 FROM forward_jobs e WHERE e.destination = j.destination AND e.seq < j.seq AND e.state IN ('pending', 'retrying')))
            ORDER BY j.due_at, j.seq
            LIMIT ?${this.skipLockedRows}) c) w
        WHERE w.nth <= ?
        ORDER BY w.due_at, w.seq
        LIMIT ?)
      RETURNING *`;
      if (this.claimSqlByExcluded.size < 256) this.claimSqlByExcluded.set(excluded, sql);
    }
    return sql;
  }

  async claimDue(owner: string, now: number, leaseUntil: number, limit: number, share: ClaimShare): Promise<ForwardJob[]> {
    // Candidates: a few times the limit, so that a backlog of one destination leaves room for others'.
    const candidates = limit * CANDIDATES_PER_SLOT;
    const rows = await this.statements.all<JobRow>(this.claimSql(share.exclude.length), [owner, leaseUntil, now, now, ...share.exclude, candidates, share.perDestination, limit]);
    return rows.map(toJob).sort((a, b) => (a.due_at ?? 0) - (b.due_at ?? 0));
  }

  settle(job: ForwardJob, owner: string): Promise<boolean> {
    return this.settles.submit({ job, owner });
  }

  async forDeliveries(deliveries: string[]): Promise<ForwardJob[]> {
    const out: JobRow[] = [];
    for (let i = 0; i < deliveries.length; i += 500) out.push(...(await this.knex<JobRow>('forward_jobs').whereIn('delivery', deliveries.slice(i, i + 500)).orderBy('seq')));
    return out.map(toJob);
  }

  async dead(destination: string, after: string | null, limit: number): Promise<Page<ForwardJob>> {
    const q = this.knex<JobRow>('forward_jobs').where({ destination, state: 'dead' });
    if (after !== null) q.andWhere('seq', '>', Number(after));
    const rows = await q.orderBy('seq').limit(limit + 1);
    const items = rows.slice(0, limit);
    return { items: items.map(toJob), next_cursor: rows.length > limit ? String(items[items.length - 1]!.seq) : null };
  }

  async requeue(destination: string, selector: RetrySelector, now: number): Promise<number> {
    const q = this.knex('forward_jobs').where({ destination });
    // Named entries are sent again even when delivered; the other selectors take dead letters.
    if ('entries' in selector) q.whereIn('state', ['dead', 'delivered']).whereIn('delivery', selector.entries);
    else {
      q.andWhere({ state: 'dead' });
      if ('from' in selector) q.andWhere('created_at', '>=', selector.from).andWhere('created_at', '<=', selector.to);
    }
    // A fresh series of attempts; the invocations stay, so the next attempt repairs the last one
    // (or, after a delivered one, replays it).
    return q.update({ state: 'retrying', attempts: 0, due_at: now, lease_owner: null, lease_until: null });
  }
}
