// The verifiable ledger on knex. Triggers queue every new ledger row (ledger_queue); `integrate`
// takes a batch off the queue with each entry made a leaf (core: public fields + salted commitment;
// built by a QueuedLeafReader, in a worker thread when it can), then, in one transaction, appends
// the leaves to the RFC 6962 tree by storing the complete subtrees they complete at even levels,
// stores a signed checkpoint and deletes the batch from the queue. One integrator at a time: an in-process lock
// (SQLite has one writing connection per process) and, on PostgreSQL, a transaction-scoped
// advisory lock, so any number of service processes build one consistent tree.
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import {
  checkpointText,
  commitmentSalt,
  consistencyProof,
  generateSignerSeed,
  hashChildren,
  inclusionProof,
  integrate,
  nodesRead,
  noteSigner,
  signNote,
  type ErasureRecord,
  type LedgerCheckpoint,
  type LedgerCosignature,
  type LedgerEntryKind,
  type LedgerLeafRecord,
  type NodeLookup,
  type NodeRef,
  type NoteSigner,
  type SharedSettings,
  type RetentionScope,
  type VerifiableLedger,
} from '@switchyard/core';
import { LEDGER_SOURCES } from './ledger-sources.js';
import { eraseEntry, erasureFor, pastRetention } from './erasure-store.js';
import { inThreadLeafReader, type PreparedLeaf, type QueuedLeafReader } from './queued-leaves.js';
import { dialectFor, type Dialect, type Statements } from './dialect.js';
import { KnexSettings } from './settings.js';

/** Any fixed 64-bit number naming "the Switchyard integrator" among advisory locks. */
const INTEGRATOR_LOCK = 0x5377_6c65_6467; // "Swledg"
export interface LedgerOptions {
  /** The log's origin line in checkpoints, e.g. "ledger.example.com". */
  origin: string;
  /** Base64 Ed25519 seed; when absent one is generated at first start and kept in the database. */
  signingSeed?: string | null;
  /** Base64 key for commitment salts; likewise generated and kept when absent. */
  commitmentKey?: string | null;
}

interface LeafRow {
  idx: number | string;
  kind: string;
  entry_id: string;
  leaf: string;
  leaf_hash: string;
  integrated_at: string;
}

/**
 * Which complete subtrees ledger_nodes keeps: those at even levels. That is a third as many rows as
 * every level (n/3 instead of n), and a proof still reads O(log n) rows: a subtree at an odd level
 * is hashed from its two children at the even level below (leaf hashes for level 1).
 * (Logs written before this kept every level; the odd-level rows are simply never read.)
 */
const isStoredLevel = (level: number) => level % 2 === 0;
/** The stored subtrees a subtree is read from: itself, or its two children. */
const storedParts = (ref: NodeRef): NodeRef[] =>
  isStoredLevel(ref.level) ? [ref] : [{ level: ref.level - 1, index: 2 * ref.index }, { level: ref.level - 1, index: 2 * ref.index + 1 }];

/** What appending a batch writes, computed before the writer is taken. */
interface BatchPlan {
  /** The tree size the plan starts from. */
  size: number;
  leaves: Array<{ idx: number; kind: string; entry_id: string; entry_seq: number; leaf: string; leaf_hash: string; integrated_at: string }>;
  nodes: Array<{ level: number; idx: number; hash: string }>;
  checkpoint: { size: number; root: string; note: string; created_at: string };
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const fromHex = (h: string) => new Uint8Array(Buffer.from(h, 'hex'));
const toLeaf = (r: LeafRow): LedgerLeafRecord => ({ index: Number(r.idx), kind: r.kind as LedgerEntryKind, entry_id: r.entry_id, leaf: r.leaf, leaf_hash: r.leaf_hash, integrated_at: r.integrated_at });
export class KnexLedger implements VerifiableLedger {
  private integrating: Promise<unknown> = Promise.resolve();
  /** The next batch, read and built while the one before it is being written (a backlog only). */
  private readAhead: { max: number; leaves: Promise<PreparedLeaf[]> } | null = null;
  private readonly dialect: Dialect;
  /** On SQLite, the batch INSERTs are prepared once per size (sqlite-statements.ts). */
  private readonly statements: Statements;

