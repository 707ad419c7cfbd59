// An invocation as a principal may see it: whole to whoever owns it (ownsInvocation, in
// access/access-policy.ts), else the fields of its Merkle leaf, which anyone may see, with its id and links.
import { type Principal, ownsInvocation } from '../access/index.js';
import type { StoredInvocation } from '../runs/index.js';
import { leafParts } from './ledger-leaf.js';

/** The fields of an invocation anyone may see: those of its Merkle leaf, its id and ledger links. */
export interface PublicInvocation {
  id: string;
  seq: number;
  created_at: string;
  fingerprint: string | null;
  key: string;
  ok: boolean;
  ran: boolean;
  repairs: string | null;
  replays: string | null;
  repaired_by: string[];
  status: StoredInvocation['status'];
  /** The private fields left out (a receipt or the owner's key shows them). */
  withheld: string[];
}

/** The private fields of an invocation that a non-owner does not see, beyond the leaf's commitment. */
const WITHHELD = ['actor', 'args', 'body', 'content', 'duration_ms', 'error', 'logs', 'path', 'request_id', 'result', 'rounds', 'source', 'structured_content', 'trace_id', 'yield'];

/** An invocation as this principal may see it: whole to its owner, else its public fields only. */
export function invocationView(p: Principal, inv: StoredInvocation): StoredInvocation | PublicInvocation {
  if (ownsInvocation(p, inv)) return inv;
  const leaf = leafParts({ kind: 'invocation', entry: inv }).public as Omit<PublicInvocation, 'id' | 'seq' | 'repaired_by' | 'withheld'>;
  return { id: inv.id, seq: inv.seq, ...leaf, repaired_by: inv.repaired_by, withheld: WITHHELD };
}
