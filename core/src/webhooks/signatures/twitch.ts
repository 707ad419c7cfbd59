// Twitch EventSub: `Twitch-Eventsub-Message-Signature: sha256=<hex HMAC-SHA256 of
// "<message id><timestamp><body>">` keyed by the subscription's secret; the timestamp is RFC 3339.
import { anyMatches, headerOf, hmac, invalid, missing, staleIso, verdict } from './parts.js';
import type { SignatureCheck, SignatureSchemeDefinition, SignedRequest, VerifyContext } from './signature-scheme.js';

function verifyTwitch(request: SignedRequest, context: VerifyContext): SignatureCheck {
  const id = headerOf(request.headers, 'twitch-eventsub-message-id');
  const timestamp = headerOf(request.headers, 'twitch-eventsub-message-timestamp');
  const value = headerOf(request.headers, 'twitch-eventsub-message-signature');
  if (!id || !timestamp || !value) return missing('Twitch-Eventsub-Message-Id, -Timestamp and -Signature are required');
  const stale = staleIso(timestamp, context.now, context.tolerance);
  if (stale) return invalid(stale);
  if (!value.startsWith('sha256=')) return invalid('Twitch-Eventsub-Message-Signature does not start with sha256=');
  return verdict(anyMatches([value.slice(7)], 'hex', hmac('sha256', context.secret, id, timestamp, request.body)), 'Twitch-Eventsub-Message-Signature');
}

export const twitch: SignatureSchemeDefinition = {
  sender: 'Twitch (EventSub)',
  checks: '`Twitch-Eventsub-Message-Signature: sha256=<hex>`: HMAC-SHA256 of `message id` + `timestamp` + `body`',
  // Twitch tells receivers to drop messages more than 10 minutes old.
  window: 600,
  secret: { is: 'the subscription’s secret (10 to 100 characters)', problem: (s) => (s.length >= 10 && s.length <= 100 ? null : 'must be the subscription’s secret: 10 to 100 characters') },
  verify: verifyTwitch,
  detect: ['twitch-eventsub-message-signature'],
  eventType: { headers: ['twitch-eventsub-subscription-type'] },
  docs: 'https://dev.twitch.tv/docs/eventsub/handling-webhook-events/#verifying-the-event-message',
};
