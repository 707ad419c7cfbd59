// Standard Webhooks and the senders that sign the same way through Svix (Svix itself, Clerk,
// Resend): HMAC-SHA256 of `<id>.<timestamp>.<body>` keyed by the base64 secret after `whsec_`,
// in `webhook-*` headers or Svix's `svix-*` ones; several space-separated `v1,` signatures during a rotation.
import { anyMatches, decode, headerOf, hmac, invalid, missing, staleSeconds, verdict } from './parts.js';
import type { SignatureCheck, SignatureSchemeDefinition, SignedRequest, VerifyContext } from './signature-scheme.js';

/** The key bytes of a `whsec_…` secret (the prefix is optional), or null when it is not base64. */
export function standardWebhooksKey(secret: string): Buffer | null {
  const key = decode(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  return key !== null && key.length > 0 ? key : null;
}

function verifyStandardWebhooks(request: SignedRequest, context: VerifyContext): SignatureCheck {
  const prefix = headerOf(request.headers, 'webhook-signature') !== null ? 'webhook' : 'svix';
  const id = headerOf(request.headers, `${prefix}-id`);
  const timestamp = headerOf(request.headers, `${prefix}-timestamp`);
  const signatures = headerOf(request.headers, `${prefix}-signature`);
  if (!id || !timestamp || !signatures) return missing('webhook-id, webhook-timestamp and webhook-signature (or svix-*) are required');
  const stale = staleSeconds(timestamp, context.now, context.tolerance);
  if (stale) return invalid(stale);
  const key = standardWebhooksKey(context.secret);
  if (!key) return invalid('the secret is not a base64 key (whsec_…)');
  const expected = hmac('sha256', key, `${id}.${timestamp}.`, request.body);
  const v1 = signatures.split(' ').filter((entry) => entry.startsWith('v1,')).map((entry) => entry.slice(3));
  return verdict(anyMatches(v1, 'base64', expected), 'a v1 signature');
}

const WHSEC = {
  is: 'the endpoint’s signing secret, whsec_ and base64',
  problem: (secret: string) => (standardWebhooksKey(secret) ? null : 'must be the base64 signing secret, with or without its whsec_ prefix'),
};

const svixFamily = (sender: string, docs: string, detect: string): SignatureSchemeDefinition => ({
  sender,
  checks: '`svix-id`, `svix-timestamp`, `svix-signature` (or `webhook-*`): `v1,` base64 HMAC-SHA256 of `id.timestamp.body`, key = the base64 after `whsec_`',
  window: 300,
  secret: WHSEC,
  verify: verifyStandardWebhooks,
  detect: [detect],
  eventType: { paths: ['type'] },
  docs,
});

export const standardWebhooks: SignatureSchemeDefinition = {
  ...svixFamily('Standard Webhooks', 'https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md', 'webhook-signature'),
  checks: '`webhook-id`, `webhook-timestamp`, `webhook-signature` (or `svix-*`): `v1,` base64 HMAC-SHA256 of `id.timestamp.body`, key = the base64 after `whsec_`',
};
export const svix = svixFamily('Svix', 'https://docs.svix.com/receiving/verifying-payloads/how-manual', 'svix-signature');
export const clerk = svixFamily('Clerk (through Svix)', 'https://clerk.com/docs/webhooks/sync-data', 'svix-signature');
export const resend = svixFamily('Resend (through Svix)', 'https://resend.com/docs/dashboard/webhooks/verify-webhooks-requests', 'svix-signature');
