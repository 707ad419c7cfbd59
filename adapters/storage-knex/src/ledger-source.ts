// Where one kind of ledger entry is stored: its table, the column holding its public id and its
// time, and how a row becomes the entry its leaf is built from. Each store declares its kind's
// source beside it; ledger-sources.ts lists them.
import type { LedgerEntry, LedgerEntryKind } from '@switchyard/core';

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
