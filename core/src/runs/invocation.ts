// The invocation record: one run (or refused run) of a capability, as the ledger keeps it.
import type { ErrorCode } from '../errors.js';
import type { ContentBlock, UpstreamLogEntry, Yield } from '../capabilities/index.js';
import type { InputRound } from './caller-rounds.js';

/**
 * `cancelled`: the caller withdrew the call while it ran (ok false, ran true). `interrupted`: the run
 * was begun but its outcome never reached the ledger (the process died, or the write failed); it
 * ran, and what it did is unknown (ok false, ran true).
 */
export type InvocationStatus = 'ok' | 'failed' | 'refused' | 'awaiting_approval' | 'denied' | 'cancelled' | 'interrupted';

/** Every status, in the order documents list them. */
export const INVOCATION_STATUSES: readonly InvocationStatus[] = ['ok', 'failed', 'refused', 'awaiting_approval', 'denied', 'cancelled', 'interrupted'];

export interface InvocationError {
  code: ErrorCode;
  message: string;
  [detail: string]: unknown;
}

export interface InvocationRecord {
  id: string;
  key: string;
  path: string;
  actor: string;
  fingerprint: string | null;
  /** The body exactly as sent (text). */
  body: string;
  /** Parsed arguments, or null when the body did not parse. */
  args: unknown;
  status: InvocationStatus;
  ok: boolean;
  /** Whether the capability's runner was reached. */
  ran: boolean;
  error: InvocationError | null;
  result: unknown;
  /** The upstream tool's content blocks as it sent them (large binary parts as blob references); only for tool runs. */
  content?: ContentBlock[];
  /** The upstream tool's structuredContent, when it gave one. */
  structured_content?: unknown;
  /** An imported tool's run: the hash of the pinned definition it ran under (public, in its leaf). */
  definition_hash?: string;
  /** Log messages the upstream sent while the call ran, when it sent any. */
  logs?: UpstreamLogEntry[];
  /** The questions the upstream asked the caller while the call ran (elicitation, sampling): kind and times, never the answers. */
  rounds?: InputRound[];
  yield: Yield;
  repairs: string | null;
  replays: string | null;
  /** What caused the run, e.g. "api" or "hook:hk_…" with a delivery entry id. */
  source: string;
  created_at: string;
  duration_ms: number;
  /** The id of the request that caused the run (x-request-id), null outside a request; not in the leaf. */
  request_id: string | null;
  /** The trace the run belongs to (traces on; shown to the owner like request_id). */
  trace_id?: string | null;
}

/** The event name of invocations in the ledger listings (deliveries are DELIVERY_EVENT). */
export const INVOCATION_EVENT = 'invocation';

/** A record as read back: its ledger position, and links derived by query (never written back). */
export interface StoredInvocation extends InvocationRecord {
  seq: number;
  repaired_by: string[];
}

/** A failed run can be repaired; one awaiting approval has not failed yet. */
export const isRepairable = (inv: Pick<InvocationRecord, 'ok' | 'status'>): boolean =>
  !inv.ok && (inv.status === 'failed' || inv.status === 'refused' || inv.status === 'denied' || inv.status === 'cancelled' || inv.status === 'interrupted');

/** One step down a repair chain: an invocation that repairs another (what lineage rules read). */
export interface RepairLink {
  id: string;
  /** The invocation this one repairs. */
  repairs: string;
  ok: boolean;
  status: InvocationStatus;
  seq: number;
}
