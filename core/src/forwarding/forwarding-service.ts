// Forwarding: every accepted, first delivery goes on to each active destination whose filter
// passes, as a job in the shared schedule; workers in every process claim due jobs with leases and
// make each attempt an invocation in the ledger (forward-attempt.ts), each retry a repair of the
// attempt before it. The owner's side (destinations, the allowlist) is destination-admin.ts and
// forward-allowlist.ts.
import { randomId } from '../ids.js';
import { type InvocationRecord, PendingOutcomes, checkRepairTarget, type InvocationStore, type RunReservations } from '../runs/index.js';
import type { Clock } from '../clock.js';
import { type DeliveryStore, type DeliveryRecord, type StoredDelivery, NOTHING_PLANNED, type DeliveryPlan, type DeliveryScheduler, type ForwardJob, type ForwardState, type NewForwardJob } from '../webhooks/index.js';
import { retryDelayMs } from './backoff.js';
import type { Destination } from './destination.js';
import { compileFilter, filterInput, type DeliveryFilter, type FilterInput } from './filter.js';
import { forwardedHeaders } from './forward-headers.js';
import { FORWARD_KEY, attemptRecord, interruptedAttempt, outcomeRecord } from './forward-attempt.js';
import type { ForwardAllowlist } from './forward-allowlist.js';
import type { ForwardingSchedule } from './destination-admin.js';
import { inProcessTransforms } from './in-process-transforms.js';
import type { CircuitStore, DestinationStore, ForwardJobStore, OutboundSender, SendOutcome, TransformSandbox } from './ports.js';
import { admit, afterOutcome, circuitView, endProbe, type CircuitRules, type CircuitView } from './circuit.js';
import { MemoryCircuitStore } from './memory-circuit-store.js';
import { NO_TRACES, type TraceCarrier } from '../trace-carrier.js';
import { signingSecrets } from './secret-rotation.js';
import { SendShares } from './send-shares.js';
import { standardWebhookHeaders } from './standard-webhooks.js';

/** Bytes of a destination's answer kept in the attempt's record. */
export const ANSWER_EXCERPT_BYTES = 1024;

export interface ForwardingOptions {
  /** How long a claim holds a job; longer than any destination's timeout, so an attempt is made once. */
  leaseMs: number;
  /** Sends in flight per process (attempts whose destination has not answered yet). */
  concurrency: number;
  /** Of those, at most this many to one destination (its own `concurrency` may lower it). */
  perDestinationConcurrency: number;
  /** Consecutive failures that open a destination's circuit, and how long it stays open before a probe. */
  circuitFailures: number;
  circuitCooldownMs: number;
}

export const DEFAULT_FORWARDING_OPTIONS: ForwardingOptions = { leaseMs: 120_000, concurrency: 32, perDestinationConcurrency: 4, circuitFailures: 5, circuitCooldownMs: 30_000 };

/** A delivery's forwarding to one destination, as /api/ledger shows it. */
export interface ForwardingView {
  destination: string;
  state: ForwardState;
  attempts: number;
  last_status: number | null;
  next_attempt_at: string | null;
  invocations: string[];
}

export const forwardingView = (job: ForwardJob): ForwardingView => ({
  destination: job.destination,
  state: job.state,
  attempts: job.attempts,
  last_status: job.last_status,
  next_attempt_at: job.due_at === null ? null : new Date(job.due_at).toISOString(),
  invocations: job.invocations,
});

export const newForwardJobId = (): string => randomId('fwd_', 20);

/** A claimed job's delivery, until its body has been sent. */
interface Held {
  delivery: StoredDelivery | undefined;
}

