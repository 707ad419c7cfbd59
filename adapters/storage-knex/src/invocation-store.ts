// The invocation ledger on knex. Rows are only ever inserted (the database refuses anything else);
// links such as repaired_by are derived by query when reading, never written back.
import type { Knex } from 'knex';
import { GroupCommit } from './group-commit.js';
import { UnknownFates } from './unknown-fate.js';
import { pageOf, seqPage } from './seq-paging.js';
import type { StoreObserver, StoreOptions } from './store-observer.js';
import { dialectFor, type Statements } from './dialect.js';
import type { InvocationRecord, InvocationStatus, InvocationStore, LedgerPageRequest, Page, RepairLink, StoredInvocation } from '@switchyard/core';
import type { LedgerSource } from './ledger-source.js';

/** The invocations' place in the ledger: the whole record is its leaf's source (ledger-sources.ts). */
export const INVOCATION_SOURCE: LedgerSource<'invocation'> = {
  kind: 'invocation',
  table: 'invocations',
  idColumn: 'id',
  timeColumn: 'created_at',
  leafColumns: ['seq', 'record'],
  toEntry: (r) => {
    // Filled in place rather than spread into a copy: this runs for every invocation leaf.
    const entry = JSON.parse(r['record'] as string) as InvocationRecord as StoredInvocation;
    entry.seq = Number(r['seq']);
    entry.repaired_by = [];
    return { kind: 'invocation', entry };
  },
};

/** A repair chain longer than this is not read further (the lineage rules need its first success and its end). */
const MAX_CHAIN = 1000;

const COLUMNS = ['id', 'key', 'actor', 'fingerprint', 'status', 'ok', 'ran', 'repairs', 'replays', 'source', 'created_at', 'duration_ms', 'record', 'request_id', 'trace_id'] as const;
const ROW_PLACEHOLDERS = `(${COLUMNS.map(() => '?').join(', ')})`;
const sqlBySize = new Map<number, string>();
const insertSql = (rows: number): string => {
  let sql = sqlBySize.get(rows);
  if (sql === undefined) sqlBySize.set(rows, (sql = `INSERT INTO invocations (${COLUMNS.join(', ')}) VALUES ${Array.from({ length: rows }, () => ROW_PLACEHOLDERS).join(', ')} RETURNING seq, id`));
  return sql;
};

interface InvocationRow {
  seq: number | string;
  id: string;
  repairs: string | null;
  record: string;
}

export class KnexInvocationStore implements InvocationStore {
  private readonly commits: GroupCommit<InvocationRecord, StoredInvocation>;
  /** On SQLite, the batch INSERT runs as a statement prepared once per batch size (not re-planned per run). */
  private readonly statements: Statements;

  private readonly observer: StoreObserver<StoredInvocation> | null;
  /** Records whose write died with its connection: looked up before they are failed. */
  private readonly fates = new UnknownFates();

  constructor(
    private readonly knex: Knex,
    options: StoreOptions<StoredInvocation> = {},
  ) {
    this.observer = options.observer ?? null;
    const dialect = dialectFor(knex);
    this.statements = dialect.statements(knex);
    // Runs finishing together share one INSERT (group commit); each is answered once committed.
    this.commits = new GroupCommit<InvocationRecord, StoredInvocation>(
      (records) => this.insertObserved(records),
      async (record) => (await this.insertObserved([record]))[0]!,
      dialect.writersInFlight,
      undefined,
      this.observer,
    );
  }

  /** Committed before it resolves; a write whose connection died under it is looked up before it fails (unknown-fate.ts). */
  async append(record: InvocationRecord): Promise<StoredInvocation> {
    try {
      const stored = await this.commits.submit(record);
      this.fates.settled(record.id);
      return stored;
    } catch (err) {
      return this.fates.resolve(record.id, err, () => this.get(record.id));
    }
  }

