// Webhook deliveries on knex. Each is stored whole (headers as received, body as bytes). Whether a
// delivery duplicates an earlier one is decided by the database: a partial unique index admits one
// first delivery per (webhook, delivery id), and INSERT … ON CONFLICT DO NOTHING lets the index
// choose, atomically, on both engines and across any number of service processes. A batch of
// deliveries is one statement (group commit); only the losers, the duplicates, need a second.
import { hash } from 'node:crypto';
import type { Knex } from 'knex';
import { GroupCommit } from './group-commit.js';
import { UnknownFates } from './unknown-fate.js';
import { chunks } from './sql-batches.js';
import { pageOf, seqPage } from './seq-paging.js';
import type { StoreObserver, StoreOptions } from './store-observer.js';
import { FIRST_DELIVERY, dialectFor, type Dialect, type Statements } from './dialect.js';
import { forwardJobRow } from './forward-job-store.js';
import type { ActionRecord, DeliveryRecord, DeliveryStore, EventTypeCounts, LedgerPageRequest, NewForwardJob, Page, StoredDelivery } from '@switchyard/core';
import type { LedgerSource } from './ledger-source.js';

export interface DeliveryRow {
  seq: number | string;
  id: string;
  hook_id: string;
  received_at: string;
  method: string;
  path: string;
  query: string;
  headers: string;
  body: Buffer | null;
  body_size: number;
  body_sha256: string | null;
  /** Set by listings: the body is over the inline threshold and was not read. */
  body_omitted?: number | boolean | null;
  client_address: string | null;
  delivery_id: string | null;
  delivery_id_rule: string | null;
  event_type: string | null;
  event_type_rule: string | null;
  signature: string | null;
  outcome: string;
  refusal: string | null;
  action: string | null;
  duplicate_of: string | null;
  request_id: string | null;
}

export interface ActionRow {
  delivery: string;
  action: string;
  invocation: string;
  ok: boolean | number;
  status: string;
  answer: string;
  created_at: string;
}

export const COLUMNS = [
  'id', 'hook_id', 'received_at', 'method', 'path', 'query', 'headers', 'body', 'body_size', 'body_sha256', 'client_address',
  'delivery_id', 'delivery_id_rule', 'signature', 'outcome', 'refusal', 'action', 'duplicate_of', 'request_id', 'event_type', 'event_type_rule',
] as const;
/**
 * A multi-row INSERT; hand-written because knex cannot put a WHERE on the conflict target. Columns
 * null in every row of the batch (`nullColumns`, a bit per column) are written as NULL rather than
 * bound: most deliveries have no refusal, action, signature or first delivery, and the sqlite3
 * driver converts each bound non-string on the JavaScript thread (an instanceof check each).
 */
function insertSql(rows: number, firstOnly: boolean, nullColumns: number): string {
  const tuple = `(${COLUMNS.map((_, i) => (nullColumns & (1 << i) ? 'NULL' : '?')).join(', ')})`;
  const values = Array.from({ length: rows }, () => tuple).join(', ');
  const conflict = firstOnly ? ` ON CONFLICT (hook_id, delivery_id) WHERE ${FIRST_DELIVERY} DO NOTHING` : '';
  return `INSERT INTO deliveries (${COLUMNS.join(', ')}) VALUES ${values}${conflict} RETURNING id, seq`;
}

/** SHA-256 (hex) of a body as stored, written with it so that listings need not read the body. */
const bodyHash = (body: Uint8Array | null): string | null => (body ? hash('sha256', body, 'hex') : null);

/**
 * A record's values in COLUMNS order. The body size is given as text, which binds as cheaply as
 * the other strings; the column's integer type stores it as a number on both engines.
 */
const rowValues = (r: DeliveryRecord, sha256: string | null, duplicateOf: string | null): unknown[] => [
  r.id, r.hook_id, r.received_at, r.method, r.path, r.query, JSON.stringify(r.headers),
  r.body ? Buffer.from(r.body.buffer, r.body.byteOffset, r.body.byteLength) : null,
  String(r.body_size), sha256, r.client_address, r.delivery_id, r.delivery_id_rule, r.signature, r.outcome,
  r.refusal ? JSON.stringify(r.refusal) : null, r.action, duplicateOf, r.request_id, r.event_type, r.event_type_rule,
];