interface Logger {
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

const DESTINATION_CACHE_MS = 1000;
/** Attempts being recorded (answered, not yet settled) may be this many times `concurrency`. */
const RECORDING_FACTOR = 4;

export class ForwardingService implements ForwardingSchedule, DeliveryScheduler {
  /** Names this process's claims. */
  private readonly owner = randomId('proc_', 12);
  private readonly cache = new Map<string, { list: Destination[]; until: number }>();
  private readonly filters = new Map<string, DeliveryFilter>();
  /** Each destination's share of the send slots. */
  private readonly shares: SendShares;
  /** Attempts from claim to settle, and how many of them are waiting on their destination. */
  private readonly inFlight = new Set<Promise<void>>();
  private sending = 0;
  /** Slots held for a claim under way. */
  private claiming = 0;
  private draining: Promise<void> | null = null;
  private again = false;
  private exhausted = false;
  private stopped = true;

  constructor(
    private readonly destinations: DestinationStore,
    private readonly jobs: ForwardJobStore,
    private readonly deliveries: DeliveryStore,
    private readonly invocations: InvocationStore,
    private readonly sender: OutboundSender,
    private readonly clock: Clock,
    /** The run-time allowlist, read before each look for due jobs. */
    private readonly allowlist: ForwardAllowlist,
    private readonly options: ForwardingOptions = DEFAULT_FORWARDING_OPTIONS,
    private readonly logger: Logger = { warn: () => {}, error: () => {} },
    /** Where an attempt is reserved before it is sent (write-ahead); without one, attempts are not reserved. */
    private readonly reservations: RunReservations | null = null,
    /** Circuits and paces: this process's own unless a shared store is given. */
    private readonly circuits: CircuitStore = new MemoryCircuitStore(),
    /** A job keeps the trace of the request that made it; its attempts continue it, in any process. */
    private readonly traces: TraceCarrier = NO_TRACES,
    /** Where an attempt's outcome the database did not take waits to be written again, its job settled after it. */
    private readonly outcomes: PendingOutcomes = new PendingOutcomes(invocations, reservations, undefined, logger),
    /** Where transforms run: the app's sandbox (a runaway one is stopped there, not here). */
    private readonly transforms: TransformSandbox = inProcessTransforms(),
  ) {
    this.shares = new SendShares(options.perDestinationConcurrency);
    this.rules = { openAfter: options.circuitFailures, cooldownMs: options.circuitCooldownMs, probeMs: options.leaseMs };
  }

  private readonly rules: CircuitRules;

  // ── What the owner's side needs (destination-admin.ts) ───────────────────────────────────────

  /** A destination of this webhook changed: this process's short cache of active ones is dropped. */
  destinationsChanged(hookId: string): void {
    this.cache.delete(hookId);
  }

  /** Destinations' circuits, as every process sharing the store sees them. */
  async circuitViews(ids: string[]): Promise<Map<string, CircuitView>> {
    const now = this.clock.now().getTime();
    const circuits = await this.circuits.read(ids);
    return new Map(ids.map((id) => [id, circuitView(circuits.get(id)!, this.options.circuitFailures, now)]));
  }

  /** Forwarding of each delivery, for the ledger listings. */
  async views(deliveryIds: string[]): Promise<Map<string, ForwardingView[]>> {
    const out = new Map<string, ForwardingView[]>();
    if (deliveryIds.length === 0) return out;
    for (const job of await this.jobs.forDeliveries(deliveryIds)) {
      if (!out.has(job.delivery)) out.set(job.delivery, []);
      out.get(job.delivery)!.push(forwardingView(job));
    }
    return out;
  }

  // ── Intake ──────────────────────────────────────────────────────────────────────────────────

  private async activeDestinations(hookId: string): Promise<Destination[]> {
    const now = Date.now();
    const cached = this.cache.get(hookId);
    if (cached && cached.until > now) return cached.list;
    const list = (await this.destinations.list(hookId)).filter((d) => d.on && !d.deleted_at);
    for (const d of list) this.shares.know(d);
    if (this.cache.size >= 10_000) this.cache.clear();
    this.cache.set(hookId, { list, until: now + DESTINATION_CACHE_MS });
    return list;
  }

