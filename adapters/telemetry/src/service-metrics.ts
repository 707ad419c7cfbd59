// The service's Prometheus metrics: one registry per service instance (tests run many services in
// one process), fed by the HTTP request observer and by the observers the composition root hands
// to the stores and the upstream client. Every label has a bounded set of values: route patterns,
// never raw paths; capability keys, which only registered capabilities have.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { StoredDelivery, StoredInvocation } from '@switchyard/core';
import type { BytesInFlight } from './bytes-in-flight.js';

/** The stores whose group commits are measured. */
export type GroupCommitStore = 'invocations' | 'deliveries';

/** What an upstream tool call came to: an answer, an answer flagged isError, or no answer (error, timeout). */
export type UpstreamOutcome = 'ok' | 'tool_error' | 'failed';

/** What a delivery came to, as the metrics count it. */
export type DeliveryCount = 'accepted' | 'duplicate' | 'refused';

export interface LedgerBacklogReading {
  entries: number;
  oldestEntryAt: Date | null;
}

/** Invocation statuses that mean a run was turned away rather than failed or run. */
const REFUSED_RUN = new Set(['refused', 'denied']);

/**
 * Statuses of an error answer that turn a request away (credential, scope, size, rate, time,
 * header and capacity limits) rather than report a mistake in it or a fault of the service.
 */
const REFUSAL_STATUSES = new Set([401, 403, 408, 413, 429, 431, 503]);

/** The kinds of storage failure counted (storage-knex's StorageFailureKind, and other). */
const STORAGE_FAILURE_KINDS = ['unreachable', 'read_only', 'full', 'busy', 'other'] as const;

