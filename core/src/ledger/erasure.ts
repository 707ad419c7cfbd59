// Erasure: the owner removes the private fields of an invocation or a delivery while its leaf, and
// so every inclusion and consistency proof and every checkpoint, stays as it was. The leaf commits to
// each private field on its own (leaf version 2), so an erased field simply no longer opens; the
// erasure is itself a ledger entry (kind `erasure`) that says which entry, when, which fields, and the
// SHA-256 of the reason (the reason itself may name a person, so it is a private field).
import { createHash, randomBytes } from 'node:crypto';
import { SwitchyardError } from '../errors.js';

export type ErasableKind = 'invocation' | 'delivery';

/**
 * The private fields erased, by kind, as the leaf names them: the payloads (arguments, bodies,
 * results, headers, content). Who ran or sent it and the webhook's address stay, so the listings
 * still page by them.
 */
export const ERASABLE_FIELDS: Readonly<Record<ErasableKind, readonly string[]>> = {
  invocation: ['args', 'body', 'content', 'logs', 'result', 'structured_content'],
  delivery: ['body_sha256', 'headers', 'query'],
};

/** An erasure entry as stored. */
export interface ErasureRecord {
  id: string;
  entry_kind: ErasableKind;
  entry: string;
  /** The leaf's private fields that were erased, sorted. */
  fields: string[];
  reason: string;
  /** "sha256:" hex of the reason, the public trace of why. */
  reason_sha256: string;
  erased_at: string;
}

export const ERASURE_ID_PATTERN = /^ers_[A-Za-z0-9]{20}$/;
export const MAX_ERASURE_REASON_LENGTH = 500;

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const newErasureId = (): string => `ers_${[...randomBytes(20)].map((b) => ALPHANUMERIC[b % 62]).join('')}`;

/** The erasable kind an entry id names, or a coded refusal: only invocations and deliveries hold payloads. */
export function erasableKindOf(entryId: string): ErasableKind {
  if (/^inv_[A-Za-z0-9]{8,40}$/.test(entryId)) return 'invocation';
  if (/^dlv_[A-Za-z0-9]{8,40}$/.test(entryId)) return 'delivery';
  throw new SwitchyardError('not_erasable', `${entryId} is not an invocation (inv_…) or a delivery (dlv_…): only their private fields can be erased; every other entry's fields are public or hold no payload`);
}

/** A checked reason: a non-empty string of at most MAX_ERASURE_REASON_LENGTH characters. */
export function erasureReason(value: unknown): string {
  if (typeof value !== 'string' || value.trim().length === 0 || value.length > MAX_ERASURE_REASON_LENGTH) {
    throw new SwitchyardError('invalid_request', `reason must be a non-empty string of at most ${MAX_ERASURE_REASON_LENGTH} characters (why the fields are erased)`, { field: 'reason' });
  }
  return value;
}

/** The erasure entry for `entry`, made at `at`. */
export function erasureOf(kind: ErasableKind, entry: string, reason: string, at: Date): ErasureRecord {
  return {
    id: newErasureId(),
    entry_kind: kind,
    entry,
    fields: [...ERASABLE_FIELDS[kind]],
    reason,
    reason_sha256: `sha256:${createHash('sha256').update(reason).digest('hex')}`,
    erased_at: at.toISOString(),
  };
}

/** Retention (`retention.privateDays`): entries made before this instant have their payload erased. */
export const retentionCutoff = (now: Date, privateDays: number): string => new Date(now.getTime() - privateDays * 86_400_000).toISOString();

/** The reason a retention erasure logs (its SHA-256 in the erasure's leaf). */
export const retentionReason = (privateDays: number): string => `retention: private fields kept ${privateDays} days (retention.privateDays)`;

/** The reason when a webhook's own `retention_private_days` decided (no id: a webhook's id is its address). */
export const webhookRetentionReason = (privateDays: number): string => `retention: private fields kept ${privateDays} days (the webhook's retention_private_days)`;

/**
 * Which deliveries each retention applies to: a webhook with its own days gets its own sweep; the
 * global days (if set) cover every invocation and the deliveries of all other webhooks.
 */
export function retentionPlan(globalDays: number | null, webhooks: ReadonlyArray<{ id: string; retention_private_days: number | null }>): {
  global: { days: number; exceptHooks: string[] } | null;
  hooks: Array<{ hook: string; days: number }>;
} {
  const hooks = webhooks.filter((w) => w.retention_private_days !== null).map((w) => ({ hook: w.id, days: w.retention_private_days! }));
  return { global: globalDays ? { days: globalDays, exceptHooks: hooks.map((h) => h.hook) } : null, hooks };
}

/** An invocation record with its erasable fields emptied (null; parts a run never had stay absent). */
export function erasedInvocationRecord<T extends object>(record: T): T {
  const out: Record<string, unknown> = { ...(record as Record<string, unknown>) };
  for (const field of ERASABLE_FIELDS.invocation) if (out[field] !== undefined) out[field] = null;
  return out as unknown as T;
}