  /**
   * The bytes an attempt sends: the delivery's own, or what the destination's transform makes of
   * its JSON body (a failure is the attempt's outcome; nothing is sent).
   */
  private async bodyFor(dst: Destination, delivery: StoredDelivery): Promise<{ ok: true; body: Uint8Array; transformed: string | null } | { ok: false; message: string }> {
    if (!dst.transform) return { ok: true, body: delivery.body!, transformed: null };
    const input = filterInput(delivery);
    let result;
    try {
      result = await this.transforms.evaluate(dst.transform, { headers: input.headers, body: input.body === null && !isJsonNull(delivery) ? undefined : input.body });
    } catch (err) {
      // Stored before the rule it breaks, or JSONata itself failed: the attempt fails, with why.
      result = { ok: false as const, message: (err as Error).message };
    }
    return result.ok ? { ok: true, body: Buffer.from(result.body, 'utf8'), transformed: result.body } : result;
  }

  private filterOf(expression: string): DeliveryFilter {
    let filter = this.filters.get(expression);
    if (!filter) {
      filter = compileFilter(expression);
      if (this.filters.size >= 1000) this.filters.clear();
      this.filters.set(expression, filter);
    }
    return filter;
  }

  /**
   * The one entry point of intake (a DeliveryScheduler): the schedule of a delivery about to be
   * stored, a job for each active destination (as skipped where the filter says no). The jobs are
   * written in the delivery's own commit, and only if it is stored as a first, accepted delivery:
   * refusals and duplicates are never forwarded, and no accepted delivery is ever without its jobs.
   */
  async plan(record: DeliveryRecord): Promise<DeliveryPlan> {
    if (record.outcome !== 'accepted') return NOTHING_PLANNED;
    const targets = await this.activeDestinations(record.hook_id);
    if (targets.length === 0) return NOTHING_PLANNED;
    const now = this.clock.now();
    let input: FilterInput | undefined;
    const traceparent = this.traces.current();
    const jobs: NewForwardJob[] = targets.map((dst) => {
      let pass = true;
      if (dst.filter) {
        input ??= filterInput(record);
        try {
          pass = this.filterOf(dst.filter)(input);
        } catch {
          pass = false;
        }
      }
      return {
        id: newForwardJobId(),
        delivery: record.id,
        hook_id: record.hook_id,
        destination: dst.id,
        state: pass ? 'pending' : 'skipped',
        attempts: 0,
        last_status: null,
        due_at: pass ? now.getTime() : null,
        invocations: [],
        ordered: dst.ordered,
        created_at: now.toISOString(),
        traceparent,
      };
    });
    // Where this process has room, a new job is added already leased to it and attempted as soon as
    // the delivery is committed, with the delivery in hand: no claim and no read. (An ordered job
    // may have an earlier one in line, so the claim decides for it.) A process that dies holding
    // such a lease leaves the job to whoever claims it when the lease runs out, as with any claimed
    // job. A destination at its share leaves its job to a claim once one of its sends ends.
    const leased: NewForwardJob[] = [];
    if (!this.stopped) {
      const taken = new Map<string, number>();
      for (const job of jobs) {
        if (job.state !== 'pending' || job.ordered || this.room() - leased.length <= 0) continue;
        const mine = taken.get(job.destination) ?? 0;
        if (this.shares.room(job.destination) - mine <= 0) {
          this.shares.turnedAway(job.destination);
          continue;
        }
        taken.set(job.destination, mine + 1);
        job.lease = { owner: this.owner, until: now.getTime() + this.options.leaseMs };
        leased.push(job);
      }
    }
    // The leased attempts hold their slots from now; they start once the commit says the jobs are in.
    let settle!: (delivery: StoredDelivery | null) => void;
    const committed = new Promise<StoredDelivery | null>((resolve) => (settle = resolve));
    for (const job of leased) this.launch(job, committed, job.lease!.until);
    return {
      jobs,
      settled: (stored) => {
        const written = stored !== null && stored.outcome === 'accepted' && !stored.duplicate;
        settle(written ? stored : null);
        if (written && jobs.some((j) => j.state === 'pending' && !j.lease)) this.kick();
      },
    };
  }

