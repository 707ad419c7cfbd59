// Paddle Billing: `Paddle-Signature: ts=<seconds>;h1=<hex>[;h1=…]`, each h1 a hex HMAC-SHA256 of
// `<ts>:<body>` keyed by the notification destination's secret key (pdl_ntfset_…).
import { SHARED_SECRET, anyMatches, headerOf, hmac, invalid, keyValues, missing, staleSeconds, verdict } from './parts.js';
import type { SignatureCheck, SignatureSchemeDefinition, SignedRequest, VerifyContext } from './signature-scheme.js';

function verifyPaddle(request: SignedRequest, context: VerifyContext): SignatureCheck {
  const value = headerOf(request.headers, 'paddle-signature');
  if (!value) return missing('no Paddle-Signature header');
  const parts = keyValues(value, ';');
  const ts = parts.find(([k]) => k === 'ts')?.[1];
  const h1 = parts.filter(([k]) => k === 'h1').map(([, v]) => v);
  if (!ts || h1.length === 0) return invalid('Paddle-Signature has no ts= or h1=');
  const stale = staleSeconds(ts, context.now, context.tolerance);
  if (stale) return invalid(stale);
  return verdict(anyMatches(h1, 'hex', hmac('sha256', context.secret, `${ts}:`, request.body)), 'an h1 signature');
}

export const paddle: SignatureSchemeDefinition = {
  sender: 'Paddle Billing',
  checks: '`Paddle-Signature: ts=…;h1=…`: hex HMAC-SHA256 of `ts:body`',
  // Paddle's SDK refuses events signed more than 5 s ago; that is too tight for a relay behind
  // queues and clocks that drift, so the window is Stripe's 5 minutes (tolerance_s narrows it).
  window: 300,
  secret: { ...SHARED_SECRET, is: 'the notification destination’s secret key (pdl_ntfset_…)' },
  verify: verifyPaddle,
  detect: ['paddle-signature'],
  eventType: { paths: ['event_type'] },
  docs: 'https://developer.paddle.com/webhooks/signature-verification',
};