  private constructor(
    private readonly knex: Knex,
    /** For reads off the writer's path (a separate read connection on SQLite). */
    private readonly readKnex: Knex,
    /** Integration's first phase: queued entries with their leaves built. */
    private readonly leafReader: QueuedLeafReader,
    readonly origin: string,
    private readonly signer: NoteSigner,
    private readonly commitmentKey: Uint8Array,
  ) {
    this.dialect = dialectFor(knex);
    this.statements = this.dialect.statements(knex);
  }

  static async open(
    knex: Knex,
    options: LedgerOptions,
    settings: SharedSettings = new KnexSettings(knex),
    { readKnex = knex, leafReader = inThreadLeafReader(readKnex) }: { readKnex?: Knex; leafReader?: QueuedLeafReader } = {},
  ): Promise<KnexLedger> {
    const seed = options.signingSeed ?? (await settings.once('signing_seed', () => Buffer.from(generateSignerSeed()).toString('base64')));
    const commitmentKey = options.commitmentKey ?? (await settings.once('commitment_key', () => randomBytes(32).toString('base64')));
    return new KnexLedger(knex, readKnex, leafReader, options.origin, noteSigner(options.origin, new Uint8Array(Buffer.from(seed, 'base64'))), new Uint8Array(Buffer.from(commitmentKey, 'base64')));
  }

  get verifierKey(): string {
    return this.signer.verifierKey;
  }

  commitmentSalt(kind: LedgerEntryKind, entryId: string): string {
    return commitmentSalt(this.commitmentKey, kind, entryId);
  }

  integrate(max = 2000, readAhead = max): Promise<{ integrated: number; size: number }> {
    const run = this.integrating.then(() => this.integrateBatch(max, readAhead));
    this.integrating = run.catch(() => undefined);
    return run;
  }

  /**
   * Two phases, so the writer is held only for the short second one. First, outside any lock: read
   * a batch off the queue and build its leaves (the leaf reader: reads of immutable rows and CPU
   * work, in a worker thread when the database allows). Then, in one transaction under the
   * integrator lock: keep those still queued (another process may have taken some), append them,
   * sign the checkpoint and dequeue. A leaf does not depend on its index, so the leaves built in the
   * first phase stay valid whichever of them the second phase appends.
   *
   * When a batch comes back full there is a backlog, so the first phase of the next batch starts at
   * once, leaving out this batch's queue positions, and runs while this one is written.
   */
  private async integrateBatch(max: number, readAhead: number): Promise<{ integrated: number; size: number }> {
    const ahead = this.readAhead?.max === max ? this.readAhead.leaves : null;
    this.readAhead = null;
    const prepared = (await ahead) ?? (await this.leafReader.read(max, this.commitmentKey));
    // Nothing queued: answer the size from a read, without taking the writer.
    if (prepared.length === 0) return { integrated: 0, size: await this.size(this.readKnex) };
    if (prepared.length === max) {
      const leaves = this.leafReader.read(readAhead, this.commitmentKey, { from: prepared[0]!.seq, to: prepared.at(-1)!.seq });
      leaves.catch(() => undefined); // a failed read-ahead fails the batch that awaits it, not the process
      this.readAhead = { max: readAhead, leaves };
    }

    const written = await this.planAndWrite(prepared).catch((error: unknown) => {
      this.readAhead = null; // the failed batch stays queued and goes first again
      throw error;
    });
    // Another process took some of this batch: what was read ahead is out of date too.
    if (written.integrated < prepared.length) this.readAhead = null;
    return written;
  }

  /** Planned against the tree as a read shows it now, so the writer is held only for the writes. */
  private async planAndWrite(prepared: PreparedLeaf[]): Promise<{ integrated: number; size: number }> {
    const plan = await this.plan(this.readKnex, await this.size(this.readKnex), prepared);
    return this.writeBatch(prepared, plan);
  }

