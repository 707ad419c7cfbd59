// The ledger's backlog: entries queued for the Merkle log and not yet integrated, and when the
// oldest of them was made (how far integration lags behind the ledger). Two small reads.
import type { Knex } from 'knex';
import type { LedgerEntryKind } from '@switchyard/core';
import { LEDGER_SOURCES } from './ledger-sources.js';

export interface LedgerBacklog {
  /** Entries in the queue. */
  entries: number;
  /** When the oldest queued entry was made; null when the queue is empty. */
  oldestEntryAt: Date | null;
}

export async function readLedgerBacklog(knex: Knex): Promise<LedgerBacklog> {
  const head = (await knex('ledger_queue').select('kind', 'entry_id').orderBy('seq').first()) as { kind: LedgerEntryKind; entry_id: string } | undefined;
  if (!head) return { entries: 0, oldestEntryAt: null };
  const [counted] = (await knex('ledger_queue').count({ n: '*' })) as Array<{ n: number | string }>;
  const source = LEDGER_SOURCES[head.kind];
  // Entries are never deleted, so the head's row is there even if it was integrated meanwhile.
  const row = (await knex(source.table).select({ at: source.timeColumn }).where(source.idColumn, head.entry_id).first()) as { at: string } | undefined;
  const at = row ? new Date(row.at) : null;
  return { entries: Number(counted?.n ?? 0), oldestEntryAt: at && !Number.isNaN(at.getTime()) ? at : null };
}
