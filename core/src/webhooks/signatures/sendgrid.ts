// Twilio SendGrid's Event Webhook: an ECDSA P-256 / SHA-256 signature (base64 DER) in
// `X-Twilio-Email-Event-Webhook-Signature` over `<timestamp><body>`, checked with the verification
// key shown under Mail Settings (base64 DER, or PEM). The key is public.
import { createPublicKey, verify as verifyEcdsa, type KeyObject } from 'node:crypto';
import { decode, headerOf, invalid, missing, staleSeconds, verdict } from './parts.js';
import type { SignatureCheck, SignatureSchemeDefinition, SignedRequest, VerifyContext } from './signature-scheme.js';

function publicKeyOf(text: string): KeyObject | null {
  try {
    const trimmed = text.trim();
    const key = trimmed.startsWith('-----BEGIN') ? createPublicKey(trimmed) : createPublicKey({ key: Buffer.from(trimmed, 'base64'), format: 'der', type: 'spki' });
    return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1' ? key : null;
  } catch {
    return null;
  }
}

const keys = new Map<string, KeyObject | null>();
const cachedKey = (text: string): KeyObject | null => {
  if (!keys.has(text)) {
    if (keys.size >= 1000) keys.clear();
    keys.set(text, publicKeyOf(text));
  }
  return keys.get(text)!;
};

function verifySendgrid(request: SignedRequest, context: VerifyContext): SignatureCheck {
  const signature = headerOf(request.headers, 'x-twilio-email-event-webhook-signature');
  const timestamp = headerOf(request.headers, 'x-twilio-email-event-webhook-timestamp');
  if (!signature || !timestamp) return missing('X-Twilio-Email-Event-Webhook-Signature and …-Timestamp are required');
  const stale = staleSeconds(timestamp, context.now, context.tolerance);
  if (stale) return invalid(stale);
  const key = cachedKey(context.secret);
  if (!key) return invalid('the verification key is not a P-256 public key');
  const bytes = decode(signature.trim(), 'base64');
  if (bytes === null) return invalid('the signature is not base64');
  let ok = false;
  try {
    ok = verifyEcdsa('sha256', Buffer.concat([Buffer.from(timestamp, 'utf8'), request.body]), { key, dsaEncoding: 'der' }, bytes);
  } catch {
    ok = false; // not a DER signature at all
  }
  return verdict(ok, 'X-Twilio-Email-Event-Webhook-Signature');
}

export const sendgrid: SignatureSchemeDefinition = {
  sender: 'Twilio SendGrid (Event Webhook)',
  checks: '`X-Twilio-Email-Event-Webhook-Signature` with `…-Timestamp`: ECDSA P-256 SHA-256 signature of `timestamp` + `body`, checked with the verification key',
  window: 300,
  secret: { is: 'the signed event webhook’s verification key (base64, as SendGrid shows it)', problem: (s) => (publicKeyOf(s) ? null : 'must be the verification key SendGrid shows: a P-256 public key in base64 (or PEM)') },
  verify: verifySendgrid,
  detect: ['x-twilio-email-event-webhook-signature'],
  // A POST is a batch of events: the first one's names the delivery.
  eventType: { paths: ['0.event'] },
  docs: 'https://www.twilio.com/docs/sendgrid/for-developers/tracking-events/getting-started-event-webhook-security-features',
};
