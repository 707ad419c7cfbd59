// The invocation ledger on knex. Rows are only ever inserted (the database refuses anything else);
// links such as repaired_by are derived by query when reading, never written back.
import type { Knex } from 'knex';
import { GroupCommit } from './group-commit.js';
import { SqliteStatements } from './sqlite-statements.js';
import { pageOf, seqPage } from './seq-paging.js';
import type { InvocationRecord, InvocationStore, LedgerPageRequest, Page, StoredInvocation } from '@switchyard/core';

const COLUMNS = ['id', 'key', 'actor', 'fingerprint', 'status', 'ok', 'ran', 'repairs', 'replays', 'source', 'created_at', 'duration_ms', 'record'] as const;
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
  private readonly statements: SqliteStatements | null;

  constructor(private readonly knex: Knex) {
    this.statements = SqliteStatements.for(knex);
    // Runs finishing together share one INSERT (group commit); each is answered once committed.
    this.commits = new GroupCommit<InvocationRecord, StoredInvocation>(
      (records) => this.insert(records),
      async (record) => (await this.insert([record]))[0]!,
      knex.client.config.client === 'pg' ? 4 : 1,
    );
  }

  append(record: InvocationRecord): Promise<StoredInvocation> {
    return this.commits.submit(record);
  }

  private async insert(records: InvocationRecord[]): Promise<StoredInvocation[]> {
    const texts = records.map((record) => JSON.stringify(record));
    const values = records.map((record, i) => [
      record.id, record.key, record.actor, record.fingerprint, record.status, record.ok, record.ran, record.repairs,
      record.replays, record.source, record.created_at, Math.round(record.duration_ms), texts[i]!,
    ]);
    const rows: Array<{ seq: number | string; id: string }> = this.statements
      ? await this.statements.all(insertSql(records.length), values.flat())
      : await this.knex('invocations')
          .insert(values.map((v) => Object.fromEntries(COLUMNS.map((c, i) => [c, v[i]]))))
          .returning(['seq', 'id']);
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
      ...(JSON.parse(row.record) as InvocationRecord),
      seq: Number(row.seq),
      repaired_by: byTarget.get(row.id) ?? [],
    }));
  }
}