  /**
   * The rows that append `batch` to a tree of `size` leaves: the leaves, every even-level subtree
   * they complete (from the tree's right edge, read from `db`), and the signed checkpoint.
   */
  private async plan(db: Knex, size: number, batch: PreparedLeaf[]): Promise<BatchPlan> {
    const at = new Date().toISOString();
    const leaves = batch.map((p, i) => ({ idx: size + i, kind: p.kind, entry_id: p.entry_id, entry_seq: Number(p.entry_seq), leaf: p.leaf, leaf_hash: p.leaf_hash, integrated_at: at }));
    const tree = await integrate((refs) => this.readNodes(db, refs), size, leaves.map((l) => fromHex(l.leaf_hash)));
    // Level 0 is the leaf hash, stored with the leaf; of the levels above, the even ones are kept.
    const nodes = tree.nodes.filter((n) => isStoredLevel(n.level)).map((n) => ({ level: n.level, idx: n.index, hash: hex(n.hash) }));
    const note = signNote(checkpointText({ origin: this.origin, size: tree.size, root: tree.root }), this.signer);
    return { size, leaves, nodes, checkpoint: { size: tree.size, root: hex(tree.root), note, created_at: at } };
  }

  /**
   * The second phase, under the integrator lock: one read finds the tree's size and which of the
   * batch are still queued. When that is the tree and batch the plan was made for (always, with one
   * integrating process) the planned rows are written as they are; otherwise the plan is made again
   * inside the transaction for those still queued.
   */
  private writeBatch(prepared: PreparedLeaf[], planned: BatchPlan): Promise<{ integrated: number; size: number }> {
    return this.knex.transaction(async (trx) => {
      await this.dialect.lockForIntegration(trx, INTEGRATOR_LOCK);
      // One range read over the batch's positions (a batch is in queue order), each row with the
      // tree's size; positions in between that are not in the batch are left out by the filter.
      const range = (await trx('ledger_queue')
        .select('seq', trx('ledger_leaves').max('idx').as('m'))
        .whereBetween('seq', [prepared[0]!.seq, prepared.at(-1)!.seq])) as Array<{ seq: number | string; m: number | string | null }>;
      if (range.length === 0) return { integrated: 0, size: await this.size(trx) };
      const size = range[0]!.m == null ? 0 : Number(range[0]!.m) + 1;
      const stillQueued = new Set(range.map((r) => String(r.seq)));
      const batch = prepared.filter((p) => stillQueued.has(p.seq));
      if (batch.length === 0) return { integrated: 0, size };
      const plan = planned.size === size && batch.length === prepared.length ? planned : await this.plan(trx, size, batch);

      await this.dialect.insertRows(trx, 'ledger_leaves', plan.leaves, this.statements);
      await this.dialect.insertRows(trx, 'ledger_nodes', plan.nodes, this.statements);
      await trx('ledger_checkpoints').insert(plan.checkpoint);
      await this.dialect.deleteSeqs(trx, 'ledger_queue', batch.map((p) => p.seq), this.statements);
      return { integrated: plan.leaves.length, size: plan.checkpoint.size };
    });
  }

  private async size(db: Knex): Promise<number> {
    const row = (await db('ledger_leaves').max({ m: 'idx' }).first()) as { m: number | string | null } | undefined;
    return row?.m == null ? 0 : Number(row.m) + 1;
  }

