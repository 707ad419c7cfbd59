// Integration's first phase: read the head of the ledger queue and build each entry's leaf. It only
// reads rows that never change and hashes, so it needs no lock and can run on any connection: in
// the integrating thread (an in-memory database, a bare KnexLedger), or in a worker thread with its
// own read connection (leaf-worker.ts), which keeps this CPU work off the thread answering requests.
import type { Knex } from 'knex';
import type { LedgerEntry, LedgerEntryKind } from '@switchyard/core';
import { buildLeaf, commitmentSalt, leafParts } from '@switchyard/core/ledger-leaf';
import { LEDGER_SOURCES, type LedgerSource } from './ledger-sources.js';
import { chunks } from './sql-batches.js';

/** A queued entry with its leaf built; the leaf does not depend on where in the tree it lands. */
export interface PreparedLeaf {
  seq: string;
  kind: LedgerEntryKind;
  entry_id: string;
  /** The entry's position in its own table. */
  entry_seq: string;
  /** The leaf's canonical JSON text. */
  leaf: string;
  /** Its RFC 6962 leaf hash, hex. */
  leaf_hash: string;
}

/** Queue positions a read leaves out: those of a batch being written while the next one is read. */
export interface SeqRange {
  from: string;
  to: string;
}

/** Where the integrator gets its next batch of built leaves from. */
export interface QueuedLeafReader {
  /**
   * Up to `max` entries from the head of the queue, in queue order, each with its leaf built;
   * with `skip`, the head past the positions of the batch in flight.
   */
  read(max: number, commitmentKey: Uint8Array, skip?: SeqRange): Promise<PreparedLeaf[]>;
  close(): Promise<void>;
}

/** Reads and builds in the calling thread, on the given connection. */
export const inThreadLeafReader = (db: Knex): QueuedLeafReader => ({
  read: (max, commitmentKey, skip) => readQueuedLeaves(db, max, commitmentKey, skip),
  close: async () => undefined,
});

export async function readQueuedLeaves(db: Knex, max: number, commitmentKey: Uint8Array, skip?: SeqRange): Promise<PreparedLeaf[]> {
  const head = db('ledger_queue').select('seq', 'kind', 'entry_id', 'entry_seq').orderBy('seq').limit(max);
  if (skip) head.whereNotBetween('seq', [skip.from, skip.to]);
  const queued = ((await head) as Array<{ seq: number | string; kind: LedgerEntryKind; entry_id: string; entry_seq: number | string | null }>).map((q) => ({
    seq: String(q.seq),
    kind: q.kind,
    entry_id: q.entry_id,
    entry_seq: q.entry_seq == null ? null : String(q.entry_seq),
  }));
  if (queued.length === 0) return [];
  const entries = await loadEntries(db, queued);
  return queued.map((q) => {
    // Every row is queued with its seq since migration 008 (its trigger, then its backfill).
    if (q.entry_seq === null) throw new Error(`queued ${q.kind} ${q.entry_id} has no entry_seq: was it queued by a service older than migration 008?`);
    const entry = entries.get(`${q.kind}:${q.entry_seq}`);
    if (!entry || entryId(entry) !== q.entry_id) throw new Error(`queued ${q.kind} ${q.entry_id} is not in the ledger`);
    const leaf = buildLeaf(leafParts(entry), commitmentSalt(commitmentKey, q.kind, q.entry_id));
    return { ...q, entry_seq: q.entry_seq, leaf: leaf.text, leaf_hash: Buffer.from(leaf.hash).toString('hex') };
  });
}

const entryId = (e: LedgerEntry): string => (e.kind === 'action' ? e.entry.delivery : e.entry.id);

/** The queued entries, read in bulk per kind by their seq (each table's own key), keyed "kind:seq". */
async function loadEntries(db: Knex, queued: Array<{ kind: LedgerEntryKind; entry_seq: string | null }>): Promise<Map<string, LedgerEntry>> {
  const out = new Map<string, LedgerEntry>();
  for (const source of Object.values(LEDGER_SOURCES) as LedgerSource[]) {
    const seqs = queued.flatMap((q) => (q.kind === source.kind && q.entry_seq !== null ? [q.entry_seq] : []));
    for (const part of chunks(seqs)) {
      const query = source.leafColumns === null ? db(source.table).select('*') : db(source.table).select(...source.leafColumns);
      for (const row of (await query.whereIn('seq', part)) as Array<Record<string, unknown>>) out.set(`${source.kind}:${String(row['seq'])}`, source.toEntry(row));
    }
  }
  return out;
}