  // ── Workers ─────────────────────────────────────────────────────────────────────────────────
  // This process works the schedule only once started (a worker or an `all` process); the timer
  // that looks for due jobs belongs to the adapter that starts it (adapters/app's background work).
  // Not started (an api process), intake only writes jobs for the workers to claim.

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    void this.allowlist.refresh(true).catch(() => undefined);
    this.kick();
  }

  /** Stops claiming and waits for the attempts in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    // A claim under way may still start attempts: wait for it, then for every attempt.
    await this.draining;
    await Promise.allSettled([...this.inFlight]);
    // No attempt is left to use them: the sandbox's evaluators go too (a start brings them back).
    await this.transforms.close();
  }

  /** Looks for due jobs now (coalesced: one claim loop at a time per process). */
  kick(): void {
    this.exhausted = false;
    this.claimSoon();
  }

  /** Claims again when slots free up, unless the last claim found fewer due jobs than it had room for. */
  private refill(): void {
    if (!this.exhausted) this.claimSoon();
  }

  private claimSoon(): void {
    if (this.stopped) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = this.drain()
      .catch((err) => this.logger.error('forwarding claim failed; retrying', { error: (err as Error).message }))
      .finally(() => {
        this.draining = null;
        if (this.again && !this.stopped) {
          this.again = false;
          this.claimSoon();
        }
      });
  }

  /**
   * Free slots for new attempts: sends in flight are bounded by `concurrency`, and attempts still
   * being recorded after their answer came back by a few times that (the database catches up).
   */
  private room(): number {
    const used = this.sending + this.claiming;
    return Math.min(this.options.concurrency - used, this.options.concurrency * RECORDING_FACTOR - this.inFlight.size - this.claiming);
  }

  private async drain(): Promise<void> {
    // Each look for due jobs reads the run-time allowlist too, at most once a second.
    await this.allowlist.refresh().catch((err) => this.logger.warn('could not read the run-time allowlist; keeping the last one', { error: (err as Error).message }));
    for (;;) {
      this.again = false;
      const room = this.room();
      // Claims come in batches: one statement leases many jobs. A small room waits for more
      // (an attempt that ends kicks again), unless nothing is in flight.
      if (room <= 0 || this.stopped || (room < this.options.concurrency / 4 && this.inFlight.size > 0)) return;
      const now = this.clock.now().getTime();
      // The slots a claim asks for are held while it runs, so that intake does not lease them too.
      this.claiming = room;
      // Destinations at their share are passed over, and no destination gets more than its share.
      const full = this.shares.full();
      let claimed: ForwardJob[];
      let deliveries: Map<string, StoredDelivery>;
      try {
        claimed = await this.jobs.claimDue(this.owner, now, now + this.options.leaseMs, room, { perDestination: this.shares.claimCap, exclude: full });
        // The claimed jobs' deliveries, in one read rather than one per attempt; and their
        // destinations' own shares (from the short cache).
        deliveries = claimed.length ? new Map((await this.deliveries.getMany([...new Set(claimed.map((j) => j.delivery))])).map((d) => [d.id, d])) : new Map();
        for (const hook of new Set(claimed.map((j) => j.hook_id))) await this.activeDestinations(hook);
      } finally {
        this.claiming = 0;
      }
      // A claimed job is taken on while its destination has room; those past its share wait their
      // turn in send(). A claim passes over a destination with no room and takes at most claimCap
      // of any other, which can be more than the room it has left (intake leases nothing while a
      // claim holds the free slots, so what a destination received meanwhile is all due at once):
      // its jobs past its room go back to the schedule, due now, rather than hold the send slots the
      // other destinations need; the first of its jobs to end claims them again.
      const returned: ForwardJob[] = [];
      for (const job of claimed) {
        if (this.shares.room(job.destination) > 0) this.launch(job, Promise.resolve(deliveries.get(job.delivery)), now + this.options.leaseMs);
        else {
          this.shares.turnedAway(job.destination);
          returned.push(job);
        }
      }
      if (returned.length > 0) {
        // Not given back (the database failed): the lease lapses and the job is claimed again then.
        await Promise.all(returned.map((job) => this.postpone(job, now).catch((err) => this.logger.warn('forwarding job could not go back to the schedule; its lease will lapse', { job: job.id, error: (err as Error).message }))));
      }
      // A destination that got its fill in this claim is passed over by the next one, so the
      // others' due jobs are claimed now rather than at the next poll.
      const filled = this.shares.full().length > full.length;
      if (claimed.length < room && !this.again && !filled) {
        // Nothing more is due now: wait for new work (intake, a bulk retry) or the next poll.
        this.exhausted = true;
        return;
      }
    }
  }

