// Webhooks and their deliveries: the records the ledger keeps for every request to /hook/<id>.
import { randomId } from '../ids.js';
import type { RawHeaders } from './delivery-id.js';
import type { SignatureVerdict } from './signatures/signature-scheme.js';
import type { SignatureSettings } from './signatures/verify-signature.js';

export interface Webhook {
  id: string;
  name: string;
  on: boolean;
  delivery_id_path: string | null;
  /** Where its deliveries name their event type when the sender is not known: a body path or header:<name>. */
  event_type_path: string | null;
  /** Optional signature checking; the secret never leaves the server. */
  signature: SignatureSettings | null;
  /** Its deliveries' private fields are erased after this many days (null: `retention.privateDays`). */
  retention_private_days: number | null;
  created_at: string;
  updated_at: string;
}

export const newWebhookId = (): string => randomId('hk_', 12);
export const newDeliveryEntryId = (): string => randomId('dlv_', 20);
export const WEBHOOK_ID_PATTERN = /^hk_[A-Za-z0-9]{12}$/;
/**
 * How log lines name a webhook. Its address is its secret and logs travel further than the
 * database (aggregators, support tickets), so a line carries only the first three characters:
 * enough to tell an owner's few webhooks apart, far too few to post to one.
 */
export const webhookLogName = (id: string): string => `${id.slice(0, 6)}…`;

export const DELIVERY_EVENT = 'webhook delivery';

/** accepted: stored (first or duplicate); refused: stored as a refusal, nothing ran. */
export type DeliveryOutcome = 'accepted' | 'refused';

/**
 * Why a delivery was refused: the intake's own reasons, or the code its action was refused with
 * before running (invalid_arguments, invalid_body, credential_required, …).
 */
export type RefusalReason = 'webhook_off' | 'payload_too_large' | 'unknown_capability' | 'signature_invalid' | (string & {});

/** A stored refusal: the reason, and for a refusal whose body was not read whole, what was kept. */
export interface DeliveryRefusal {
  code: RefusalReason;
  message: string;
  /** True when `body` holds only the first bytes of what was sent (an Off webhook). */
  body_truncated?: boolean;
  /** The content-length the sender announced, or null for a chunked body. */
  declared_size?: number | null;
}

/** The one word a delivery's outcome is told with everywhere: accepted, duplicate or refused. */
export type DeliveryOutcomeWord = 'accepted' | 'duplicate' | 'refused';

export const deliveryOutcomeWord = (d: Pick<StoredDelivery, 'outcome' | 'duplicate'>): DeliveryOutcomeWord =>
  d.outcome === 'refused' ? 'refused' : d.duplicate ? 'duplicate' : 'accepted';

export interface DeliveryRecord {
  id: string;
  hook_id: string;
  received_at: string;
  method: string;
  /** Path as received, including an action segment. */
  path: string;
  query: string;
  headers: RawHeaders;
  /** The body byte for byte; null when it was refused for size and not read; its first bytes when refused Off. */
  body: Uint8Array | null;
  body_size: number;
  client_address: string | null;
  delivery_id: string | null;
  delivery_id_rule: string | null;
  /** What happened, as the sender names it (push, invoice.paid, orders/create…); null when it names nothing. */
  event_type: string | null;
  /** Which rule found it, e.g. `header:x-github-event`, `body:type`, `path:data.kind`. */
  event_type_rule: string | null;
  /** The signature check when the webhook has one: verified, invalid or missing. */
  signature: SignatureVerdict | null;
  outcome: DeliveryOutcome;
  refusal: DeliveryRefusal | null;
  /** The capability key named by an action address, if any. */
  action: string | null;
  /** The id of the HTTP request that brought it (x-request-id); not in the leaf. */
  request_id: string | null;
}

export interface StoredDelivery extends DeliveryRecord {
  seq: number;
  /** SHA-256 (hex) of the stored body, computed when it was written; null when no body is stored. */
  body_sha256: string | null;
  /**
   * True when a listing left the body out (`body` null) because it is over the inline threshold;
   * its bytes are read with DeliveryStore.readBody.
   */
  body_omitted: boolean;
  duplicate: boolean;
  /** The first delivery with the same delivery id on this webhook (itself when first). */
  duplicate_of: string | null;
  /** The action's run, derived from the action record written after it. */
  action_run: ActionRecord | null;
}

/** The further record an action address produces: which invocation ran and what was answered. */
export interface ActionRecord {
  delivery: string;
  action: string;
  invocation: string;
  ok: boolean;
  status: string;
  /** The HTTP status and body the sender got. */
  answer: { status: number; body: unknown };
  created_at: string;
}
