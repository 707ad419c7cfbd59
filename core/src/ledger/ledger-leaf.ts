// What a ledger entry puts in the public Merkle tree. A leaf holds the entry's public fields and a
// salted hash commitment to its private ones (arguments, results, bodies, and anything that would
// reveal a secret such as a webhook's address). The salt comes from a server-held key and the entry
// id, so nothing extra is stored; a receipt hands out the salt and the private fields, and anyone can
// then check them against the leaf. The leaf bytes are its RFC 8785 canonical JSON.
import { createHmac, hash } from 'node:crypto';
import { canonicalJson, commitment, fieldCommitments, hashLeaf } from '@switchyard/verifier';
import type { StoredInvocation, ApprovalRecord } from '../runs/index.js';
import type { TokenUse } from '../access/index.js';
import type { ToolPin } from '../imports/index.js';
import type { ErasureRecord } from './erasure.js';
import type { ActionRecord, StoredDelivery } from '../webhooks/index.js';

export type LedgerEntryKind = 'invocation' | 'delivery' | 'action' | 'token_use' | 'approval' | 'tool_definition' | 'erasure';
export const LEDGER_ENTRY_KINDS: readonly LedgerEntryKind[] = ['invocation', 'delivery', 'action', 'token_use', 'approval', 'tool_definition', 'erasure'];

export type LedgerEntry =
  | { kind: 'invocation'; entry: StoredInvocation }
  | { kind: 'delivery'; entry: StoredDelivery }
  | { kind: 'action'; entry: ActionRecord }
  | { kind: 'token_use'; entry: TokenUse }
  | { kind: 'approval'; entry: ApprovalRecord }
  | { kind: 'tool_definition'; entry: ToolPin }
  | { kind: 'erasure'; entry: ErasureRecord };

export interface LeafParts {
  kind: LedgerEntryKind;
  id: string;
  public: Record<string, unknown>;
  private: Record<string, unknown>;
}

const sha256Hex = (data: string | Uint8Array) => hash('sha256', data, 'hex');

/**
 * Splits an entry into what anyone may see and what only a receipt reveals. Fields are listed in
 * canonical (sorted) order, so canonicalJson can write them natively; the order does not change
 * the bytes, which are canonical either way.
 */
export function leafParts(e: LedgerEntry): LeafParts {
  switch (e.kind) {
    case 'invocation': {
      const inv = e.entry;
      return {
        kind: 'invocation',
        id: inv.id,
        // An imported tool's run names the definition it ran under (absent for others, so their leaves stay as they were).
        public: {
          created_at: inv.created_at,
          ...(inv.definition_hash !== undefined ? { definition_hash: inv.definition_hash } : {}),
          fingerprint: inv.fingerprint, key: inv.key, ok: inv.ok, ran: inv.ran, repairs: inv.repairs, replays: inv.replays, status: inv.status,
        },
        // A tool run's content, structured content, log lines and rounds of input are committed to only when the
        // run has them, so records without them keep their leaves (large binary parts by blob hash).
        private: {
          actor: inv.actor, args: inv.args, body: inv.body,
          ...(inv.content !== undefined ? { content: inv.content } : {}),
          error: inv.error,
          ...(inv.logs !== undefined ? { logs: inv.logs } : {}),
          result: inv.result,
          ...(inv.rounds !== undefined ? { rounds: inv.rounds } : {}),
          source: inv.source,
          ...(inv.structured_content !== undefined ? { structured_content: inv.structured_content } : {}),
        },
      };
    }
    case 'delivery': {
      const d = e.entry;
      return {
        kind: 'delivery',
        id: d.id,
        public: { body_size: d.body_size, duplicate: d.duplicate, outcome: d.outcome, received_at: d.received_at },
        // The hook id is the secret address: private. The body is committed to by its hash, the one
        // stored with it when it was written (so building a leaf never reads a body).
        private: {
          action: d.action, body_sha256: d.body_sha256 ?? (d.body ? sha256Hex(d.body) : null), delivery_id: d.delivery_id, duplicate_of: d.duplicate_of,
          headers: d.headers, hook_id: d.hook_id, method: d.method, path: d.path, query: d.query, refusal: d.refusal, signature: d.signature,
        },
      };
    }
    case 'approval': {
      const a = e.entry;
      return {
        kind: 'approval',
        id: a.id,
        public: { decided_at: a.decided_at, decision: a.decision, invocation: a.invocation, run_invocation: a.run_invocation },
        private: { args_hash: a.args_hash, decided_by: a.decided_by },
      };
    }
    case 'token_use': {
      const u = e.entry;
      return {
        kind: 'token_use',
        id: u.id,
        public: { at: u.at, code: u.code, fingerprint: u.fingerprint, move: u.move, outcome: u.outcome },
        private: { route: u.route },
      };
    }
    case 'tool_definition': {
      // A pin: which definition (by hash) a key was served under from when. The definition itself
      // is public (any caller is shown it) but large, so the leaf carries its hash alone.
      const p = e.entry;
      return {
        kind: 'tool_definition',
        id: p.id,
        // The override's hash only when the tool has one, so the leaf names both sides of what was served.
        public: { definition_hash: p.definition_hash, key: p.key, ...(p.override_hash ? { override_hash: p.override_hash } : {}), pinned_at: p.pinned_at },
        private: { pinned_by: p.pinned_by, reason: p.reason, server: p.server, tool: p.tool },
      };
    }
    case 'erasure': {
      // Which entry lost which private fields, when, and the reason's hash: all public; the reason private.
      const r = e.entry;
      return {
        kind: 'erasure',
        id: r.id,
        public: { entry: r.entry, entry_kind: r.entry_kind, erased_at: r.erased_at, fields: r.fields, reason_sha256: r.reason_sha256 },
        private: { reason: r.reason },
      };
    }
    case 'action': {
      const a = e.entry;
      return {
        kind: 'action',
        id: a.delivery,
        public: { created_at: a.created_at, delivery: a.delivery, invocation: a.invocation, ok: a.ok, status: a.status },
        private: { action: a.action, answer: a.answer },
      };
    }
  }
}

/** The per-entry salt: HMAC-SHA256(commitment key, kind ":" id), base64. */
export const commitmentSalt = (commitmentKey: Uint8Array, kind: LedgerEntryKind, id: string): string =>
  createHmac('sha256', commitmentKey).update(`${kind}:${id}`).digest('base64');

export interface Leaf {
  /** The canonical JSON text that is hashed into the tree. */
  text: string;
  hash: Uint8Array;
}

/**
 * The kinds whose leaves commit to each private field on its own (leaf version 2), so a verifier
 * that finds a record edited can say which field: invocations and deliveries, the entries a
 * receipt opens. Leaves written before (version 1, one commitment to all private fields) still verify.
 */
const FIELD_COMMITTED: ReadonlySet<LedgerEntryKind> = new Set(['invocation', 'delivery']);

export function buildLeaf(parts: LeafParts, salt: string): Leaf {
  const fields: Record<string, unknown> = FIELD_COMMITTED.has(parts.kind)
    ? { v: 2, kind: parts.kind, id: parts.id, ...parts.public, commitments: fieldCommitments(salt, parts.private) }
    : { v: 1, kind: parts.kind, id: parts.id, ...parts.public, commitment: commitment(salt, parts.private) };
  // Written with its keys in canonical order, the leaf is canonicalized by one native stringify.
  const leaf: Record<string, unknown> = {};
  for (const key of Object.keys(fields).sort()) leaf[key] = fields[key];
  const text = canonicalJson(leaf);
  return { text, hash: hashLeaf(text) };
}

