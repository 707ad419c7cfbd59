// Background work: what a process does besides answering HTTP (the run sweeper, the ledger
// integrator, the witnesses, the forwarder, retention). The rules stay in core (which jobs are due,
// backoff, leases as data); this file owns the tasks' timers, starting them in order and stopping
// them in reverse, and which a role runs (tasksFor). Their order is background-wiring.ts's.
import { SwitchyardError, erasureOf, retentionCutoff, retentionPlan, retentionReason, startWitnessing, webhookRetentionReason, type ForwardingService, type IdempotentRuns, type InterruptedRuns, type RetentionScope, type RunReservations, type VerifiableLedger, type WebhookStore, type WitnessService } from '@switchyard/core';
import { startIntegrator } from '@switchyard/storage-knex';
import type { Role } from './config.js';
import type { Logger } from './logger.js';

/** One piece of background work: started once, stopped once (waiting for what it has under way). */
export interface BackgroundTask {
  readonly name: string;
  /** Run by every process, an api process too (its own runs' reservations, other processes' refreshes); otherwise only where the role runs background work. */
  readonly everyRole?: boolean;
  /** False when there is nothing for it to do in this configuration (no witnesses, a database no other process shares). */
  readonly enabled?: boolean;
  start(): void | Promise<void>;
  stop(): Promise<void>;
}

/** Whether a role serves HTTP and whether it runs background work. */
export const roleRuns = (role: Role): { http: boolean; background: boolean } => ({ http: role !== 'worker', background: role !== 'api' });

/** The tasks a process of `role` runs, in their order. */
export const tasksFor = (role: Role, tasks: readonly BackgroundTask[]): BackgroundTask[] => tasks.filter((t) => t.enabled !== false && (t.everyRole === true || roleRuns(role).background));

/** Starts its tasks in order and stops them in reverse, each stop awaited (and logged if it fails). */
export class BackgroundWork {
  private readonly started: BackgroundTask[] = [];

  constructor(
    private readonly tasks: readonly BackgroundTask[],
    private readonly logger: Logger,
  ) {}

  /** The names of the tasks this process runs (for its start line). */
  get names(): string[] {
    return this.tasks.map((t) => t.name);
  }

  private starting: Promise<void> | null = null;

  /** Starts every task once, in order (a second call waits for the first). */
  start(): Promise<void> {
    this.starting ??= (async () => {
      for (const task of this.tasks) {
        await task.start();
        this.started.push(task);
      }
    })();
    return this.starting;
  }

  async stop(): Promise<void> {
    // A start under way finishes first, so that every task it started is stopped.
    await this.starting?.catch(() => {});
    while (this.started.length) {
      const task = this.started.pop()!;
      try {
        await task.stop();
      } catch (err) {
        this.logger.error('background work did not stop cleanly', { task: task.name, error: (err as Error).message });
      }
    }
  }
}

/** Queued ledger entries join the Merkle tree on a timer; every batch signs a checkpoint. */
export function integratorTask(ledger: VerifiableLedger, intervalMs: number, logger: Logger): BackgroundTask {
  let running: { stop(): Promise<void> } | undefined;
  return {
    name: 'integrator',
    start: () => {
      running = startIntegrator(ledger, intervalMs, (e) => logger.error('ledger integration failed; retrying', { error: (e as Error).message }));
    },
    stop: async () => {
      await running?.stop();
      running = undefined;
    },
  };
}

/**
 * Each new checkpoint is taken to the configured witnesses (c2sp.org/tlog-witness) on the
 * integrator's interval; a refusal is logged with its reason, never fatal.
 */
export function witnessTask(witnesses: WitnessService, intervalMs: number, logger: Logger): BackgroundTask {
  let running: { stop(): Promise<void> } | undefined;
  return {
    name: 'witnesses',
    enabled: witnesses.configured > 0,
    start: () => {
      running = startWitnessing(witnesses, intervalMs, (o) =>
        o.outcome === 'refused' ? logger.warn('witness refused: checkpoint not cosigned', { witness: o.witness, size: o.size, reason: o.reason }) : logger.info('checkpoint cosigned', { witness: o.witness, size: o.size }),
      );
    },
    stop: async () => {
      await running?.stop();
      running = undefined;
    },
  };
}

/**
 * Due forwarding attempts (the schedule is in the database) are claimed on a timer, and at once
 * after this process takes a delivery (each claim reads the owner's run-time allowlist again, at
 * most once a second); stopping waits for the attempts in flight.
 */
