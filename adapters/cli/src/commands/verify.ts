// `switchyard verify`: checks proofs offline against a pinned verifier key — the one thing the
// server is never trusted for. A receipt or confirmation file (JSON), a .tlog-proof file, or an
// entry id: its public confirmation is fetched and checked here exactly like a file; with the API
// key, its receipt and the record as served too (a delivery's stored body fetched and hashed), and
// every field is held to the leaf, so a record edited in the database is named field by field.
// `--consistency OLD NEW` checks that the log behind two saved checkpoints only grew.
import { existsSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import {
  leafParts,
  noteVerifier,
  openNote,
  openWitnessedNote,
  parseTlogProof,
  parseCheckpoint,
  publicFieldsDiffering,
  unopenedFields,
  verifyConsistency,
  verifyTlogProof,
  type LedgerEntry,
  type StoredDelivery,
  type StoredInvocation,
} from '@switchyard/core';
import { CliError, type SwitchyardClient } from '../client.js';
import type { Output } from './hook.js';

export interface VerifyOptions {
  verifierKey: string | undefined;
  json: boolean;
  consistency: boolean;
  /** Trusted witnesses' verifier keys (--witness, repeated); with them, a checkpoint must be cosigned. */
  witnesses?: string[];
  /** How many of them must have cosigned (--witnesses-needed; all of them by default). */
  witnessesNeeded?: string;
}

/** The k-of-n witness policy asked for, if any; a bad count is a usage error. */
function witnessPolicy(options: VerifyOptions): { witnesses: string[]; needed: number } | null {
  const witnesses = options.witnesses ?? [];
  if (witnesses.length === 0) {
    if (options.witnessesNeeded !== undefined) throw new CliError('invalid_request', '--witnesses-needed needs the witnesses\' keys: --witness VKEY (repeat it)', 2);
    return null;
  }
  const needed = options.witnessesNeeded === undefined ? witnesses.length : Number(options.witnessesNeeded);
  if (!Number.isInteger(needed) || needed < 1 || needed > witnesses.length) throw new CliError('invalid_request', `--witnesses-needed must be an integer from 1 to ${witnesses.length} (the witnesses given)`, 2);
  return { witnesses, needed };
}

/** Holds a signed checkpoint note to the policy: answers who cosigned, or throws proof_invalid. */
const cosignedBy = (note: string, key: string, policy: { witnesses: string[]; needed: number } | null): string[] | undefined =>
  policy ? check('witnesses', () => openWitnessedNote(note, key, policy).cosignedBy) : undefined;

interface Confirmation {
  id: string;
  status: 'integrated' | 'pending';
  tlog_proof?: string;
}
interface Receipt {
  invocation?: StoredInvocation;
  delivery?: StoredDelivery & { body_url: string | null };
  opening: { salt: string; private: Record<string, unknown> };
  proof: Confirmation;
  /** Present when the entry's private fields were erased: which, when, and the erasure entry's own proof. */
  erased?: { at: string; fields: string[]; erasure: string; proof: Confirmation };
}

/** A field as the verifier names it: a delivery's body is committed to by its hash. */
const shownField = (f: string): string => (f === 'body_sha256' ? 'body' : f);

/** The ledger entry a receipt carries. */
const entryOf = (r: Receipt): Extract<LedgerEntry, { kind: 'invocation' | 'delivery' }> => (r.invocation ? { kind: 'invocation', entry: r.invocation } : { kind: 'delivery', entry: r.delivery! });

/**
 * The fields of a record (as served) that its leaf does not vouch for: public fields that differ
 * from the leaf, private fields that do not open its commitments (a version 1 leaf can only say
 * "private fields"), and the body when its bytes do not hash to the recorded SHA-256.
 */
function fieldsNotMatching(leafText: string, entry: Extract<LedgerEntry, { kind: 'invocation' | 'delivery' }>, salt: string, bodyBytes: Uint8Array | null): string[] {
  const parts = leafParts(entry);
  const bad = [...publicFieldsDiffering(leafText, parts.public), ...unopenedFields(leafText, salt, parts.private)];
  if (entry.kind === 'delivery' && bodyBytes !== null && createHash('sha256').update(bodyBytes).digest('hex') !== entry.entry.body_sha256) bad.push('body');
  return [...new Set(bad.map(shownField))];
}

const pinned = (key: string | undefined): string => {
  if (!key) throw new CliError('verifier_key_required', 'pin the log\'s verifier key: --verifier-key KEY or SWITCHYARD_VERIFIER_KEY (published at /api/proven-work/key)', 2);
  return key;
};

/** Checks one proof; answers what it proved or throws CliError("proof_invalid"). */
function check<T>(what: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw new CliError('proof_invalid', `${what}: ${(err as Error).message}`);
  }
}

