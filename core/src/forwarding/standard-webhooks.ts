// Outbound signing per Standard Webhooks (standardwebhooks.com): v1 = HMAC-SHA256 over
// "<id>.<timestamp>.<body>" with the base64 key after "whsec_".
import { createHmac } from 'node:crypto';

export function standardWebhookHeaders(secret: string, messageId: string, timestampSeconds: number, body: Uint8Array): Record<string, string> {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  const mac = createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.`).update(body).digest('base64');
  return { 'webhook-id': messageId, 'webhook-timestamp': String(timestampSeconds), 'webhook-signature': `v1,${mac}` };
}
