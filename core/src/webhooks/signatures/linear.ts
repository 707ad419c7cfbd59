// Linear: `Linear-Signature`, a hex HMAC-SHA256 of the body keyed by the webhook's signing secret.
// The time is signed inside the body (`webhookTimestamp`, milliseconds), which Linear's SDK holds
// to a minute of now; so does this check.
import { SHARED_SECRET, anyMatches, bodyObject, headerOf, hmac, invalid, missing, staleBy, verdict } from './parts.js';
import type { SignatureCheck, SignatureSchemeDefinition, SignedRequest, VerifyContext } from './signature-scheme.js';

function verifyLinear(request: SignedRequest, context: VerifyContext): SignatureCheck {
  const value = headerOf(request.headers, 'linear-signature');
  if (!value) return missing('no Linear-Signature header');
  if (!anyMatches([value], 'hex', hmac('sha256', context.secret, request.body))) return invalid('Linear-Signature does not match');
  // Only a body whose signature matches is parsed for its time.
  const timestamp = bodyObject(request.body)?.['webhookTimestamp'];
  if (typeof timestamp !== 'number') return invalid('the body has no webhookTimestamp (milliseconds), which Linear signs');
  const stale = staleBy(timestamp, context.now, context.tolerance);
  return stale ? invalid(stale) : verdict(true, 'Linear-Signature');
}

export const linear: SignatureSchemeDefinition = {
  sender: 'Linear',
  checks: '`Linear-Signature: <hex>`: HMAC-SHA256 of the body, whose `webhookTimestamp` (ms) must be within the window',
  window: 60,
  secret: { ...SHARED_SECRET, is: 'the webhook’s signing secret' },
  verify: verifyLinear,
  detect: ['linear-event', 'linear-signature'],
  eventType: { headers: ['linear-event'], paths: ['type'] },
  docs: 'https://linear.app/developers/webhooks#securing-webhooks',
};