export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  private readonly runs: Counter<'key' | 'status'>;
  private readonly upstreamDuration: Histogram<'tool' | 'outcome'>;
  private readonly deliveries: Counter<'outcome'>;
  private readonly refusals: Counter<'kind' | 'reason'>;
  private readonly bodyBytes: Gauge;
  private readonly batchSizes: Histogram<'store'>;
  private readonly fallbacks: Counter<'store'>;
  private readonly storageFailures: Counter<'kind'>;
  private backlogReader: (() => Promise<LedgerBacklogReading>) | null = null;

  constructor(options: { defaultMetrics?: boolean } = {}) {
    const registers = [this.registry];
    if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: this.registry });
    this.httpDuration = new Histogram({
      name: 'switchyard_http_request_duration_seconds',
      help: 'HTTP requests by method, route pattern and status ("aborted" when the client left first), from the first byte in to the last byte out',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.runs = new Counter({ name: 'switchyard_runs_total', help: 'Invocations written to the ledger, by capability key and status', labelNames: ['key', 'status'], registers });
    this.upstreamDuration = new Histogram({
      name: 'switchyard_upstream_call_duration_seconds',
      help: 'MCP tool calls to upstream servers, by tool and outcome (ok, tool_error, failed)',
      labelNames: ['tool', 'outcome'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.deliveries = new Counter({ name: 'switchyard_deliveries_total', help: 'Webhook deliveries stored, by outcome: accepted (first), duplicate, refused', labelNames: ['outcome'], registers });
    this.refusals = new Counter({
      name: 'switchyard_refusals_total',
      help: 'Requests turned away, by kind (delivery, run, request) and reason (the error code)',
      labelNames: ['kind', 'reason'],
      registers,
    });
    this.bodyBytes = new Gauge({ name: 'switchyard_http_request_body_bytes_in_flight', help: 'Bytes of request bodies read and not yet answered', registers });
    this.batchSizes = new Histogram({
      name: 'switchyard_group_commit_batch_size',
      help: 'Records written by one group-commit statement, by store',
      labelNames: ['store'],
      buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
      registers,
    });
    this.fallbacks = new Counter({ name: 'switchyard_group_commit_fallbacks_total', help: 'Group-commit batches that failed whole and were written record by record, by store', labelNames: ['store'], registers });
    this.storageFailures = new Counter({
      name: 'switchyard_storage_failures_total',
      help: 'Requests the database could not serve (answered 503 storage_unavailable), by kind: unreachable, read_only, full, busy, other',
      labelNames: ['kind'],
      registers,
    });
    for (const kind of STORAGE_FAILURE_KINDS) this.storageFailures.inc({ kind }, 0);
    // Series with a known, small set of values start at 0, so rate() and alerts see them from the start.
    for (const outcome of ['accepted', 'duplicate', 'refused'] satisfies DeliveryCount[]) this.deliveries.inc({ outcome }, 0);
    for (const store of ['invocations', 'deliveries'] satisfies GroupCommitStore[]) this.fallbacks.inc({ store }, 0);
    // Read at each scrape; a failed read shows as NaN rather than failing the scrape.
    const self = this;
    new Gauge({
      name: 'switchyard_ledger_backlog_entries',
      help: 'Ledger entries queued for the Merkle log and not yet integrated',
      registers,
      async collect() {
        const reading = await self.readBacklog();
        this.set(reading ? reading.entries : Number.NaN);
      },
    });
    new Gauge({
      name: 'switchyard_ledger_integration_lag_seconds',
      help: 'Age of the oldest ledger entry not yet integrated (0 when none waits)',
      registers,
      async collect() {
        const reading = await self.readBacklog();
        this.set(!reading ? Number.NaN : reading.oldestEntryAt ? Math.max(0, (Date.now() - reading.oldestEntryAt.getTime()) / 1000) : 0);
      },
    });
  }

  /** One child per method, route pattern and status, so a request's observation hashes no labels. */
  private readonly httpSeries = new Map<string, { observe(seconds: number): void }>();

  /**
   * A request answered (status) or left by its client first (null): its time by route pattern, and
   * a refusal by reason when its error answer turned it away. Called by the request observer, the
   * first middleware, so refusals before routing count too.
   */
  requestAnswered(method: string, route: string, status: number | null, seconds: number, statusCode: number, errorCode: string | undefined): void {
    const label = status === null ? 'aborted' : String(status);
    const key = `${method} ${route} ${label}`;
    let series = this.httpSeries.get(key);
    if (!series) {
      series = this.httpDuration.labels({ method, route, status: label });
      this.httpSeries.set(key, series);
    }
    series.observe(seconds);
    // Error answers carry their code (errors.ts); runs and deliveries count their own refusals.
    if (errorCode !== undefined && REFUSAL_STATUSES.has(statusCode)) this.requestRefused(errorCode);
  }

  /** The gauge of body bytes in flight, for the request observer (or a body budget) to move. */
  readonly bodyBytesInFlight: BytesInFlight = {
    add: (bytes) => this.bodyBytes.inc(bytes),
    release: (bytes) => this.bodyBytes.dec(bytes),
  };

  /** A request failed because the database did not serve it (see storage-knex's storageFailureKind). */
  storageFailed(kind: string): void {
    this.storageFailures.inc({ kind: (STORAGE_FAILURE_KINDS as readonly string[]).includes(kind) ? kind : 'other' });
  }

  /** An invocation reached the ledger. */
  runRecorded(invocation: Pick<StoredInvocation, 'key' | 'status' | 'error'>): void {
    this.runs.inc({ key: invocation.key, status: invocation.status });
    if (REFUSED_RUN.has(invocation.status)) this.refusals.inc({ kind: 'run', reason: invocation.error?.code ?? invocation.status });
  }

  /** A delivery reached the ledger. */
  deliveryRecorded(delivery: Pick<StoredDelivery, 'outcome' | 'duplicate' | 'refusal'>): void {
    const outcome: DeliveryCount = delivery.outcome === 'refused' ? 'refused' : delivery.duplicate ? 'duplicate' : 'accepted';
    this.deliveries.inc({ outcome });
    if (outcome === 'refused') this.refusals.inc({ kind: 'delivery', reason: delivery.refusal?.code ?? 'unknown' });
  }

  /** A request turned away before it became a record (a body budget, a timeout, a header limit). */
  requestRefused(reason: string): void {
    this.refusals.inc({ kind: 'request', reason });
  }

  upstreamCall(tool: string, outcome: UpstreamOutcome, seconds: number): void {
    this.upstreamDuration.observe({ tool, outcome }, seconds);
  }

  groupCommit(store: GroupCommitStore): { committed(size: number): void; fellBack(size: number): void } {
    return {
      committed: (size) => this.batchSizes.observe({ store }, size),
      fellBack: () => this.fallbacks.inc({ store }),
    };
  }

  /** Where the ledger backlog is read from at each scrape. */
  watchLedgerBacklog(read: () => Promise<LedgerBacklogReading>): void {
    this.backlogReader = read;
  }

  /** One read per scrape, shared by the two ledger gauges. */
  private pendingRead: Promise<LedgerBacklogReading | null> | null = null;
  private readBacklog(): Promise<LedgerBacklogReading | null> {
    if (!this.backlogReader) return Promise.resolve(null);
    this.pendingRead ??= this.backlogReader()
      .catch(() => null)
      .finally(() => setImmediate(() => (this.pendingRead = null)));
    return this.pendingRead;
  }

  /** The text exposition format, and its content type. */
  async exposition(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}
