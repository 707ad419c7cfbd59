// Outbound signing per Standard Webhooks (standardwebhooks.com): v1 = HMAC-SHA256 over
// "<id>.<timestamp>.<body>" with the base64 key after "whsec_".
import { createHmac } from 'node:crypto';

/** Several secrets (during a rotation's grace) give several signatures, space-separated, the first secret's first. */
export function standardWebhookHeaders(secrets: string | string[], messageId: string, timestampSeconds: number, body: Uint8Array): Record<string, string> {
  const signatures = (Array.isArray(secrets) ? secrets : [secrets]).map((secret) => {
    const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
    return `v1,${createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.`).update(body).digest('base64')}`;
  });
  return { 'webhook-id': messageId, 'webhook-timestamp': String(timestampSeconds), 'webhook-signature': signatures.join(' ') };
}
