// Integration's first phase: read the head of the ledger queue and build each entry's leaf. It only
// reads rows that never change and hashes, so it needs no lock and can run on any connection: in
// the integrating thread (an in-memory database, a bare KnexLedger), or in a worker thread with its
// own read connection (leaf-worker.ts), which keeps this CPU work off the thread answering requests.
import type { Knex } from 'knex';
import {
  LEDGER_ENTRY_KINDS,
  buildLeaf,
  commitmentSalt,
  leafParts,
  type ApprovalRecord,
  type InvocationRecord,
  type LedgerEntry,
  type LedgerEntryKind,
  type StoredInvocation,
  type TokenUse,
} from '@switchyard/core';
import { toAction, toDelivery, type ActionRow, type DeliveryRow } from './delivery-store.js';
import { chunks } from './sql-batches.js';

/** A queued entry with its leaf built; the leaf does not depend on where in the tree it lands. */
export interface PreparedLeaf {
  seq: string;
  kind: LedgerEntryKind;
  entry_id: string;
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
  const head = db('ledger_queue').select('seq', 'kind', 'entry_id').orderBy('seq').limit(max);
  if (skip) head.whereNotBetween('seq', [skip.from, skip.to]);
  const queued = (await head) as Array<{ seq: number | string; kind: LedgerEntryKind; entry_id: string }>;
  if (queued.length === 0) return [];
  const entries = await loadEntries(db, queued);
  return queued.map((q) => {
    const entry = entries.get(`${q.kind}:${q.entry_id}`);
    if (!entry) throw new Error(`queued ${q.kind} ${q.entry_id} is not in the ledger`);
    const leaf = buildLeaf(leafParts(entry), commitmentSalt(commitmentKey, q.kind, q.entry_id));
    return { seq: String(q.seq), kind: q.kind, entry_id: q.entry_id, leaf: leaf.text, leaf_hash: Buffer.from(leaf.hash).toString('hex') };
  });
}

/** The queued entries, read in bulk per kind and keyed "kind:id". */
async function loadEntries(db: Knex, queued: Array<{ kind: LedgerEntryKind; entry_id: string }>): Promise<Map<string, LedgerEntry>> {
  const out = new Map<string, LedgerEntry>();
  for (const kind of LEDGER_ENTRY_KINDS) {
    const ids = queued.filter((q) => q.kind === kind).map((q) => q.entry_id);
    for (const part of chunks(ids)) {
      if (kind === 'invocation') {
        for (const r of (await db('invocations').select('id', 'seq', 'record').whereIn('id', part)) as Array<{ id: string; seq: number | string; record: string }>) {
          // Filled in place rather than spread into a copy: this runs for every invocation leaf.
          const entry = JSON.parse(r.record) as InvocationRecord as StoredInvocation;
          entry.seq = Number(r.seq);
          entry.repaired_by = [];
          out.set(`invocation:${r.id}`, { kind, entry });
        }
      } else if (kind === 'delivery') {
        for (const r of (await db('deliveries').whereIn('id', part)) as DeliveryRow[]) out.set(`delivery:${r.id}`, { kind, entry: toDelivery(r, null) });
      } else if (kind === 'action') {
        for (const r of (await db('webhook_actions').whereIn('delivery', part)) as ActionRow[]) out.set(`action:${r.delivery}`, { kind, entry: toAction(r) });
      } else if (kind === 'token_use') {
        for (const r of (await db('token_uses').whereIn('id', part)) as TokenUse[]) out.set(`token_use:${r.id}`, { kind, entry: r });
      } else {
        for (const r of (await db('approvals').whereIn('id', part)) as ApprovalRecord[]) out.set(`approval:${r.id}`, { kind, entry: r });
      }
    }
  }
  return out;
}
