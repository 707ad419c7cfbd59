// Webhook signature verification over the raw bytes, for the schemes senders actually use.
// Every comparison is constant-time; timestamps outside the tolerance are invalid (replays).
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { RawHeaders } from './delivery-id.js';

export const SIGNATURE_SCHEMES = ['standard-webhooks', 'stripe', 'github', 'shopify', 'linear', 'hmac-sha256'] as const;
export type SignatureScheme = (typeof SIGNATURE_SCHEMES)[number];
export type SignatureVerdict = 'verified' | 'invalid' | 'missing';

export interface SignatureSettings {
  scheme: SignatureScheme;
  secret: string;
  /** For hmac-sha256: the header carrying the signature (default x-signature). */
  header: string | null;
  /** Refuse deliveries whose signature is not verified. */
  require: boolean;
}

export interface SignatureCheck {
  verdict: SignatureVerdict;
  reason: string;
}

export const DEFAULT_TOLERANCE_SECONDS = 300;

const header = (headers: RawHeaders, name: string): string | null => {
  for (const [n, v] of headers) if (n.toLowerCase() === name) return v;
  return null;
};

const hmac = (key: string | Buffer, ...parts: Array<string | Uint8Array>): Buffer => {
  const h = createHmac('sha256', key);
  for (const p of parts) h.update(p);
  return h.digest();
};

const sameBytes = (a: Buffer, b: Buffer): boolean => a.length === b.length && timingSafeEqual(a, b);

const decode = (text: string, encoding: 'hex' | 'base64'): Buffer | null => {
  const valid = encoding === 'hex' ? /^[0-9a-fA-F]+$/.test(text) && text.length % 2 === 0 : /^[A-Za-z0-9+/_-]+={0,2}$/.test(text);
  return valid ? Buffer.from(text, encoding) : null;
};

const verdict = (ok: boolean, what: string): SignatureCheck => (ok ? { verdict: 'verified', reason: `${what} matches` } : { verdict: 'invalid', reason: `${what} does not match` });

function fresh(timestamp: string, now: Date, tolerance: number): string | null {
  if (!/^[0-9]{1,12}$/.test(timestamp)) return 'the timestamp is not a number of seconds';
  const skew = Math.abs(now.getTime() / 1000 - Number(timestamp));
  return skew > tolerance ? `the timestamp is ${Math.round(skew)} s away from now (tolerance ${tolerance} s)` : null;
}

/** Standard Webhooks (and Svix): HMAC of `${id}.${timestamp}.${body}` keyed by the base64 secret. */
function standardWebhooks(s: SignatureSettings, headers: RawHeaders, body: Uint8Array, now: Date, tolerance: number): SignatureCheck {
  const prefix = header(headers, 'webhook-signature') !== null ? 'webhook' : 'svix';
  const id = header(headers, `${prefix}-id`);
  const timestamp = header(headers, `${prefix}-timestamp`);
  const signatures = header(headers, `${prefix}-signature`);
  if (!id || !timestamp || !signatures) return { verdict: 'missing', reason: 'webhook-id, webhook-timestamp and webhook-signature (or svix-*) are required' };
  const stale = fresh(timestamp, now, tolerance);
  if (stale) return { verdict: 'invalid', reason: stale };
  const key = Buffer.from(s.secret.replace(/^whsec_/, ''), 'base64');
  const expected = hmac(key, `${id}.${timestamp}.`, body);
  const ok = signatures.split(' ').some((entry) => {
    const [version, sig] = entry.split(',');
    const given = version === 'v1' && sig ? decode(sig, 'base64') : null;
    return given !== null && sameBytes(given, expected);
  });
  return verdict(ok, 'a v1 signature');
}

/** Stripe: `Stripe-Signature: t=…,v1=…` over `${t}.${body}`, keyed by the whsec_ secret as text. */
function stripe(s: SignatureSettings, headers: RawHeaders, body: Uint8Array, now: Date, tolerance: number): SignatureCheck {
  const value = header(headers, 'stripe-signature');
  if (!value) return { verdict: 'missing', reason: 'no Stripe-Signature header' };
  const parts = value.split(',').map((p) => p.split('=') as [string, string]);
  const t = parts.find(([k]) => k === 't')?.[1];
  const v1 = parts.filter(([k]) => k === 'v1').map(([, v]) => v);
  if (!t || v1.length === 0) return { verdict: 'invalid', reason: 'Stripe-Signature has no t= or v1=' };
  const stale = fresh(t, now, tolerance);
  if (stale) return { verdict: 'invalid', reason: stale };
  const expected = hmac(s.secret, `${t}.`, body);
  return verdict(v1.some((sig) => { const given = decode(sig, 'hex'); return given !== null && sameBytes(given, expected); }), 'a v1 signature');
}

function hexOrPrefixed(value: string, prefix: string): Buffer | null {
  const v = value.startsWith(prefix) ? value.slice(prefix.length) : value;
  return decode(v, 'hex');
}

export function verifySignature(s: SignatureSettings, headers: RawHeaders, body: Uint8Array, now: Date = new Date(), tolerance = DEFAULT_TOLERANCE_SECONDS): SignatureCheck {
  switch (s.scheme) {
    case 'standard-webhooks':
      return standardWebhooks(s, headers, body, now, tolerance);
    case 'stripe':
      return stripe(s, headers, body, now, tolerance);
    case 'github': {
      const value = header(headers, 'x-hub-signature-256');
      if (!value) return { verdict: 'missing', reason: 'no X-Hub-Signature-256 header' };
      const given = value.startsWith('sha256=') ? decode(value.slice(7), 'hex') : null;
      return verdict(given !== null && sameBytes(given, hmac(s.secret, body)), 'X-Hub-Signature-256');
    }
    case 'shopify': {
      const value = header(headers, 'x-shopify-hmac-sha256');
      if (!value) return { verdict: 'missing', reason: 'no X-Shopify-Hmac-Sha256 header' };
      const given = decode(value, 'base64');
      return verdict(given !== null && sameBytes(given, hmac(s.secret, body)), 'X-Shopify-Hmac-Sha256');
    }
    case 'linear': {
      const value = header(headers, 'linear-signature');
      if (!value) return { verdict: 'missing', reason: 'no Linear-Signature header' };
      const given = decode(value, 'hex');
      return verdict(given !== null && sameBytes(given, hmac(s.secret, body)), 'Linear-Signature');
    }
    case 'hmac-sha256': {
      const name = (s.header ?? 'x-signature').toLowerCase();
      const value = header(headers, name);
      if (!value) return { verdict: 'missing', reason: `no ${name} header` };
      const expected = hmac(s.secret, body);
      const asHex = hexOrPrefixed(value.trim(), 'sha256=');
      const asBase64 = decode(value.trim(), 'base64');
      return verdict((asHex !== null && sameBytes(asHex, expected)) || (asBase64 !== null && sameBytes(asBase64, expected)), name);
    }
  }
}