  private async insertObserved(records: InvocationRecord[]): Promise<StoredInvocation[]> {
    const stored = await this.fates.watch(records.map((r) => r.id), () => this.insert(records));
    if (this.observer) for (const s of stored) this.observer.appended(s);
    return stored;
  }

  private async insert(records: InvocationRecord[]): Promise<StoredInvocation[]> {
    const texts = records.map((record) => JSON.stringify(record));
    const values = records.map((record, i) => [
      record.id, record.key, record.actor, record.fingerprint, record.status, record.ok, record.ran, record.repairs,
      record.replays, record.source, record.created_at, Math.round(record.duration_ms), texts[i]!, record.request_id, record.trace_id ?? null,
    ]);
    const rows = await this.statements.all<{ seq: number | string; id: string }>(insertSql(records.length), values.flat());
    const seqOf = new Map(rows.map((r) => [r.id, Number(r.seq)]));
    // Answered as stored (a JSON round trip); a new record cannot have been repaired yet.
    return records.map((record, i) => ({ ...(JSON.parse(texts[i]!) as InvocationRecord), seq: seqOf.get(record.id)!, repaired_by: [] }));
  }

  async get(id: string): Promise<StoredInvocation | undefined> {
    const row = await this.knex<InvocationRow>('invocations').select('seq', 'id', 'repairs', 'record').where({ id }).first();
    if (!row) return undefined;
    const [stored] = await this.withLinks([row]);
    return stored;
  }

  async list(options: LedgerPageRequest & { key?: string }): Promise<Page<StoredInvocation>> {
    const query = this.knex<InvocationRow>('invocations').select('seq', 'id', 'repairs', 'record');
    if (options.key !== undefined) query.where('key', options.key);
    const rows = await seqPage(query, options);
    return pageOf(await this.withLinks(rows.slice(0, options.limit)), rows.length, options.limit);
  }

  /**
   * Every invocation reached from `id` through repairs links, in append order: one recursive query
   * (the same SQL on SQLite and PostgreSQL), walking down the repairs index.
   */
  async repairChain(id: string): Promise<RepairLink[]> {
    const rows: Array<{ seq: number | string; id: string; repairs: string; ok: boolean | number; status: string }> = await this.knex
      .withRecursive('chain', ['seq', 'id', 'repairs', 'ok', 'status'], (q) => {
        q.select('seq', 'id', 'repairs', 'ok', 'status')
          .from('invocations')
          .where('repairs', id)
          .unionAll((u) => {
            u.select('i.seq', 'i.id', 'i.repairs', 'i.ok', 'i.status').from('invocations as i').join('chain as c', 'i.repairs', 'c.id');
          });
      })
      .select('seq', 'id', 'repairs', 'ok', 'status')
      .from('chain')
      .orderBy('seq', 'asc')
      .limit(MAX_CHAIN);
    // SQLite answers booleans as 0/1, PostgreSQL as booleans; seq is a bigint (a string on pg).
    return rows.map((r) => ({ id: r.id, repairs: r.repairs, ok: r.ok === true || r.ok === 1, status: r.status as InvocationStatus, seq: Number(r.seq) }));
  }

  /** Attaches seq and repaired_by (the invocations that name each row as the one they repair). */
  private async withLinks(rows: InvocationRow[]): Promise<StoredInvocation[]> {
    if (rows.length === 0) return [];
    const repairers = await this.knex<InvocationRow>('invocations')
      .select('id', 'repairs')
      .whereIn('repairs', rows.map((r) => r.id))
      .orderBy('seq', 'asc');
    const byTarget = new Map<string, string[]>();
    for (const r of repairers) byTarget.set(r.repairs!, [...(byTarget.get(r.repairs!) ?? []), r.id]);
    return rows.map((row) => ({
      // Records written before request ids have none.
      ...({ request_id: null, ...JSON.parse(row.record) } as InvocationRecord),
      seq: Number(row.seq),
      repaired_by: byTarget.get(row.id) ?? [],
    }));
  }
}
