// What the ledger needs from the outside world: the Merkle log itself (VerifiableLedger) and a way
// to reach witnesses (WitnessTransport). Each port is an interface and a same-named token the
// composition root binds an adapter to.
import type { LedgerEntryKind } from './ledger-leaf.js';
import type { ErasureRecord } from './erasure.js';

// The verifiable ledger's port: the Merkle tree of every ledger entry, its leaves, proofs and checkpoints.
/** A leaf of the Merkle log, as stored. */
export interface LedgerLeafRecord {
  index: number;
  kind: LedgerEntryKind;
  entry_id: string;
  /** The canonical JSON that was hashed. */
  leaf: string;
  /** Its RFC 6962 leaf hash, hex. */
  leaf_hash: string;
  integrated_at: string;
}

/** A witness's cosignature of the checkpoint at `size`: its note signature line, as it answered. */
export interface LedgerCosignature {
  size: number;
  witness: string;
  /** When the witness cosigned (POSIX seconds, from the cosignature). */
  timestamp: number;
  line: string;
}

/** A signed tree head: the tree's size, its root (hex) and the signed note that carries them (with any witness cosignatures after the log's signature). */
export interface LedgerCheckpoint {
  size: number;
  root: string;
  note: string;
  created_at: string;
}

/** The verifiable ledger: every ledger entry a leaf of one RFC 6962 tree, with signed checkpoints. */
/** Whose deliveries a retention query looks at. */
export type RetentionScope = { only: readonly string[] } | { except: readonly string[] };

export interface VerifiableLedger {
  readonly origin: string;
  /** The published verifier key of the checkpoint signer (c2sp.org/signed-note form). */
  readonly verifierKey: string;
  /**
   * Moves up to `max` queued entries into the tree (one integrator at a time) and signs a
   * checkpoint. When the batch comes back full, the next `readAhead` entries (default `max`) may be
   * prepared while it is written, for the caller's next call with that size.
   */
  integrate(max?: number, readAhead?: number): Promise<{ integrated: number; size: number }>;
  leafFor(kind: LedgerEntryKind, entryId: string): Promise<LedgerLeafRecord | undefined>;
  /** True while an entry is queued and not yet in the tree. */
  isPending(kind: LedgerEntryKind, entryId: string): Promise<boolean>;
  latestCheckpoint(): Promise<LedgerCheckpoint | undefined>;
  checkpointAt(size: number): Promise<LedgerCheckpoint | undefined>;
  inclusionProof(index: number, size: number): Promise<Uint8Array[]>;
  consistencyProof(size1: number, size2: number): Promise<Uint8Array[]>;
  /**
   * The hashes of `count` consecutive complete subtrees at RFC 6962 tree level `level` (2^level
   * leaves each; level 0 is the leaf hashes), from the `from`-th: what a tlog tile holds.
   */
  subtreeHashes(level: number, from: number, count: number): Promise<Uint8Array[]>;
  /** Keeps a verified witness cosignature (once per size and witness); it is served with that checkpoint from then on. */
  addCosignature(cosignature: LedgerCosignature): Promise<void>;
  /** The largest checkpoint size `witness` has cosigned, 0 if none. */
  witnessedSize(witness: string): Promise<number>;
  /** Leaves from index `from`, in tree order. */
  leaves(from: number, limit: number): Promise<LedgerLeafRecord[]>;
  /**
   * Writes an erasure entry and empties the payload of the entry it names, in one transaction
   * (docs/proofs.md#erasure). Refuses, coded: no such entry (not_found), not yet in the tree
   * (entry_pending), already erased (already_erased).
   */
  erase(erasure: ErasureRecord): Promise<ErasureRecord>;
  /**
   * Up to `limit` invocations and deliveries made before `before` (ISO 8601), in the tree and not
   * erased, oldest first. `hooks.only`: the deliveries of these webhooks alone (no invocations);
   * `hooks.except`: not theirs (they keep their own retention).
   */
  pastRetention(before: string, limit: number, hooks?: RetentionScope): Promise<Array<{ kind: 'invocation' | 'delivery'; id: string }>>;
  /** The erasure of an entry, if it was erased. */
  erasureFor(entryId: string): Promise<ErasureRecord | undefined>;
  /** The salt of an entry's commitment, which a receipt reveals. */
  commitmentSalt(kind: LedgerEntryKind, entryId: string): string;
}
export const VerifiableLedger = Symbol.for('switchyard.VerifiableLedger');

// How the log reaches a witness: one HTTP POST of a text body, answered or failed within a time.
export interface WitnessAnswer {
  status: number;
  contentType: string;
  body: string;
}

export interface WitnessTransport {
  /** POSTs `body` to `url`; rejects when the witness cannot be reached or does not answer in `timeoutMs`. */
  post(url: string, body: string, timeoutMs: number): Promise<WitnessAnswer>;
}
export const WitnessTransport = Symbol.for('switchyard.WitnessTransport');