  /**
   * Complete subtrees by reference. Stored are the leaf hashes (level 0, in ledger_leaves) and the
   * subtrees at even levels (ledger_nodes); one at an odd level is hashed from its two children.
   */
  private async readNodes(db: Knex, refs: NodeRef[]): Promise<Array<NodeRef & { hash: Uint8Array }>> {
    const stored = new Map<string, NodeRef>();
    for (const ref of refs) for (const part of storedParts(ref)) stored.set(`${part.level}:${part.index}`, part);
    const leafRefs = [...stored.values()].filter((r) => r.level === 0);
    const upper = [...stored.values()].filter((r) => r.level > 0);
    const found = new Map<string, Uint8Array>();
    if (leafRefs.length > 0) {
      for (const r of (await db('ledger_leaves').select('idx', 'leaf_hash').whereIn('idx', leafRefs.map((l) => l.index))) as Array<{ idx: number | string; leaf_hash: string }>) {
        found.set(`0:${r.idx}`, fromHex(r.leaf_hash));
      }
    }
    if (upper.length > 0) {
      for (const r of (await db('ledger_nodes').select('level', 'idx', 'hash').whereIn(['level', 'idx'], upper.map((u) => [u.level, u.index]))) as Array<{ level: number; idx: number | string; hash: string }>) {
        found.set(`${r.level}:${r.idx}`, fromHex(r.hash));
      }
    }
    if (found.size !== stored.size) throw new Error('the tree is missing complete subtrees it should hold');
    const at = (r: NodeRef) => found.get(`${r.level}:${r.index}`)!;
    return refs.map((ref) => {
      const parts = storedParts(ref);
      return { ...ref, hash: parts.length === 1 ? at(parts[0]!) : hashChildren(at(parts[0]!), at(parts[1]!)) };
    });
  }

  /** Runs a proof computation against the few stored subtrees it reads. */
  private async withNodes<T>(compute: (lookup: NodeLookup) => T): Promise<T> {
    const nodes = await this.readNodes(this.knex, nodesRead(compute));
    const byKey = new Map(nodes.map((n) => [`${n.level}:${n.index}`, n.hash]));
    return compute((n) => byKey.get(`${n.level}:${n.index}`)!);
  }

  inclusionProof(index: number, size: number): Promise<Uint8Array[]> {
    return this.withNodes((lookup) => inclusionProof(index, size, lookup));
  }

  consistencyProof(size1: number, size2: number): Promise<Uint8Array[]> {
    return this.withNodes((lookup) => consistencyProof(size1, size2, lookup));
  }

  async leafFor(kind: LedgerEntryKind, entryId: string): Promise<LedgerLeafRecord | undefined> {
    // By the entry's seq, looked up by its id: leaves are indexed by (kind, entry_seq) (ledger-sources.ts).
    const { table, idColumn } = LEDGER_SOURCES[kind];
    const row = (await this.knex('ledger_leaves')
      .where({ kind })
      .andWhere('entry_seq', this.knex(table).select('seq').where(idColumn, entryId))
      .first()) as LeafRow | undefined;
    return row ? toLeaf(row) : undefined;
  }

  erase(erasure: ErasureRecord): Promise<ErasureRecord> {
    return eraseEntry(this.knex, erasure);
  }

  pastRetention(before: string, limit: number, hooks?: RetentionScope): Promise<Array<{ kind: 'invocation' | 'delivery'; id: string }>> {
    return pastRetention(this.knex, before, limit, hooks);
  }

  erasureFor(entryId: string): Promise<ErasureRecord | undefined> {
    return erasureFor(this.knex, entryId);
  }

  async isPending(kind: LedgerEntryKind, entryId: string): Promise<boolean> {
    return (await this.knex('ledger_queue').where({ kind, entry_id: entryId }).first()) !== undefined;
  }

  async latestCheckpoint(): Promise<LedgerCheckpoint | undefined> {
    const row = (await this.knex('ledger_checkpoints').orderBy('size', 'desc').first()) as (LedgerCheckpoint & { size: number | string }) | undefined;
    return row ? this.withCosignatures({ ...row, size: Number(row.size) }) : undefined;
  }

  async checkpointAt(size: number): Promise<LedgerCheckpoint | undefined> {
    const row = (await this.knex('ledger_checkpoints').where({ size }).first()) as (LedgerCheckpoint & { size: number | string }) | undefined;
    return row ? this.withCosignatures({ ...row, size: Number(row.size) }) : undefined;
  }

