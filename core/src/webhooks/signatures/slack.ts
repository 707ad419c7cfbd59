// Slack and Zoom: `v0=<hex HMAC-SHA256 of "v0:<timestamp>:<body>">`, the timestamp (seconds) in a
// header of its own, keyed by the app's signing secret (Zoom: the webhook's secret token).
import { anyMatches, headerOf, hmac, invalid, missing, staleSeconds, verdict } from './parts.js';
import type { SignatureSchemeDefinition, SignedRequest, VerifyContext } from './signature-scheme.js';

function versionZero(signatureHeader: string, timestampHeader: string, display: string) {
  return (request: SignedRequest, context: VerifyContext) => {
    const value = headerOf(request.headers, signatureHeader);
    const timestamp = headerOf(request.headers, timestampHeader);
    if (!value || !timestamp) return missing(`${display} and its timestamp header are required`);
    const stale = staleSeconds(timestamp, context.now, context.tolerance);
    if (stale) return invalid(stale);
    if (!value.startsWith('v0=')) return invalid(`${display} does not start with v0=`);
    return verdict(anyMatches([value.slice(3)], 'hex', hmac('sha256', context.secret, `v0:${timestamp}:`, request.body)), display);
  };
}

export const slack: SignatureSchemeDefinition = {
  sender: 'Slack',
  checks: '`X-Slack-Signature: v0=<hex>` with `X-Slack-Request-Timestamp`: HMAC-SHA256 of `v0:timestamp:body`',
  window: 300,
  secret: { is: 'the app’s signing secret', problem: () => null },
  verify: versionZero('x-slack-signature', 'x-slack-request-timestamp', 'X-Slack-Signature'),
  detect: ['x-slack-signature'],
  // Events API: the inner event's type (the envelope's for url_verification); interactivity: the
  // payload's type; slash commands: the command.
  eventType: { paths: ['event.type', 'type', 'command'] },
  docs: 'https://api.slack.com/authentication/verifying-requests-from-slack',
};

export const zoom: SignatureSchemeDefinition = {
  sender: 'Zoom',
  checks: '`x-zm-signature: v0=<hex>` with `x-zm-request-timestamp`: HMAC-SHA256 of `v0:timestamp:body`',
  window: 300,
  secret: { is: 'the webhook’s secret token', problem: () => null },
  verify: versionZero('x-zm-signature', 'x-zm-request-timestamp', 'x-zm-signature'),
  detect: ['x-zm-signature'],
  eventType: { paths: ['event'] },
  docs: 'https://developers.zoom.us/docs/api/webhooks/#verify-webhook-events',
};
