// GitHub and the senders that copied its X-Hub-Signature header (Bitbucket, Intercom):
// `<algorithm>=<hex HMAC of the raw body>` keyed by the secret as text. No time is signed.
import { SHARED_SECRET, anyMatches, headerOf, hmac, invalid, missing, verdict } from './parts.js';
import type { SignatureSchemeDefinition, SignedRequest, VerifyContext } from './signature-scheme.js';

function hubSignature(headerName: string, display: string, algorithm: 'sha1' | 'sha256') {
  return (request: SignedRequest, context: VerifyContext) => {
    const value = headerOf(request.headers, headerName);
    if (!value) return missing(`no ${display} header`);
    const prefix = `${algorithm}=`;
    if (!value.startsWith(prefix)) return invalid(`${display} does not start with ${prefix}`);
    return verdict(anyMatches([value.slice(prefix.length)], 'hex', hmac(algorithm, context.secret, request.body)), display);
  };
}

export const github: SignatureSchemeDefinition = {
  sender: 'GitHub',
  checks: '`X-Hub-Signature-256: sha256=<hex>`: HMAC-SHA256 of the body',
  window: null,
  secret: SHARED_SECRET,
  verify: hubSignature('x-hub-signature-256', 'X-Hub-Signature-256', 'sha256'),
  detect: ['x-github-event'],
  eventType: { headers: ['x-github-event'] },
  docs: 'https://docs.github.com/en/webhooks/using-webhooks/validating-webhook-deliveries',
};

export const bitbucket: SignatureSchemeDefinition = {
  sender: 'Bitbucket Cloud',
  checks: '`X-Hub-Signature: sha256=<hex>`: HMAC-SHA256 of the body',
  window: null,
  secret: SHARED_SECRET,
  verify: hubSignature('x-hub-signature', 'X-Hub-Signature', 'sha256'),
  detect: ['x-event-key'],
  eventType: { headers: ['x-event-key'] },
  docs: 'https://support.atlassian.com/bitbucket-cloud/docs/manage-webhooks/#Secure-webhooks',
};

export const intercom: SignatureSchemeDefinition = {
  sender: 'Intercom',
  checks: '`X-Hub-Signature: sha1=<hex>`: HMAC-SHA1 of the body with the app’s client secret',
  window: null,
  secret: { is: 'the app’s client secret', problem: () => null },
  verify: hubSignature('x-hub-signature', 'X-Hub-Signature', 'sha1'),
  detect: [],
  eventType: { paths: ['topic'] },
  docs: 'https://developers.intercom.com/docs/references/webhooks/webhook-models#signed-notifications',
};
