// Stripe and the senders that copied its header (Mux, Calendly): `t=<seconds>,v1=<hex>[,v1=…]`,
// each v1 a hex HMAC-SHA256 of `<t>.<body>` keyed by the secret as text.
import { SHARED_SECRET, anyMatches, headerOf, hmac, invalid, keyValues, missing, staleSeconds, verdict } from './parts.js';
import type { SignatureSchemeDefinition, SignedRequest, VerifyContext } from './signature-scheme.js';

function timestampedV1(headerName: string, display: string) {
  return (request: SignedRequest, context: VerifyContext) => {
    const value = headerOf(request.headers, headerName);
    if (!value) return missing(`no ${display} header`);
    const parts = keyValues(value, ',');
    const t = parts.find(([k]) => k === 't')?.[1];
    const v1 = parts.filter(([k]) => k === 'v1').map(([, v]) => v);
    if (!t || v1.length === 0) return invalid(`${display} has no t= or v1=`);
    const stale = staleSeconds(t, context.now, context.tolerance);
    if (stale) return invalid(stale);
    return verdict(anyMatches(v1, 'hex', hmac('sha256', context.secret, `${t}.`, request.body)), 'a v1 signature');
  };
}

const family = (sender: string, headerName: string, display: string, window: number, eventPath: string, docs: string): SignatureSchemeDefinition => ({
  sender,
  checks: `\`${display}: t=…,v1=…\`: hex HMAC-SHA256 of \`t.body\``,
  window,
  secret: SHARED_SECRET,
  verify: timestampedV1(headerName, display),
  detect: [headerName],
  eventType: { paths: [eventPath] },
  docs,
});

export const stripe = family('Stripe', 'stripe-signature', 'Stripe-Signature', 300, 'type', 'https://docs.stripe.com/webhooks#verify-manually');
export const mux = family('Mux', 'mux-signature', 'Mux-Signature', 300, 'type', 'https://docs.mux.com/core/verify-webhook-signatures');
// Calendly's own example refuses signatures older than three minutes.
export const calendly = family('Calendly', 'calendly-webhook-signature', 'Calendly-Webhook-Signature', 180, 'event', 'https://developer.calendly.com/api-docs/4c305798a61d3-webhook-signatures');
