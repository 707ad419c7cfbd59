// The invocation ledger's port: append, read, list and follow repair chains.
import type { InvocationRecord, RepairLink, StoredInvocation } from '../invocation.js';
import type { LedgerPageRequest } from '../ledger-paging.js';
import type { Page } from '../page.js';

export interface InvocationStore {
  append(record: InvocationRecord): Promise<StoredInvocation>;
  get(id: string): Promise<StoredInvocation | undefined>;
  /** Invocations (of one capability key when `key` is given) in the ledger listings' order. */
  list(options: LedgerPageRequest & { key?: string }): Promise<Page<StoredInvocation>>;
  /** Every invocation that repairs `id`, directly or down a chain of repairs, in append order. */
  repairChain(id: string): Promise<RepairLink[]>;
}
export const InvocationStore = Symbol.for('switchyard.InvocationStore');