export async function verifyCommand(client: SwitchyardClient, args: string[], options: VerifyOptions, io: Output): Promise<void> {
  const key = pinned(options.verifierKey);
  const policy = witnessPolicy(options);
  if (options.consistency) return verifyConsistencyCommand(client, args, key, options, io, policy);
  const [target] = args;
  if (!target || args.length > 1) throw new CliError('invalid_request', 'verify takes one receipt file, proof file or invocation id', 2);

  let proofText: string;
  let receipt: Receipt | null = null;
  let body: Uint8Array | null = null;
  if (existsSync(target)) {
    const text = readFileSync(target, 'utf8');
    if (text.startsWith('c2sp.org/tlog-proof@v1\n')) proofText = text;
    else {
      const json = check('file', () => JSON.parse(text) as Partial<Receipt & Confirmation>);
      receipt = json.opening && (json.invocation || json.delivery) && json.proof ? (json as Receipt) : null;
      const confirmation = receipt ? receipt.proof : (json as Confirmation);
      if (!confirmation.tlog_proof) throw new CliError('proof_invalid', `${target} holds no tlog_proof (was the entry still pending?)`);
      proofText = confirmation.tlog_proof;
    }
  } else if (/^(inv|dlv|tdp)_[A-Za-z0-9]{8,40}$/.test(target)) {
    const confirmation = await client.request<Confirmation>('GET', `/api/dispatch?confirm=${target}`, undefined, { credential: false });
    if (confirmation.status !== 'integrated') throw new CliError('pending', `${target} is recorded but not yet in the tree; try again shortly`);
    proofText = confirmation.tlog_proof!;
    // A pinned tool definition (tdp_) has no receipt: its leaf is the whole public record.
    if (client.hasCredential && !target.startsWith('tdp_')) {
      // The owner checks the record itself: the receipt's salt, the record as served, the stored body.
      receipt = await client.request<Receipt>('GET', `/api/dispatch?receipt=${target}`);
      if (receipt.invocation) receipt.invocation = (await client.request<{ invocation: StoredInvocation }>('GET', `/api/invocations/${target}`)).invocation;
      else if (receipt.delivery?.body_url) body = await client.bytes(new URL(receipt.delivery.body_url).pathname);
    }
  } else {
    throw new CliError('invalid_request', `${target} is neither a file nor an entry id (inv_…, dlv_… or tdp_…)`, 2);
  }

  const proven = check('inclusion', () => verifyTlogProof(proofText, key));
  const witnessed = cosignedBy(parseTlogProof(proofText).checkpoint, key, policy);
  const leaf = JSON.parse(proven.leafText) as Record<string, unknown>;
  let opened = false;
  let erased: { at: string; fields: string[]; erasure: string; index: number } | null = null;
  if (receipt) {
    const entry = entryOf(receipt);
    // A field may fail to open only when the log itself records its erasure: the erasure's leaf,
    // proven under the same pinned key, must name this entry and that field.
    if (receipt.erased) {
      const claimed = receipt.erased;
      if (!claimed.proof.tlog_proof) throw new CliError('pending', `${entry.entry.id} was erased, but the erasure ${claimed.erasure} is not yet in the tree; try again shortly`);
      erased = check('erasure', () => {
        const p = verifyTlogProof(claimed.proof.tlog_proof!, key);
        const e = JSON.parse(p.leafText) as { kind?: unknown; id?: unknown; entry?: unknown; fields?: unknown; erased_at?: unknown };
        if (e.kind !== 'erasure' || e.entry !== entry.entry.id || !Array.isArray(e.fields)) throw new Error(`the erasure proof's leaf does not record an erasure of ${entry.entry.id}`);
        return { at: String(e.erased_at), fields: (e.fields as string[]).map(shownField), erasure: String(e.id), index: p.index };
      });
    }
    // The receipt's record must be the one the leaf commits to, every field of it not erased.
    check('receipt', () => {
      if (leaf['id'] !== entry.entry.id) throw new Error(`the proof is for ${String(leaf['id'])}, the receipt for ${entry.entry.id}`);
      const bad = fieldsNotMatching(proven.leafText, entry, receipt!.opening.salt, erased ? null : body).filter((f) => !erased?.fields.includes(f));
      if (bad.length > 0) throw new Error(`the record as served differs from its leaf in ${bad.join(', ')} (edited after it was recorded)`);
    });
    opened = true;
  }
  const result = { ok: true, id: leaf['id'], kind: leaf['kind'], index: proven.index, tree_size: proven.checkpoint.size, origin: proven.checkpoint.origin, commitment_opened: opened, ...(erased ? { erased } : {}), ...(witnessed ? { cosigned_by: witnessed } : {}) };
  io.out(
    options.json
      ? JSON.stringify(result)
      : `verified: ${String(leaf['kind'])} ${String(leaf['id'])} is leaf ${proven.index} of ${proven.checkpoint.origin} at size ${proven.checkpoint.size}, signed by the pinned key${witnessed ? ` and cosigned by ${witnessed.join(', ')}` : ''}${erased ? `; erased at ${erased.at} (${erased.fields.join(', ')}; the erasure ${erased.erasure} is leaf ${erased.index}), the receipt opens every other field` : opened ? `; the receipt opens its commitment${body ? ', and the stored body hashes to it' : ''}` : ''}`,
  );
}

