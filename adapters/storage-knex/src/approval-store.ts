// Approval decisions on knex: one row per decided invocation, the unique key deciding races.
import type { Knex } from 'knex';
import type { ApprovalRecord, ApprovalStore, InvocationRecord, StoredInvocation } from '@switchyard/core';
import { SwitchyardError } from '@switchyard/core/errors';
import { isUniqueViolation } from './dialect.js';
import type { LedgerSource } from './ledger-source.js';

/** The approvals' place in the ledger (ledger-sources.ts). */
export const APPROVAL_SOURCE: LedgerSource<'approval'> = {
  kind: 'approval',
  table: 'approvals',
  idColumn: 'id',
  timeColumn: 'decided_at',
  leafColumns: null,
  toEntry: (r) => ({ kind: 'approval', entry: r as unknown as ApprovalRecord }),
};

export class KnexApprovalStore implements ApprovalStore {
  constructor(private readonly knex: Knex) {}

  async decide(record: ApprovalRecord): Promise<void> {
    try {
      await this.knex('approvals').insert(record);
    } catch (err) {
      if (isUniqueViolation(err)) throw new SwitchyardError('already_decided', `invocation ${record.invocation} was already decided`);
      throw err;
    }
  }

  async get(invocation: string): Promise<ApprovalRecord | undefined> {
    return (await this.knex('approvals').select('id', 'invocation', 'decision', 'args_hash', 'decided_by', 'decided_at', 'run_invocation').where({ invocation }).first()) as ApprovalRecord | undefined;
  }

  async pending(limit: number): Promise<StoredInvocation[]> {
    const rows = (await this.knex('invocations as i')
      .select('i.seq', 'i.record')
      .where('i.status', 'awaiting_approval')
      .whereNotExists(this.knex('approvals as a').select(this.knex.raw('1')).whereRaw('a.invocation = i.id'))
      .orderBy('i.seq', 'desc')
      .limit(limit)) as Array<{ seq: number | string; record: string }>;
    return rows.map((r) => ({ ...(JSON.parse(r.record) as InvocationRecord), seq: Number(r.seq), repaired_by: [] }));
  }
}
