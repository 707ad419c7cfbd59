// Discord (interactions and webhook events): an Ed25519 signature, `X-Signature-Ed25519` (hex),
// over `<X-Signature-Timestamp><body>`, checked with the application's public key (hex). The
// "secret" here is public: nothing that holds it can sign.
import { createPublicKey, verify as verifyEd25519, type KeyObject } from 'node:crypto';
import { decode, headerOf, invalid, missing, staleSeconds, verdict } from './parts.js';
import type { SignatureCheck, SignatureSchemeDefinition, SignedRequest, VerifyContext } from './signature-scheme.js';

const publicKeyOf = (hex: string): KeyObject | null => {
  const raw = /^[0-9a-fA-F]{64}$/.test(hex) ? Buffer.from(hex, 'hex') : null;
  return raw ? createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' }) : null;
};

/** Keys are parsed once per distinct value; a webhook's key rarely changes. */
const keys = new Map<string, KeyObject | null>();
const cachedKey = (hex: string): KeyObject | null => {
  if (!keys.has(hex)) {
    if (keys.size >= 1000) keys.clear();
    keys.set(hex, publicKeyOf(hex));
  }
  return keys.get(hex)!;
};

function verifyDiscord(request: SignedRequest, context: VerifyContext): SignatureCheck {
  const signature = headerOf(request.headers, 'x-signature-ed25519');
  const timestamp = headerOf(request.headers, 'x-signature-timestamp');
  if (!signature || !timestamp) return missing('X-Signature-Ed25519 and X-Signature-Timestamp are required');
  const stale = staleSeconds(timestamp, context.now, context.tolerance);
  if (stale) return invalid(stale);
  const key = cachedKey(context.secret);
  if (!key) return invalid('the public key is not 64 hex characters');
  const bytes = decode(signature, 'hex');
  if (bytes === null || bytes.length !== 64) return invalid('X-Signature-Ed25519 is not a 64-byte signature in hex');
  return verdict(verifyEd25519(null, Buffer.concat([Buffer.from(timestamp, 'utf8'), request.body]), key, bytes), 'X-Signature-Ed25519');
}

export const discord: SignatureSchemeDefinition = {
  sender: 'Discord',
  checks: '`X-Signature-Ed25519` with `X-Signature-Timestamp`: Ed25519 signature of `timestamp` + `body`, checked with the application’s public key',
  window: 300,
  secret: { is: 'the application’s public key (64 hex characters)', problem: (s) => (publicKeyOf(s) ? null : 'must be the application’s public key: 64 hex characters') },
  verify: verifyDiscord,
  detect: ['x-signature-ed25519'],
  // Webhook events name theirs in event.type; interactions give a number (1 is PING).
  eventType: { paths: ['event.type', 'type'] },
  docs: 'https://discord.com/developers/docs/interactions/overview#setting-up-an-endpoint-validating-security-request-headers',
};