export function forwarderTask(forwarding: ForwardingService, pollMs: number): BackgroundTask {
  let timer: ReturnType<typeof setInterval> | undefined;
  return {
    name: 'forwarder',
    start: () => {
      forwarding.start();
      timer = setInterval(() => forwarding.kick(), pollMs);
      timer.unref();
    },
    stop: async () => {
      if (timer) clearInterval(timer);
      timer = undefined;
      await forwarding.stop();
    },
  };
}

/**
 * Retention (`retention.privateDays`, and a webhook's own `retention_private_days`, which overrides
 * it for its deliveries): on a timer, the payload of every invocation and delivery older than its
 * days is erased, one erasure entry each (docs/proofs.md#erasure). An entry erased meanwhile by the
 * owner or another process is passed over; a failure is logged and retried.
 */
export function retentionTask(ledger: VerifiableLedger, webhooks: WebhookStore, globalDays: number | null, intervalMs: number, logger: Logger, now: () => Date = () => new Date()): BackgroundTask {
  let timer: ReturnType<typeof setInterval> | undefined;
  let sweeping: Promise<void> = Promise.resolve();
  const sweep = async () => {
    const plan = retentionPlan(globalDays, await webhooks.list());
    for (const { hook, days } of plan.hooks) await sweepPast(days, webhookRetentionReason(days), { only: [hook] });
    if (plan.global) await sweepPast(plan.global.days, retentionReason(plan.global.days), { except: plan.global.exceptHooks });
  };
  const sweepPast = async (privateDays: number, reason: string, hooks: RetentionScope) => {
    for (;;) {
      const due = await ledger.pastRetention(retentionCutoff(now(), privateDays), 100, hooks);
      let erased = 0;
      for (const entry of due) {
        try {
          await ledger.erase(erasureOf(entry.kind, entry.id, reason, now()));
          erased++;
        } catch (err) {
          if (!(SwitchyardError.is(err) && (err.code === 'already_erased' || err.code === 'entry_pending'))) throw err;
        }
      }
      if (erased > 0) logger.info('retention erased private fields', { entries: erased, privateDays });
      if (due.length < 100 || erased === 0) return;
    }
  };
  return {
    name: 'retention',
    start: () => {
      const tick = () => {
        sweeping = sweeping.then(sweep).catch((e: unknown) => logger.error('retention sweep failed; retrying', { error: (e as Error).message }));
      };
      tick();
      timer = setInterval(tick, intervalMs);
      timer.unref();
    },
    stop: async () => {
      if (timer) clearInterval(timer);
      timer = undefined;
      await sweeping;
    },
  };
}

/**
 * Write-ahead: every process renews the reservations of its runs in flight, and ends any run whose
 * reservation lapsed (its process died, or could not write the outcome) as interrupted: at start
 * (before the service answers) and every half lease, whichever process on the database gets there
 * first. It also forgets expired idempotency keys. Every role runs it.
 */
export function runSweeperTask(runs: SweptRuns, leaseMs: number, logger: Logger): BackgroundTask {
  let running: { stop(): Promise<void> } | undefined;
  return {
    name: 'run-sweeper',
    everyRole: true,
    start: async () => {
      running = await startRunSweeper(runs, leaseMs, logger);
    },
    stop: async () => {
      await running?.stop();
      running = undefined;
    },
  };
}

/** What the run sweeper works on. */
export interface SweptRuns {
  reservations: RunReservations;
  interrupted: InterruptedRuns;
  idempotent: IdempotentRuns;
}

async function startRunSweeper({ reservations, interrupted, idempotent }: SweptRuns, leaseMs: number, logger: Logger): Promise<{ stop(): Promise<void> }> {
  const warn = (what: string) => (e: unknown) => logger.warn(what, { error: (e as Error)?.message ?? String(e) });
  reservations.startRenewing(warn('renewing run reservations failed; retrying'));
  let sweeping: Promise<void> = Promise.resolve();
  const sweep = (): Promise<void> =>
    (sweeping = interrupted
      .sweep()
      .then(
        (ids) => void (ids.length && logger.warn('runs interrupted before their outcome was recorded', { invocations: ids })),
        warn('sweeping interrupted runs failed; retrying'),
      )
      // Idempotency keys past their 24 h window go too, a bounded number per sweep.
      .then(() => idempotent.forgetExpired())
      .then(
        () => undefined,
        warn('forgetting expired idempotency keys failed; retrying'),
      ));
  await sweep();
  const timer = setInterval(() => void sweeping.then(sweep), Math.max(50, Math.floor(leaseMs / 2)));
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      reservations.stopRenewing();
      await sweeping;
    },
  };
}
