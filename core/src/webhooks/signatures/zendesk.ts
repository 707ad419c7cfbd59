// Zendesk: `X-Zendesk-Webhook-Signature`, a base64 HMAC-SHA256 of `<timestamp><body>` keyed by the
// webhook's signing secret, the timestamp (ISO 8601) in `X-Zendesk-Webhook-Signature-Timestamp`.
import { SHARED_SECRET, anyMatches, headerOf, hmac, invalid, missing, staleIso, verdict } from './parts.js';
import type { SignatureCheck, SignatureSchemeDefinition, SignedRequest, VerifyContext } from './signature-scheme.js';

function verifyZendesk(request: SignedRequest, context: VerifyContext): SignatureCheck {
  const value = headerOf(request.headers, 'x-zendesk-webhook-signature');
  const timestamp = headerOf(request.headers, 'x-zendesk-webhook-signature-timestamp');
  if (!value || !timestamp) return missing('X-Zendesk-Webhook-Signature and X-Zendesk-Webhook-Signature-Timestamp are required');
  const stale = staleIso(timestamp, context.now, context.tolerance);
  if (stale) return invalid(stale);
  return verdict(anyMatches([value], 'base64', hmac('sha256', context.secret, timestamp, request.body)), 'X-Zendesk-Webhook-Signature');
}

export const zendesk: SignatureSchemeDefinition = {
  sender: 'Zendesk',
  checks: '`X-Zendesk-Webhook-Signature` with `…-Signature-Timestamp`: base64 HMAC-SHA256 of `timestamp` + `body`',
  window: 300,
  secret: { ...SHARED_SECRET, is: 'the webhook’s signing secret' },
  verify: verifyZendesk,
  detect: ['x-zendesk-webhook-signature'],
  eventType: { paths: ['type'] },
  docs: 'https://developer.zendesk.com/documentation/webhooks/verifying/',
};
