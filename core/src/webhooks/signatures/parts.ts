// What the schemes share: reading a header, HMACs, constant-time comparison, decoding a signature,
// the replay window, and the common shapes of a secret.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { RawHeaders } from '../delivery-id.js';
import type { SignatureCheck } from './signature-scheme.js';

/** The first value of a header (names compare in any letter case). */
export const headerOf = (headers: RawHeaders, lowerName: string): string | null => {
  for (const [n, v] of headers) if (n.toLowerCase() === lowerName) return v;
  return null;
};

export const hmac = (algorithm: 'sha1' | 'sha256', key: string | Buffer, ...parts: Array<string | Uint8Array>): Buffer => {
  const h = createHmac(algorithm, key);
  for (const p of parts) h.update(p);
  return h.digest();
};

export const sameBytes = (a: Buffer, b: Buffer): boolean => a.length === b.length && timingSafeEqual(a, b);

/** A signature's bytes from its text, or null when it is not that encoding (never a partial decode). */
export const decode = (text: string, encoding: 'hex' | 'base64'): Buffer | null => {
  const valid = encoding === 'hex' ? /^[0-9a-fA-F]+$/.test(text) && text.length % 2 === 0 : /^[A-Za-z0-9+/_-]+={0,2}$/.test(text);
  return valid ? Buffer.from(text, encoding) : null;
};

/** True when one of the given signatures (text, in `encoding`) is `expected`; each compared in constant time. */
export const anyMatches = (given: readonly string[], encoding: 'hex' | 'base64', expected: Buffer): boolean =>
  given.some((text) => {
    const bytes = decode(text.trim(), encoding);
    return bytes !== null && sameBytes(bytes, expected);
  });

export const missing = (reason: string): SignatureCheck => ({ verdict: 'missing', reason });
export const invalid = (reason: string): SignatureCheck => ({ verdict: 'invalid', reason });
export const verdict = (ok: boolean, what: string): SignatureCheck => (ok ? { verdict: 'verified', reason: `${what} matches` } : invalid(`${what} does not match`));

/** Why a signed time in seconds is outside the window, or null when it is within it. */
export function staleSeconds(timestamp: string, now: Date, tolerance: number): string | null {
  if (!/^[0-9]{1,12}$/.test(timestamp)) return 'the timestamp is not a number of seconds';
  return staleBy(Number(timestamp) * 1000, now, tolerance);
}

/** Why a signed time in milliseconds since the epoch is outside the window, or null. */
export function staleBy(ms: number, now: Date, tolerance: number): string | null {
  if (!Number.isFinite(ms)) return 'the timestamp is not a time';
  const skew = Math.abs(now.getTime() - ms) / 1000;
  return skew > tolerance ? `the timestamp is ${Math.round(skew)} s away from now (tolerance ${tolerance} s)` : null;
}

/** Why an ISO 8601 time (RFC 3339) is outside the window, or null. */
export function staleIso(text: string, now: Date, tolerance: number): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/.test(text)) return 'the timestamp is not an ISO 8601 time';
  // Date reads milliseconds: the digits past them (Twitch sends nanoseconds) do not change the window.
  return staleBy(Date.parse(text.replace(/(\.\d{3})\d+/, '$1')), now, tolerance);
}

/** `k=v` items of a header split by `separator` (`t=…,v1=…,v1=…`), repeats kept in order. */
export function keyValues(value: string, separator: string): Array<[string, string]> {
  return value.split(separator).map((part) => {
    const at = part.indexOf('=');
    return at < 0 ? [part.trim(), ''] : [part.slice(0, at).trim(), part.slice(at + 1).trim()];
  });
}

const utf8 = new TextDecoder('utf-8');
/** The body as text (invalid bytes replaced), for senders whose signed fields are inside it. */
export const bodyText = (body: Uint8Array): string => utf8.decode(body);

/** The body's top-level JSON object, or null. */
export function bodyObject(body: Uint8Array): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(bodyText(body));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Secrets: any text of 8 to 500 characters (an HMAC key), checked by the webhook settings. */
export const SHARED_SECRET = { is: 'the shared secret the sender signs with', problem: () => null };
