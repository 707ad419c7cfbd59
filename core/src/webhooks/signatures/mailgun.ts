// Mailgun: the signature is inside the body, `{"signature": {timestamp, token, signature}}` in a
// JSON event (or `timestamp`, `token`, `signature` fields of a form post): a hex HMAC-SHA256 of
// `<timestamp><token>` keyed by the Webhook Signing Key. The body itself is not signed.
import { anyMatches, bodyObject, bodyText, headerOf, hmac, invalid, missing, staleSeconds, verdict } from './parts.js';
import type { SignatureCheck, SignatureSchemeDefinition, SignedRequest, VerifyContext } from './signature-scheme.js';

interface MailgunSignature {
  timestamp: string;
  token: string;
  signature: string;
}

const text = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : null);

function signatureIn(request: SignedRequest): MailgunSignature | null {
  const type = (headerOf(request.headers, 'content-type') ?? '').toLowerCase();
  const fields: Record<string, unknown> | null = type.includes('application/x-www-form-urlencoded')
    ? Object.fromEntries(new URLSearchParams(bodyText(request.body)))
    : ((bodyObject(request.body)?.['signature'] as Record<string, unknown> | undefined) ?? null);
  if (!fields || typeof fields !== 'object') return null;
  const [timestamp, token, signature] = [text(fields['timestamp']), text(fields['token']), text(fields['signature'])];
  return timestamp && token && signature ? { timestamp, token, signature } : null;
}

function verifyMailgun(request: SignedRequest, context: VerifyContext): SignatureCheck {
  const found = signatureIn(request);
  if (!found) return missing('no signature {timestamp, token, signature} in the body (JSON or a form post)');
  const stale = staleSeconds(found.timestamp, context.now, context.tolerance);
  if (stale) return invalid(stale);
  return verdict(anyMatches([found.signature], 'hex', hmac('sha256', context.secret, found.timestamp, found.token)), 'the body’s signature');
}

export const mailgun: SignatureSchemeDefinition = {
  sender: 'Mailgun',
  checks: 'the body’s `signature.{timestamp, token, signature}` (or form fields): hex HMAC-SHA256 of `timestamp` + `token`; the body itself is not signed',
  // Mailgun warns that its deliveries can be late: a wider window than the usual five minutes.
  window: 900,
  secret: { is: 'the HTTP webhook signing key', problem: () => null },
  verify: verifyMailgun,
  detect: [],
  eventType: { paths: ['event-data.event', 'event'] },
  docs: 'https://documentation.mailgun.com/docs/mailgun/user-manual/webhooks/securing-webhooks',
};