export const toAction = (r: ActionRow): ActionRecord => ({
  delivery: r.delivery,
  action: r.action,
  invocation: r.invocation,
  ok: Boolean(r.ok),
  status: r.status,
  answer: JSON.parse(r.answer) as ActionRecord['answer'],
  created_at: r.created_at,
});

/** A deliveries row as the domain reads it. */
export const toDelivery = (r: DeliveryRow, actionRun: ActionRecord | null): StoredDelivery => ({
  id: r.id,
  hook_id: r.hook_id,
  received_at: r.received_at,
  method: r.method,
  path: r.path,
  query: r.query,
  headers: JSON.parse(r.headers) as Array<[string, string]>,
  body: r.body === null ? null : new Uint8Array(r.body),
  body_size: r.body_size,
  body_sha256: r.body_sha256,
  body_omitted: Boolean(r.body_omitted),
  client_address: r.client_address,
  delivery_id: r.delivery_id,
  delivery_id_rule: r.delivery_id_rule,
  event_type: r.event_type ?? null,
  event_type_rule: r.event_type_rule ?? null,
  signature: r.signature as StoredDelivery['signature'],
  outcome: r.outcome as StoredDelivery['outcome'],
  refusal: r.refusal ? (JSON.parse(r.refusal) as StoredDelivery['refusal']) : null,
  action: r.action,
  request_id: r.request_id,
  seq: Number(r.seq),
  duplicate: r.duplicate_of !== null,
  duplicate_of: r.duplicate_of,
  action_run: actionRun,
});

/**
 * The deliveries' place in the ledger (ledger-sources.ts). The leaf commits to a body by the hash
 * stored with it: bodies (up to megabytes each) are never read for it.
 */
export const DELIVERY_SOURCE: LedgerSource<'delivery'> = {
  kind: 'delivery',
  table: 'deliveries',
  idColumn: 'id',
  timeColumn: 'received_at',
  leafColumns: ['seq', ...COLUMNS.filter((c) => c !== 'body')],
  toEntry: (r) => ({ kind: 'delivery', entry: toDelivery({ ...(r as unknown as DeliveryRow), body: null }, null) }),
};

/** The actions' records' place in the ledger: one per delivery, named by it (ledger-sources.ts). */
export const ACTION_SOURCE: LedgerSource<'action'> = {
  kind: 'action',
  table: 'webhook_actions',
  idColumn: 'delivery',
  timeColumn: 'created_at',
  leafColumns: null,
  toEntry: (r) => ({ kind: 'action', entry: toAction(r as unknown as ActionRow) }),
};

const idKey = (hookId: string, deliveryId: string) => `${hookId}\0${deliveryId}`;

/** A delivery to append, with the forwarding jobs its commit writes if it is stored as a first. */
interface Appended {
  record: DeliveryRecord;
  schedule: readonly NewForwardJob[];
}

export class KnexDeliveryStore implements DeliveryStore {
  private readonly commits: GroupCommit<Appended, StoredDelivery>;
  private readonly sqlCache = new Map<string, string>();
  private readonly statements: Statements;
  private readonly dialect: Dialect;

  private readonly observer: StoreObserver<StoredDelivery> | null;
  /** Deliveries whose write died with its connection: looked up before they are failed. */
  private readonly fates = new UnknownFates();

  constructor(
    private readonly knex: Knex,
    options: StoreOptions<StoredDelivery> = {},
  ) {
    this.observer = options.observer ?? null;
    const dialect = (this.dialect = dialectFor(knex));
    this.statements = dialect.statements(knex);
    this.commits = new GroupCommit<Appended, StoredDelivery>(
      (items) => this.insertObserved(items),
      async (item) => (await this.insertObserved([item]))[0]!,
      dialect.writersInFlight,
      undefined,
      this.observer,
    );
  }

  /** Batches that failed as one statement and were stored one delivery at a time instead. */
  get batchFallbacks(): number {
    return this.commits.fallbacks;
  }

  /**
   * Committed before it resolves; concurrent appends share one statement (group commit). A write
   * whose connection died under it is looked up before it fails (unknown-fate.ts): a delivery that
   * landed is answered as stored, so its sender is not told 503 for it and does not send it again.
   * Its forwarding jobs are in the same commit, so a delivery found is a delivery scheduled.
   */
  async append(record: DeliveryRecord, schedule: readonly NewForwardJob[] = []): Promise<StoredDelivery> {
    try {
      const stored = await this.commits.submit({ record, schedule });
      this.fates.settled(record.id);
      return stored;
    } catch (err) {
      return this.fates.resolve(record.id, err, () => this.get(record.id));
    }
  }