async function verifyConsistencyCommand(client: SwitchyardClient, args: string[], key: string, options: VerifyOptions, io: Output, policy: { witnesses: string[]; needed: number } | null): Promise<void> {
  if (args.length !== 2) throw new CliError('invalid_request', 'verify --consistency takes two saved checkpoint files: OLDER NEWER', 2);
  const verifier = noteVerifier(key);
  const notes = args.map((file) => readFileSync(file, 'utf8'));
  const [older, newer] = notes.map((note, i) => check(args[i]!, () => parseCheckpoint(openNote(note, [verifier]).text))) as [ReturnType<typeof parseCheckpoint>, ReturnType<typeof parseCheckpoint>];
  // With a policy, the newer checkpoint (the one relied on from now on) must meet it.
  const witnessed = cosignedBy(notes[1]!, key, policy);
  if (older.origin !== newer.origin) throw new CliError('proof_invalid', `the checkpoints are of two logs: ${older.origin} and ${newer.origin}`);
  // The server supplies only the proof; both roots come from the signed files.
  const answer = await client.request<{ consistency: { proof: string[] } }>('GET', `/api/proven-work?from_size=${older.size}&to_size=${newer.size}&limit=1`, undefined, { credential: false });
  check('consistency', () => verifyConsistency(older.size, newer.size, answer.consistency.proof.map((p) => new Uint8Array(Buffer.from(p, 'base64'))), older.root, newer.root));
  const result = { ok: true, origin: older.origin, from_size: older.size, to_size: newer.size, ...(witnessed ? { cosigned_by: witnessed } : {}) };
  io.out(options.json ? JSON.stringify(result) : `verified: ${older.origin} at size ${newer.size} extends its checkpoint at size ${older.size}${witnessed ? `, cosigned by ${witnessed.join(', ')}` : ''}`);
}
