// The approvals' port: one decision per waiting invocation.
import type { ApprovalRecord } from '../approval-record.js';
import type { StoredInvocation } from '../invocation.js';

export interface ApprovalStore {
  /** Records a decision; an invocation is decided once (already_decided otherwise, atomically). */
  decide(record: ApprovalRecord): Promise<void>;
  get(invocation: string): Promise<ApprovalRecord | undefined>;
  /** Invocations awaiting approval with no decision yet, newest first. */
  pending(limit: number): Promise<StoredInvocation[]>;
}
export const ApprovalStore = Symbol.for('switchyard.ApprovalStore');
