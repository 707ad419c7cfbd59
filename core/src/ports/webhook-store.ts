// The webhooks' port: create, read, list and change webhooks.
import type { Webhook } from '../webhook.js';

export interface WebhookStore {
  create(webhook: Webhook): Promise<Webhook>;
  get(id: string): Promise<Webhook | undefined>;
  list(): Promise<Webhook[]>;
  update(id: string, changes: Partial<Pick<Webhook, 'name' | 'on' | 'delivery_id_path' | 'event_type_path' | 'signature' | 'retention_private_days'>>, at: string): Promise<Webhook | undefined>;
}
export const WebhookStore = Symbol.for('switchyard.WebhookStore');
