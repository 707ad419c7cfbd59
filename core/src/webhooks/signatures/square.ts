// Square: `x-square-hmacsha256-signature`, a base64 HMAC-SHA256 keyed by the subscription's
// signature key over the notification URL followed by the body. No time is signed.
import { anyMatches, headerOf, hmac, invalid, missing, verdict } from './parts.js';
import type { SignatureCheck, SignatureSchemeDefinition, SignedRequest, VerifyContext } from './signature-scheme.js';

function verifySquare(request: SignedRequest, context: VerifyContext): SignatureCheck {
  const value = headerOf(request.headers, 'x-square-hmacsha256-signature');
  if (!value) return missing('no x-square-hmacsha256-signature header');
  if (!request.url) return invalid('the address the delivery was sent to is not known, and Square signs it');
  return verdict(anyMatches([value], 'base64', hmac('sha256', context.secret, request.url, request.body)), 'x-square-hmacsha256-signature');
}

export const square: SignatureSchemeDefinition = {
  sender: 'Square',
  checks: '`x-square-hmacsha256-signature`: base64 HMAC-SHA256 of the notification URL and the body',
  window: null,
  secret: { is: 'the webhook subscription’s signature key', problem: () => null },
  verify: verifySquare,
  detect: ['x-square-hmacsha256-signature'],
  eventType: { paths: ['type'] },
  docs: 'https://developer.squareup.com/docs/webhooks/step3validate',
};