  /**
   * Starts an attempt of a job leased to this process once `ready` gives its delivery (at once for a
   * claimed job, undefined if it is gone; for a new one when the delivery's commit lands, and not at
   * all, null, if it did not). It holds a send slot until the destination answers, and stays in
   * flight until it is settled.
   */
  private launch(job: ForwardJob, ready: Promise<StoredDelivery | undefined | null>, leaseUntil = Number.POSITIVE_INFINITY): void {
    // The body is let go once sent, so attempts being recorded do not hold bodies (held.delivery).
    this.sending += 1;
    this.shares.take(job.destination);
    let sent = false;
    // The send slot is free once the destination has answered; recording goes on after it.
    const answered = (): void => {
      if (sent) return;
      sent = true;
      this.sending -= 1;
      // Work of this destination waiting for its share is due: look again even if the last claim found little.
      if (this.shares.release(job.destination)) this.exhausted = false;
      if (this.room() >= this.options.concurrency / 4) this.refill();
    };
    const run: Promise<void> = ready
      .then((delivery) =>
        // Not committed (a duplicate, or the write failed): nothing to attempt (the intake reports a failure).
        delivery === null ? undefined : this.attempt(job, { delivery }, answered, leaseUntil).catch((err) => this.logger.error('forwarding attempt failed to record', { job: job.id, error: (err as Error).message })),
      )
      .finally(() => {
        answered();
        this.inFlight.delete(run);
        if (this.room() >= this.options.concurrency / 4 || this.inFlight.size === 0) this.refill();
      });
    this.inFlight.add(run);
  }

  /** Ends the lease without an attempt: the job is due again at `at`. */
  private postpone(job: ForwardJob, at: number): Promise<boolean> {
    return this.jobs.settle({ ...job, due_at: at }, this.owner);
  }

  private async attempt(job: ForwardJob, held: Held, answered: () => void, leaseUntil: number): Promise<void> {
    const now = this.clock.now().getTime();
    // An active destination comes from the short cache intake uses; anything else is read afresh.
    const dst = (await this.activeDestinations(job.hook_id)).find((d) => d.id === job.destination) ?? (await this.destinations.get(job.hook_id, job.destination));
    if (!dst || dst.deleted_at) {
      answered();
      await this.jobs.settle({ ...job, state: 'skipped', due_at: null }, this.owner);
      return;
    }
    if (!dst.on) return void (answered(), await this.postpone(job, now + 1000));
    // The circuit: open after repeated failures; once the cool-down ends, one probe at a time. A
    // plain read decides the usual case (closed, no pace); only a change takes the store's lock.
    const ratePerS = dst.rate_per_s ?? null;
    const seen = (await this.circuits.read([dst.id])).get(dst.id)!;
    let admission = admit(seen, now, this.rules, ratePerS);
    if (admission.next !== seen) admission = { result: await this.circuits.change(dst.id, (c) => admit(c, now, this.rules, ratePerS)), next: seen };
    const verdict = admission.result;
    if (!verdict.send) return void (answered(), await this.postpone(job, verdict.until));
    try {
      await this.traces.within(job.traceparent ?? null, () => this.send(job, dst, held, answered, leaseUntil));
    } finally {
      // A probe that ended in any way (an outcome, or an error recording it) frees the next one. If
      // the store cannot say so, the probe's own lease (probeMs) frees it.
      if (verdict.probe) await this.circuits.change(dst.id, endProbe).catch((err) => this.logger.warn('could not end a circuit probe; it lapses', { destination: dst.id, error: (err as Error).message }));
    }
  }

