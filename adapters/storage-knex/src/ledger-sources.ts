// Where each kind of ledger entry is stored: its table, the column holding its public id and its
// time, and how a row becomes the entry its leaf is built from. Each kind's source is written beside
// its store; this file only lists them, and the type makes a kind without a source fail to compile.
// Every such table has `seq`, the row's position in its table; the Merkle log's queue and leaves
// refer to an entry by (kind, seq), which grows with every insert, so their indexes are appended to
// at the end instead of written at a random place (entry ids are random by design).
import type { LedgerEntry, LedgerEntryKind } from '@switchyard/core';
import { APPROVAL_SOURCE } from './approval-store.js';
import { ACTION_SOURCE, DELIVERY_SOURCE } from './delivery-store.js';
import { ERASURE_SOURCE } from './erasure-store.js';
import { INVOCATION_SOURCE } from './invocation-store.js';
import { TOKEN_USE_SOURCE } from './token-use-store.js';
import { TOOL_PIN_SOURCE } from './tool-pin-store.js';

export interface LedgerSource<K extends LedgerEntryKind = LedgerEntryKind> {
  kind: K;
  table: string;
  idColumn: string;
  /** The column holding when the entry was made (ISO 8601 text). */
  timeColumn: string;
  /** The columns a leaf needs, `seq` among them (null: every column); never a large value the leaf commits to by hash. */
  leafColumns: readonly string[] | null;
  /** A row read with `leafColumns` as the entry its leaf is built from. */
  toEntry(row: Record<string, unknown>): Extract<LedgerEntry, { kind: K }>;
}

export const LEDGER_SOURCES: { readonly [K in LedgerEntryKind]: LedgerSource<K> } = {
  invocation: INVOCATION_SOURCE,
  delivery: DELIVERY_SOURCE,
  action: ACTION_SOURCE,
  token_use: TOKEN_USE_SOURCE,
  approval: APPROVAL_SOURCE,
  tool_definition: TOOL_PIN_SOURCE,
  erasure: ERASURE_SOURCE,
};
