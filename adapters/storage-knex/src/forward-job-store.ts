// The forwarding schedule on knex: one row per delivery and destination, claimed with leases so
// that every process may work it and each attempt is made once.
import type { Knex } from 'knex';
import type { ForwardJob, ForwardJobStore, Page, RetrySelector } from '@switchyard/core';
import { dialectFor, type Statements } from './dialect.js';
import { GroupCommit } from './group-commit.js';

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
});

const toRow = (j: ForwardJob) => ({
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
  created_at: j.created_at,
});

export class KnexForwardJobStore implements ForwardJobStore {
  private readonly statements: Statements;
  private readonly claimSql: string;
  /** New jobs and settled attempts that arrive together share one transaction (see group-commit.ts). */
  private readonly adds: GroupCommit<ForwardJob[], void>;
  private readonly settles: GroupCommit<{ job: ForwardJob; owner: string }, boolean>;

  constructor(private readonly knex: Knex) {
    const dialect = dialectFor(knex);
    this.statements = dialect.statements(knex);
    const insert = (db: Knex, jobs: ForwardJob[]) => (jobs.length ? db('forward_jobs').insert(jobs.map(toRow)) : Promise.resolve());
    this.adds = new GroupCommit(
      async (batches) => {
        await knex.transaction(async (trx) => {
          const rows = batches.flat();
          for (let i = 0; i < rows.length; i += 200) await insert(trx, rows.slice(i, i + 200));
        });
        return batches.map(() => undefined);
      },
      async (jobs) => void (await insert(knex, jobs)),
      dialect.writersInFlight,
    );
    const update = (db: Knex, { job, owner }: { job: ForwardJob; owner: string }) =>
      db('forward_jobs')
        .where({ id: job.id, lease_owner: owner })
        .update({ state: job.state, attempts: job.attempts, last_status: job.last_status, due_at: job.due_at, invocations: JSON.stringify(job.invocations), lease_owner: null, lease_until: null });
    this.settles = new GroupCommit(
      async (items) => knex.transaction(async (trx) => {
        const out: boolean[] = [];
        for (const item of items) out.push((await update(trx, item)) > 0);
        return out;
      }),
      async (item) => (await update(knex, item)) > 0,
      dialect.writersInFlight,
    );
    // Due, unleased (or the lease ran out), and for an ordered destination first in line. The
    // inner SELECT locks what it picks and passes over rows another claimer holds.
    this.claimSql = `UPDATE forward_jobs SET lease_owner = ?, lease_until = ?
      WHERE id IN (
        SELECT j.id FROM forward_jobs j
        WHERE j.state IN ('pending', 'retrying') AND j.due_at <= ? AND (j.lease_until IS NULL OR j.lease_until < ?)
          AND (j.ordered = 0 OR NOT EXISTS (
            SELECT 1 FROM forward_jobs e WHERE e.destination = j.destination AND e.seq < j.seq AND e.state IN ('pending', 'retrying')))
        ORDER BY j.due_at, j.seq
        LIMIT ?${dialect.skipLockedRows})
      RETURNING *`;
  }

  async add(jobs: ForwardJob[]): Promise<void> {
    if (jobs.length > 0) await this.adds.submit(jobs);
  }

  async claimDue(owner: string, now: number, leaseUntil: number, limit: number): Promise<ForwardJob[]> {
    const rows = await this.statements.all<JobRow>(this.claimSql, [owner, leaseUntil, now, now, limit]);
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
    const q = this.knex('forward_jobs').where({ destination, state: 'dead' });
    if ('entries' in selector) q.whereIn('delivery', selector.entries);
    else if ('from' in selector) q.andWhere('created_at', '>=', selector.from).andWhere('created_at', '<=', selector.to);
    // A fresh series of attempts; the invocations stay, so the next attempt repairs the last one.
    return q.update({ state: 'retrying', attempts: 0, due_at: now, lease_owner: null, lease_until: null });
  }
}