  /** The attempt itself: sign, send, record the invocation, settle the job. */
  private async send(job: ForwardJob, dst: Destination, held: Held, answered: () => void, leaseUntil: number): Promise<void> {
    if (!held.delivery?.body) {
      answered();
      await this.jobs.settle({ ...job, state: 'dead', due_at: null }, this.owner);
      return;
    }
    // At most the destination's share of requests at once; a job past it waits here for one to end.
    const waited = await this.shares.acquire(dst.id);
    let sending = true;
    const letGo = (): void => {
      if (sending) this.shares.releaseSend(dst.id);
      sending = false;
    };
    let attempt: InvocationRecord;
    let outcome: SendOutcome;
    try {
      const started = this.clock.now();
      // A job that waited its turn so long that its lease could end before the answer is given
      // back, due now, rather than risk another process attempting it too.
      if (waited && started.getTime() + dst.timeout_ms + LEASE_MARGIN_MS > leaseUntil) {
        letGo();
        answered();
        await this.postpone(job, started.getTime());
        return;
      }
      const prepared = await this.bodyFor(dst, held.delivery);
      attempt = await this.attemptOf(job, dst, started, prepared.ok ? prepared.transformed : null);
      if (!prepared.ok) {
        // Nothing was sent: the attempt fails as the transform's, and the job retries as any failure.
        held.delivery = undefined;
        outcome = { kind: 'transform_failed', message: prepared.message, duration_ms: Date.now() - started.getTime() };
      } else {
      // Write-ahead: the attempt is reserved before anything is sent; no reservation, no send (the
      // job is due again a little later, its attempts unchanged).
      if (this.reservations && prepared.ok) {
        try {
          await this.reservations.begin(interruptedAttempt(attempt));
        } catch (err) {
          letGo();
          answered();
          this.logger.warn('forwarding attempt postponed: the database did not take its reservation', { job: job.id, error: (err as Error).message });
          await this.postpone(job, started.getTime() + STORAGE_RETRY_MS).catch(() => undefined);
          return;
        }
      }
        outcome = await this.post(dst, held, prepared.body, prepared.transformed !== null, started.getTime());
      }
    } finally {
      letGo();
    }
    answered();
    const ok = outcome.kind === 'answered' && outcome.status >= 200 && outcome.status < 300;
    // A transform that fails says nothing of the destination: its circuit stays as it is. A circuit
    // the store cannot update now is no reason to lose the attempt: its record comes first.
    if (outcome.kind !== 'transform_failed') await this.noteOutcome(dst.id, ok).catch((err) => this.logger.warn('could not note an attempt in its circuit', { destination: dst.id, error: (err as Error).message }));
    // The attempt was sent: its outcome, then the job's settling, are written now or, if the database
    // does not take them, once it is back (pending-outcomes.ts); the reservation is renewed meanwhile.
    await this.outcomes.record(outcomeRecord(attempt, outcome, ok), (stored) => this.settleAfter(job, dst, outcome, ok, stored.id));
  }