  /** The note with the witnesses' cosignature lines after the log's own signature, in witness order. */
  private async withCosignatures(checkpoint: LedgerCheckpoint): Promise<LedgerCheckpoint> {
    const lines = (await this.knex('ledger_cosignatures').select('line').where({ size: checkpoint.size }).orderBy('witness')) as Array<{ line: string }>;
    return lines.length === 0 ? checkpoint : { ...checkpoint, note: checkpoint.note + lines.map((l) => l.line).join('') };
  }

  async addCosignature(c: LedgerCosignature): Promise<void> {
    await this.knex('ledger_cosignatures').insert({ size: c.size, witness: c.witness, timestamp: c.timestamp, line: c.line, created_at: new Date().toISOString() }).onConflict(['size', 'witness']).ignore();
  }

  async witnessedSize(witness: string): Promise<number> {
    const row = (await this.knex('ledger_cosignatures').where({ witness }).max({ m: 'size' }).first()) as { m: number | string | null } | undefined;
    return row?.m == null ? 0 : Number(row.m);
  }

  /** One range read: leaf hashes for level 0, ledger_nodes for the even levels (all a tile asks). */
  async subtreeHashes(level: number, from: number, count: number): Promise<Uint8Array[]> {
    if (!isStoredLevel(level)) return (await this.readNodes(this.knex, Array.from({ length: count }, (_, i) => ({ level, index: from + i })))).map((n) => n.hash);
    const rows = (
      level === 0
        ? await this.knex('ledger_leaves').select({ idx: 'idx', hash: 'leaf_hash' }).whereBetween('idx', [from, from + count - 1]).orderBy('idx')
        : await this.knex('ledger_nodes').select('idx', 'hash').where({ level }).andWhereBetween('idx', [from, from + count - 1]).orderBy('idx')
    ) as Array<{ idx: number | string; hash: string }>;
    if (rows.length !== count || rows.some((r, i) => Number(r.idx) !== from + i)) throw new Error(`the tree is missing complete subtrees at level ${level} from ${from}`);
    return rows.map((r) => fromHex(r.hash));
  }

  async leaves(from: number, limit: number): Promise<LedgerLeafRecord[]> {
    return ((await this.knex('ledger_leaves').where('idx', '>=', from).orderBy('idx').limit(limit)) as LeafRow[]).map(toLeaf);
  }
}

/** Entries in an integration batch when the queue is short, and the most a batch grows to in a backlog. */
const INTEGRATOR_BATCH = 1000;
const INTEGRATOR_BATCH_MAX = 8000;

/**
 * Integrates on a timer until stopped; a failed batch is logged and retried on the next tick. A
 * tick takes what is queued; it goes on at once only while batches come back full (a backlog).
 * Looping until the queue is empty would, under steady traffic, integrate one or two entries per
 * transaction back to back, holding SQLite's writer half the time and signing a checkpoint per run.
 *
 * In a backlog each batch is twice the last, up to INTEGRATOR_BATCH_MAX: the writer is shared with
 * the appends, and bulk appends take it a whole transaction at a time, so a batch per turn of the
 * writer must grow to keep up. A tick that finds the queue short starts again at INTEGRATOR_BATCH,
 * which keeps the writer's hold short under steady traffic.
 */
export function startIntegrator(ledger: VerifiableLedger, intervalMs: number, onError: (e: unknown) => void): { stop(): Promise<void> } {
  let stopped = false;
  let current: Promise<unknown> = Promise.resolve();
  const tick = async () => {
    try {
      for (let size = INTEGRATOR_BATCH; !stopped; ) {
        const next = Math.min(2 * size, INTEGRATOR_BATCH_MAX);
        if ((await ledger.integrate(size, next)).integrated < size) break;
        size = next;
        await new Promise((r) => setImmediate(r)); // yield to requests between batches
      }
    } catch (e) {
      onError(e);
    }
  };
  const timer = setInterval(() => {
    current = current.then(tick);
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await current;
    },
  };
}
