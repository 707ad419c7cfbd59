// What a signature scheme is: how one sender signs its deliveries (checked over the raw bytes),
// what its secret looks like, its replay window, and where that sender names each event's type.
import type { RawHeaders } from '../delivery-id.js';

export type SignatureVerdict = 'verified' | 'invalid' | 'missing';

export interface SignatureCheck {
  verdict: SignatureVerdict;
  reason: string;
}

/** A delivery as its sender signed it. */
export interface SignedRequest {
  method: string;
  /** The address the sender posted to, as it would write it (scheme, host, path and query); null when unknown. */
  url: string | null;
  headers: RawHeaders;
  body: Uint8Array;
}

/** What a check is given besides the request: the webhook's secret and settings, and the time. */
export interface VerifyContext {
  secret: string;
  /** The header a generic scheme reads (hmac-sha256); null for its default. */
  header: string | null;
  now: Date;
  /** Seconds a signed timestamp may be away from now. */
  tolerance: number;
}

/**
 * Where a sender names the event: its own headers, else body paths (dotted, a number indexes an
 * array: `0.event`), each tried in order.
 */
export interface EventTypeRule {
  headers?: readonly string[];
  paths?: readonly string[];
}

export interface SignatureSchemeDefinition {
  /** Who signs this way, for docs and answers. */
  sender: string;
  /** What is checked, in a line (the docs' table is made of these). */
  checks: string;
  /** Seconds a signed timestamp may be away from now; null when the sender signs no time. */
  window: number | null;
  /** What the secret is, and why a value is not one (null when it is). */
  secret: { is: string; problem(secret: string): string | null };
  verify(request: SignedRequest, context: VerifyContext): SignatureCheck;
  /** Headers only this sender sends, by which its deliveries are known without a scheme set. */
  detect: readonly string[];
  /** Where this sender names its event types; null when it names none. */
  eventType: EventTypeRule | null;
  /** The vendor's page that documents it. */
  docs: string;
}
