// JSON shapes for webhooks and deliveries. A body is shown as UTF-8 text when it is valid UTF-8,
// else as base64, with the encoding named, so a reader can always get the exact bytes back.
import { deliveryOutcomeWord, type ForwardingView, type StoredDelivery, type Webhook } from '@switchyard/core';

export const hookAddress = (baseUrl: string, id: string): string => `${baseUrl}/hook/${id}`;

export const deliveriesUrl = (baseUrl: string, id?: string): string =>
  `${baseUrl}/api/ledger?event=webhook%20delivery${id ? `&hook=${id}` : ''}`;

export const presentWebhook = (w: Webhook, baseUrl: string) => ({
  id: w.id,
  name: w.name,
  address: hookAddress(baseUrl, w.id),
  on: w.on,
  delivery_id_path: w.delivery_id_path,
  event_type_path: w.event_type_path,
  // The secret is write-only.
  signature: w.signature ? { scheme: w.signature.scheme, header: w.signature.header, require: w.signature.require, tolerance_s: w.signature.tolerance_s, secret_set: true } : null,
  retention_private_days: w.retention_private_days,
  created_at: w.created_at,
  updated_at: w.updated_at,
  deliveries: {
    http: { method: 'GET', url: deliveriesUrl(baseUrl, w.id), headers: { 'x-sheets-key': '<API_KEY>' } },
    cli: `switchyard hook deliveries ${w.id}`,
  },
});

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function presentBody(body: Uint8Array | null): { body: string | null; body_encoding: 'utf8' | 'base64' | null } {
  if (body === null) return { body: null, body_encoding: null };
  try {
    return { body: utf8.decode(body), body_encoding: 'utf8' };
  } catch {
    return { body: Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('base64'), body_encoding: 'base64' };
  }
}

/** Where the raw body of a delivery streams from, byte for byte with its original content type. */
export const deliveryBodyUrl = (baseUrl: string, entry: string): string => `${baseUrl}/api/ledger/${entry}/body`;

/**
 * A delivery as the ledger reads answer it. A body a listing left out (over the inline threshold)
 * is `null` with `body_omitted: true`; its size, SHA-256 and `body_url` are given either way.
 */
export const presentDelivery = (d: StoredDelivery, baseUrl: string, forwarding: ForwardingView[] = []) => ({
  id: d.id,
  event: 'webhook delivery',
  hook_id: d.hook_id,
  seq: d.seq,
  received_at: d.received_at,
  method: d.method,
  path: d.path,
  query: d.query,
  client_address: d.client_address,
  headers: d.headers,
  ...presentBody(d.body),
  body_size: d.body_size,
  body_omitted: d.body_omitted,
  body_sha256: d.body_sha256,
  body_url: d.body_sha256 === null ? null : deliveryBodyUrl(baseUrl, d.id),
  delivery_id: d.delivery_id,
  delivery_id_rule: d.delivery_id_rule,
  event_type: d.event_type,
  event_type_rule: d.event_type_rule,
  signature: d.signature,
  duplicate: d.duplicate,
  duplicate_of: d.duplicate_of,
  outcome: deliveryOutcomeWord(d),
  refusal: d.refusal,
  action: d.action,
  action_run: d.action_run,
  /** Where it went on to: one entry per destination it was scheduled for. */
  forwarding,
  request_id: d.request_id,
});