  private async insertObserved(items: Appended[]): Promise<StoredDelivery[]> {
    const records = items.map((i) => i.record);
    const jobs = items.flatMap((i) => i.schedule);
    // Without jobs, the batch is one statement (or two, see insertBatch); with them, one transaction.
    const write = jobs.length === 0 ? () => this.insertBatch(this.knex, records) : () => this.knex.transaction((trx) => this.insertScheduled(trx, items));
    const stored = await this.fates.watch(records.map((r) => r.id), write);
    if (this.observer) for (const s of stored) this.observer.appended(s);
    return stored;
  }

  /**
   * Every record is offered as a first delivery; the index keeps the ones that are (within a batch
   * the earlier record wins, rows go in arrival order). The rest are duplicates of a first that is
   * already committed, so they are written next, pointing at it. A crash between the two
   * statements loses only duplicates nobody has been answered for yet.
   */
  private async insertBatch(db: Knex, records: DeliveryRecord[]): Promise<StoredDelivery[]> {
    const seqOf = new Map<string, number>();
    const duplicateOf = new Map<string, string>();
    const hashes = new Map(records.map((r) => [r.id, bodyHash(r.body)]));
    for (const row of await this.insert(db, records, true, hashes)) seqOf.set(row.id, Number(row.seq));

    const losers = records.filter((r) => !seqOf.has(r.id));
    if (losers.length > 0) {
      const keys = [...new Set(losers.map((r) => idKey(r.hook_id, r.delivery_id!)))].map((k) => k.split('\0') as [string, string]);
      const firsts = (await db('deliveries')
        .select('id', 'hook_id', 'delivery_id')
        .whereRaw(FIRST_DELIVERY)
        .whereIn(['hook_id', 'delivery_id'], keys)) as Array<{ id: string; hook_id: string; delivery_id: string }>;
      const firstOf = new Map(firsts.map((f) => [idKey(f.hook_id, f.delivery_id), f.id]));
      for (const r of losers) {
        const first = firstOf.get(idKey(r.hook_id, r.delivery_id!));
        if (first === undefined) throw new Error(`delivery ${r.id} conflicted with no committed first delivery`);
        duplicateOf.set(r.id, first);
      }
      for (const row of await this.insert(db, losers, false, hashes, duplicateOf)) seqOf.set(row.id, Number(row.seq));
    }
    return records.map((r) => {
      const dup = duplicateOf.get(r.id) ?? null;
      return { ...r, seq: seqOf.get(r.id)!, body_sha256: hashes.get(r.id) ?? null, body_omitted: false, duplicate: dup !== null, duplicate_of: dup, action_run: null };
    });
  }

  /** The batch and the jobs of those stored as first, accepted deliveries, in transaction `trx`. */
  private async insertScheduled(trx: Knex.Transaction, items: Appended[]): Promise<StoredDelivery[]> {
    const stored = await this.insertBatch(trx, items.map((i) => i.record));
    const jobs = items.flatMap((item, i) => (stored[i]!.outcome === 'accepted' && !stored[i]!.duplicate ? item.schedule : []));
    if (jobs.length > 0) await this.dialect.insertRows(trx, 'forward_jobs', jobs.map(forwardJobRow), this.statements);
    return stored;
  }

  private async insert(db: Knex, records: DeliveryRecord[], firstOnly: boolean, hashes: Map<string, string | null>, duplicateOf?: Map<string, string>): Promise<Array<{ id: string; seq: number | string }>> {
    const rows = records.map((r) => rowValues(r, hashes.get(r.id) ?? null, duplicateOf?.get(r.id) ?? null));
    let nullColumns = 0;
    for (let i = 0; i < COLUMNS.length; i++) if (rows.every((row) => row[i] === null)) nullColumns |= 1 << i;
    const cacheKey = `${records.length}:${firstOnly}:${nullColumns}`;
    let sql = this.sqlCache.get(cacheKey);
    if (sql === undefined) {
      if (this.sqlCache.size >= 1024) this.sqlCache.clear(); // batch sizes times null patterns: bounded
      this.sqlCache.set(cacheKey, (sql = insertSql(records.length, firstOnly, nullColumns)));
    }
    const bindings: unknown[] = [];
    for (const row of rows) for (let i = 0; i < row.length; i++) if (!(nullColumns & (1 << i))) bindings.push(row[i]);
    return this.statements.all(sql, bindings, db);
  }