  /** The job after an attempt recorded as `invocation`: delivered, dead, or due again with backoff. */
  private async settleAfter(job: ForwardJob, dst: Destination, outcome: SendOutcome, ok: boolean, invocation: string): Promise<void> {
    const attempts = job.attempts + 1;
    const status = outcome.kind === 'answered' ? outcome.status : null;
    const invocations = [...job.invocations, invocation];
    if (ok) {
      await this.jobs.settle({ ...job, state: 'delivered', attempts, last_status: status, due_at: null, invocations }, this.owner);
    } else if (attempts >= dst.retry.max_attempts) {
      await this.jobs.settle({ ...job, state: 'dead', attempts, last_status: status, due_at: null, invocations }, this.owner);
      this.logger.warn('forwarding gave up: dead letter', { destination: dst.id, delivery: job.delivery, attempts });
    } else {
      const due = this.clock.now().getTime() + retryDelayMs(dst.retry, attempts);
      await this.jobs.settle({ ...job, state: 'retrying', attempts, last_status: status, due_at: due, invocations }, this.owner);
    }
  }

  /** Signs and sends the body, then lets go of the delivery (its body lives only in this call). */
  private async post(dst: Destination, held: Held, body: Uint8Array, transformed: boolean, now: number): Promise<SendOutcome> {
    const delivery = held.delivery!;
    const forwarded = forwardedHeaders(delivery.headers, dst.forward_headers, dst.headers);
    if (transformed) {
      // The transform's output is JSON text, whatever type and encoding the delivery had.
      for (const name of Object.keys(forwarded)) if (['content-type', 'content-encoding'].includes(name.toLowerCase())) delete forwarded[name];
      forwarded['content-type'] = 'application/json';
    }
    const headers = {
      ...forwarded,
      ...standardWebhookHeaders(signingSecrets(dst, now), delivery.id, Math.floor(now / 1000), body),
    };
    held.delivery = undefined;
    return this.sender.post(dst.url, headers, body, dst.timeout_ms);
  }

  private async noteOutcome(destination: string, ok: boolean): Promise<void> {
    const now = this.clock.now().getTime();
    if (ok) {
      // A success on a closed circuit changes nothing: a read spares the lock.
      const seen = (await this.circuits.read([destination])).get(destination)!;
      if (afterOutcome(seen, true, now, this.rules).next === seen) return;
    }
    await this.circuits.change(destination, (c) => afterOutcome(c, ok, now, this.rules));
  }

  /**
   * The attempt as an invocation of the webhook, before it is sent: a retry repairs the failed
   * attempt before it (lineage rules); sending a delivered message again replays the attempt that
   * delivered it.
   */
  private async attemptOf(job: ForwardJob, dst: Destination, started: Date, transformed: string | null): Promise<InvocationRecord> {
    const previous = job.invocations[job.invocations.length - 1] ?? null;
    let repairs: string | null = null;
    let replays: string | null = null;
    if (previous) {
      const before = await this.invocations.get(previous);
      if (before?.ok) replays = previous;
      else {
        try {
          checkRepairTarget(FORWARD_KEY, previous, before, await this.invocations.repairChain(previous));
          repairs = previous;
        } catch (err) {
          this.logger.warn('forwarding attempt starts a new lineage', { job: job.id, previous, reason: (err as Error).message });
        }
      }
    }
    return attemptRecord(job, dst, started, transformed, { repairs, replays });
  }
}

/** What is left of a lease, past the destination's timeout, for recording and settling an attempt. */
const LEASE_MARGIN_MS = 5000;

/** How long a forwarding attempt waits when the database did not take its reservation. */
const STORAGE_RETRY_MS = 5000;

/** Whether the body is the JSON text `null` (parsed as null, yet JSON). */
const isJsonNull = (d: StoredDelivery): boolean => d.body !== null && Buffer.from(d.body).toString('utf8').trim() === 'null';
