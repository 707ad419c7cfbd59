// HubSpot (v3 request signatures): `X-HubSpot-Signature-v3`, a base64 HMAC-SHA256 keyed by the
// app's client secret over `<method><URL><body><timestamp>`, the timestamp (milliseconds) in
// `X-HubSpot-Request-Timestamp`.
import { anyMatches, bodyText, headerOf, hmac, invalid, missing, staleBy, verdict } from './parts.js';
import type { SignatureCheck, SignatureSchemeDefinition, SignedRequest, VerifyContext } from './signature-scheme.js';

/** HubSpot's docs decode these escapes in the URI before signing; its Node client signs the URI as given. Both are tried. */
const DECODED = /%(3A|2F|3F|40|21|24|27|28|29|2A|2C|3B)/gi;

function verifyHubspot(request: SignedRequest, context: VerifyContext): SignatureCheck {
  const value = headerOf(request.headers, 'x-hubspot-signature-v3');
  const timestamp = headerOf(request.headers, 'x-hubspot-request-timestamp');
  if (!value || !timestamp) return missing('X-HubSpot-Signature-v3 and X-HubSpot-Request-Timestamp are required');
  if (!/^[0-9]{1,15}$/.test(timestamp)) return invalid('X-HubSpot-Request-Timestamp is not a number of milliseconds');
  const stale = staleBy(Number(timestamp), context.now, context.tolerance);
  if (stale) return invalid(stale);
  if (!request.url) return invalid('the address the delivery was sent to is not known, and HubSpot signs it');
  const body = bodyText(request.body);
  const urls = [...new Set([request.url, request.url.replace(DECODED, (m) => decodeURIComponent(m))])];
  const ok = urls.some((url) => anyMatches([value], 'base64', hmac('sha256', context.secret, `${request.method}${url}${body}${timestamp}`)));
  return verdict(ok, 'X-HubSpot-Signature-v3');
}

export const hubspot: SignatureSchemeDefinition = {
  sender: 'HubSpot (v3 signatures)',
  checks: '`X-HubSpot-Signature-v3` with `X-HubSpot-Request-Timestamp` (ms): base64 HMAC-SHA256 of `method` + `URL` + `body` + `timestamp`',
  window: 300,
  secret: { is: 'the app’s client secret', problem: () => null },
  verify: verifyHubspot,
  detect: ['x-hubspot-signature-v3'],
  // A POST is a batch of events: the first one's names the delivery.
  eventType: { paths: ['0.subscriptionType'] },
  docs: 'https://developers.hubspot.com/docs/guides/apps/authentication/validating-requests',
};