  async appendAction(record: ActionRecord): Promise<void> {
    await this.knex('webhook_actions').insert({ ...record, answer: JSON.stringify(record.answer) });
  }

  async getMany(ids: string[]): Promise<StoredDelivery[]> {
    const rows: DeliveryRow[] = [];
    for (const part of chunks(ids)) rows.push(...(await this.knex<DeliveryRow>('deliveries').select('*').whereIn('id', part)));
    return this.withActions(rows);
  }

  async get(id: string, options: { inlineBodyBytes?: number } = {}): Promise<StoredDelivery | undefined> {
    const query = this.knex<DeliveryRow>('deliveries').where({ id });
    const row = (await (options.inlineBodyBytes === undefined ? query.select('*') : this.withInlineBody(query, options.inlineBodyBytes)).first()) as DeliveryRow | undefined;
    if (!row) return undefined;
    return (await this.withActions([row]))[0];
  }

  async list(options: LedgerPageRequest & { hookId?: string; eventType?: string; inlineBodyBytes: number }): Promise<Page<StoredDelivery>> {
    const query = this.withInlineBody(this.knex<DeliveryRow>('deliveries'), options.inlineBodyBytes);
    if (options.hookId) query.where('hook_id', options.hookId);
    if (options.eventType !== undefined) query.where('event_type', options.eventType);
    const rows = (await seqPage(query, options)) as DeliveryRow[];
    return pageOf(await this.withActions(rows.slice(0, options.limit)), rows.length, options.limit);
  }

  /**
   * One GROUP BY over the (hook_id, event_type, seq) or (event_type, seq) index, which holds every
   * column it reads; the database keeps the groups, the answer at most `limit` of them.
   */
  async countEventTypes(options: { hookId?: string; limit: number }): Promise<EventTypeCounts> {
    const query = this.knex('deliveries').select('event_type').count({ n: '*' }).groupBy('event_type').orderBy([{ column: 'n', order: 'desc' }, { column: 'event_type', order: 'asc' }]).limit(options.limit + 1);
    if (options.hookId) query.where('hook_id', options.hookId);
    const rows = (await query) as Array<{ event_type: string | null; n: number | string }>;
    return { items: rows.slice(0, options.limit).map((r) => ({ event_type: r.event_type, count: Number(r.n) })), more: rows.length > options.limit };
  }

  /**
   * Every column, but the body only when it is at most `inlineBytes` long: a larger one is neither
   * read nor sent (the database compares its stored length), and `body_omitted` marks it.
   */
  private withInlineBody(query: Knex.QueryBuilder, inlineBytes: number): Knex.QueryBuilder {
    const columns = COLUMNS.filter((c) => c !== 'body');
    return query.select(
      'seq', ...columns,
      this.knex.raw('CASE WHEN length(body) <= ? THEN body END AS body', [inlineBytes]),
      this.knex.raw('CASE WHEN length(body) > ? THEN 1 ELSE 0 END AS body_omitted', [inlineBytes]),
    );
  }

  async readBody(id: string, offset: number, length: number): Promise<Uint8Array | undefined> {
    const slice = dialectFor(this.knex).byteSlice('body');
    const row = (await this.knex('deliveries').select(this.knex.raw(`${slice.sql} AS part`, [offset + 1, length])).where({ id }).first()) as { part: Buffer | string | null } | undefined;
    if (!row || row.part === null) return undefined;
    const part = typeof row.part === 'string' ? Buffer.from(row.part, slice.encoding === 'base64' ? 'base64' : 'utf8') : row.part;
    return new Uint8Array(part.buffer, part.byteOffset, part.byteLength);
  }

  private async withActions(rows: DeliveryRow[]): Promise<StoredDelivery[]> {
    const withAction = rows.filter((r) => r.action !== null).map((r) => r.id);
    const actions = new Map<string, ActionRecord>();
    if (withAction.length > 0) {
      for (const a of await this.knex<ActionRow>('webhook_actions').whereIn('delivery', withAction)) actions.set(a.delivery, toAction(a));
    }
    return rows.map((r) => toDelivery(r, actions.get(r.id) ?? null));
  }
}
