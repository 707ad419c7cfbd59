// What confirm, receipt and proven-work answer: a ledger entry's public leaf, its inclusion proof in
// the latest signed checkpoint, and the same as one c2sp.org/tlog-proof@v1 text anyone can verify
// offline with the published verifier key. Never args or results: those are only in receipts.
import { ERASURE_ID_PATTERN, SwitchyardError, TOOL_PIN_ID_PATTERN, type ErasureRecord, formatTlogProof, leafParts, type LedgerEntryKind, type StoredDelivery, type StoredInvocation } from '@switchyard/core';
import type { Needs } from '@switchyard/http-kit';

/** What this module uses of the HTTP context: it receives nothing else. */
type Ctx = Needs<'deliveries' | 'invocations' | 'ledger'>;

const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64');

/** The ledger entry an id names, by its prefix: inv_ (invocation), dlv_ (delivery) or tdp_ (a pinned tool definition). */
export function entryKindOf(id: string): LedgerEntryKind {
  if (/^inv_[A-Za-z0-9]{8,40}$/.test(id)) return 'invocation';
  if (/^dlv_[A-Za-z0-9]{8,40}$/.test(id)) return 'delivery';
  if (TOOL_PIN_ID_PATTERN.test(id)) return 'tool_definition';
  if (ERASURE_ID_PATTERN.test(id)) return 'erasure';
  throw new SwitchyardError('not_found', `no ledger entry ${id}: ids look like inv_…, dlv_…, tdp_… or ers_…`);
}

export async function confirmation(ctx: Ctx, id: string, baseUrl: string): Promise<Record<string, unknown>> {
  const kind = entryKindOf(id);
  let leaf = await ctx.ledger.leafFor(kind, id);
  if (!leaf) {
    // A pin is queued for the log in the transaction that stores it: not in the tree and not queued is no pin.
    const exists = kind === 'invocation' ? (await ctx.invocations.get(id)) !== undefined : kind === 'delivery' ? (await ctx.deliveries.get(id)) !== undefined : false;
    if (!exists && !(await ctx.ledger.isPending(kind, id))) {
      // The integrator may have taken it from the queue into the tree between the two reads: look again.
      leaf = await ctx.ledger.leafFor(kind, id);
      if (!leaf) throw new SwitchyardError('not_found', `no ledger entry ${id}`);
    }
  }
  if (!leaf) {
    return { ok: true, id, kind, status: 'pending', message: 'recorded, not yet in the Merkle tree; ask again shortly', confirm: `${baseUrl}/api/dispatch?confirm=${id}` };
  }
  const checkpoint = (await ctx.ledger.latestCheckpoint())!;
  const proof = await ctx.ledger.inclusionProof(leaf.index, checkpoint.size);
  return {
    ok: true,
    id,
    kind,
    status: 'integrated',
    index: leaf.index,
    leaf: JSON.parse(leaf.leaf) as unknown,
    leaf_text: leaf.leaf,
    leaf_hash: leaf.leaf_hash,
    tree_size: checkpoint.size,
    root: checkpoint.root,
    inclusion_proof: proof.map(b64),
    checkpoint: checkpoint.note,
    tlog_proof: formatTlogProof({ extra: new TextEncoder().encode(leaf.leaf), index: leaf.index, proof, checkpoint: checkpoint.note }),
    verifier_key: ctx.ledger.verifierKey,
    verifier_key_url: `${baseUrl}/api/proven-work/key`,
  };
}

/**
 * What a receipt of an erased entry says: erased, when, which fields (they no longer open the leaf)
 * and the erasure's own ledger entry; the reason stays with the owner, its hash is in that entry's leaf.
 */
async function erasedPart(ctx: Ctx, e: ErasureRecord | undefined, baseUrl: string): Promise<Record<string, unknown>> {
  // The erasure's own proof travels with the receipt, so a verifier offline can check that the log records it.
  return e ? { erased: { at: e.erased_at, fields: e.fields, erasure: e.id, reason_sha256: e.reason_sha256, proof: await confirmation(ctx, e.id, baseUrl) } } : {};
}

/** The whole invocation, the opening of its leaf's commitment, and its confirmation. */
export async function receipt(ctx: Ctx, read: StoredInvocation, baseUrl: string): Promise<Record<string, unknown>> {
  const erasure = await ctx.ledger.erasureFor(read.id);
  // The record was read before its erasure was: one erased in between is read again, emptied (one
  // transaction appends an erasure and empties its entry), so the receipt never says erased beside the fields.
  const inv = erasure ? ((await ctx.invocations.get(read.id)) ?? read) : read;
  const parts = leafParts({ kind: 'invocation', entry: inv });
  return {
    ok: true,
    ...(await erasedPart(ctx, erasure, baseUrl)),
    invocation: inv,
    opening: { salt: ctx.ledger.commitmentSalt('invocation', inv.id), private: parts.private },
    proof: await confirmation(ctx, inv.id, baseUrl),
  };
}

/**
 * A delivery's receipt: its record as stored (the body left out: its bytes are at `body_url`, byte
 * for byte, and its SHA-256 is in the record), the opening of its leaf's commitments, and its
 * confirmation. A verifier hashes the body it fetches and checks every field against the leaf.
 */
export async function deliveryReceipt(ctx: Ctx, read: StoredDelivery, baseUrl: string): Promise<Record<string, unknown>> {
  const erasure = await ctx.ledger.erasureFor(read.id);
  // As for an invocation (above): a delivery erased since it was read is read again.
  const d = erasure ? ((await ctx.deliveries.get(read.id)) ?? read) : read;
  const parts = leafParts({ kind: 'delivery', entry: d });
  return {
    ok: true,
    ...(await erasedPart(ctx, erasure, baseUrl)),
    delivery: { ...d, body: null, body_url: d.body_sha256 === null ? null : `${baseUrl}/api/ledger/${d.id}/body` },
    opening: { salt: ctx.ledger.commitmentSalt('delivery', d.id), private: parts.private },
    proof: await confirmation(ctx, d.id, baseUrl),
  };
}
