// The record of an owner's decision on an invocation that waited for approval.

/** The owner's decision on an invocation that waited for approval. */
export interface ApprovalRecord {
  id: string;
  /** The invocation that waited. */
  invocation: string;
  decision: 'approved' | 'denied';
  /** What was approved: the hash of the exact arguments. */
  args_hash: string;
  decided_by: string;
  decided_at: string;
  /** The invocation the approval ran (approved only). */
  run_invocation: string | null;
}
