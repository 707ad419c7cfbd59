// Approvals: a run of a capability that needs approval waits as an invocation `awaiting_approval`,
// bound to the hash of its exact arguments. The owner approves or denies it once; an approval runs
// it once, as a new invocation whose source names the approval; a request expires unanswered after
// its time. Every step is a ledger entry: the waiting invocation, the decision, the run.
import type { DispatchOutcome, DispatchService } from './dispatch.js';
import { SwitchyardError, fail } from '../errors.js';
import { newInvocationId, randomId } from '../ids.js';
import type { StoredInvocation } from './invocation.js';
import type { ApprovalRecord } from './approval-record.js';
import type { ApprovalStore, InvocationStore } from './ports.js';
import type { Clock } from '../clock.js';

export interface PendingApproval {
  invocation: StoredInvocation;
  args_hash: string;
  expires_at: string;
  expired: boolean;
}

const waitingDetails = (inv: StoredInvocation) => {
  const e = inv.error as (Record<string, unknown> & { args_hash?: string; approval_expires_at?: string }) | null;
  if (inv.status !== 'awaiting_approval' || !e?.args_hash || !e.approval_expires_at) return null;
  return { args_hash: e.args_hash, expires_at: e.approval_expires_at };
};

export class ApprovalService {
  constructor(
    private readonly invocations: InvocationStore,
    private readonly approvals: ApprovalStore,
    private readonly dispatch: DispatchService,
    private readonly clock: Clock,
  ) {}

  async pending(limit: number): Promise<PendingApproval[]> {
    const now = this.clock.now().toISOString();
    return (await this.approvals.pending(limit)).flatMap((invocation) => {
      const w = waitingDetails(invocation);
      return w ? [{ invocation, args_hash: w.args_hash, expires_at: w.expires_at, expired: now >= w.expires_at }] : [];
    });
  }

  async decide(invocationId: string, decision: 'approve' | 'deny', decidedBy: string): Promise<{ approval: ApprovalRecord; run: DispatchOutcome | null }> {
    const waiting = await this.invocations.get(invocationId);
    if (!waiting) fail('invocation_not_found', `no invocation ${invocationId}`);
    const w = waitingDetails(waiting!);
    if (!w) fail('invalid_request', `invocation ${invocationId} is not awaiting approval (status ${waiting!.status})`);
    const existing = await this.approvals.get(invocationId);
    if (existing) throw new SwitchyardError('already_decided', `invocation ${invocationId} was already ${existing.decision}`, { approval: existing });
    if (this.clock.now().toISOString() >= w!.expires_at) fail('approval_expired', `the approval request expired at ${w!.expires_at}; run it again to ask anew`, { expired_at: w!.expires_at });

    const runId = decision === 'approve' ? newInvocationId() : null;
    const approval: ApprovalRecord = {
      id: randomId('apr_', 20),
      invocation: invocationId,
      decision: decision === 'approve' ? 'approved' : 'denied',
      args_hash: w!.args_hash,
      decided_by: decidedBy,
      decided_at: this.clock.now().toISOString(),
      run_invocation: runId,
    };
    // The decision is claimed atomically (the store refuses a second), so an approval runs at most
    // once. An approval is claimed only once its run is reserved (write-ahead): a database that takes
    // no reservation leaves it undecided, to be approved again, rather than used up with no run.
    if (!runId) {
      await this.approvals.decide(approval);
      return { approval, run: null };
    }
    const run = await this.dispatch.runApproved(waiting!, approval, runId, () => this.approvals.decide(approval));
    return { approval, run };
  }
}
