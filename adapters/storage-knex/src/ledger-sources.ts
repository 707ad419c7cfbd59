// Where each kind of ledger entry is stored: its table, and the column holding its public id. Every
// such table has `seq`, the row's position in its table; the Merkle log's queue and leaves refer to
// an entry by (kind, seq), which grows with every insert, so their indexes are appended to at the
// end instead of written at a random place (entry ids are random by design).
import type { LedgerEntryKind } from '@switchyard/core';

export interface LedgerSource {
  table: string;
  idColumn: string;
  /** The column holding when the entry was made (ISO 8601 text). */
  timeColumn: string;
}

export const LEDGER_SOURCES: Readonly<Record<LedgerEntryKind, LedgerSource>> = {
  invocation: { table: 'invocations', idColumn: 'id', timeColumn: 'created_at' },
  delivery: { table: 'deliveries', idColumn: 'id', timeColumn: 'received_at' },
  action: { table: 'webhook_actions', idColumn: 'delivery', timeColumn: 'created_at' },
  token_use: { table: 'token_uses', idColumn: 'id', timeColumn: 'at' },
  approval: { table: 'approvals', idColumn: 'id', timeColumn: 'decided_at' },
  tool_definition: { table: 'tool_pins', idColumn: 'id', timeColumn: 'pinned_at' },
  erasure: { table: 'ledger_erasures', idColumn: 'id', timeColumn: 'erased_at' },
};
