// What webhook intake needs from the outside world: the webhooks (WebhookStore) and the deliveries,
// written with their forwarding jobs in one commit (DeliveryStore). Each port is an interface and a
// same-named token the composition root binds an adapter to.
import type { Webhook, ActionRecord, DeliveryRecord, StoredDelivery } from './webhook.js';
import type { LedgerPageRequest } from '../ledger-paging.js';
import type { Page } from '../page.js';
import type { EventTypeCounts } from './event-type.js';
import type { NewForwardJob } from './forward-job.js';

// The webhooks' port: create, read, list and change webhooks.
export interface WebhookStore {
  create(webhook: Webhook): Promise<Webhook>;
  get(id: string): Promise<Webhook | undefined>;
  list(): Promise<Webhook[]>;
  update(id: string, changes: Partial<Pick<Webhook, 'name' | 'on' | 'delivery_id_path' | 'event_type_path' | 'signature' | 'retention_private_days'>>, at: string): Promise<Webhook | undefined>;
}
export const WebhookStore = Symbol.for('switchyard.WebhookStore');

// The deliveries' port: append (duplicates decided by the database), read, list, read bodies.
export interface DeliveryStore {
  /**
   * Appends a delivery. Whether it duplicates an earlier one (same webhook, same delivery id) is
   * decided by the database atomically, never by check-then-insert. The record's body stays the
   * caller's: it may be freed once the append has resolved, so a store keeps its own copy.
   * `schedule` (its forwarding jobs) is written in the same commit if the record is stored as a
   * first, accepted delivery, and not at all otherwise (a duplicate's jobs are dropped).
   */
  append(record: DeliveryRecord, schedule?: readonly NewForwardJob[]): Promise<StoredDelivery>;
  appendAction(record: ActionRecord): Promise<void>;
  /** One delivery; a body over `inlineBodyBytes` (default: any size) is left out (`body_omitted`). */
  get(id: string, options?: { inlineBodyBytes?: number }): Promise<StoredDelivery | undefined>;
  /** Several deliveries whole, in one read (those that exist, in any order). */
  getMany(ids: string[]): Promise<StoredDelivery[]>;
  /**
   * Deliveries in the ledger listings' order, of one webhook and of one event type when given.
   * Bodies over `inlineBodyBytes` are left out and never read: the row gives their size and hash.
   */
  list(options: LedgerPageRequest & { hookId?: string; eventType?: string; inlineBodyBytes: number }): Promise<Page<StoredDelivery>>;
  /** How many deliveries (of one webhook, or all) name each event type: the `limit` most frequent, ties by name. */
  countEventTypes(options: { hookId?: string; limit: number }): Promise<EventTypeCounts>;
  /** Up to `length` bytes of a stored body from `offset`; empty past its end, undefined without a body. */
  readBody(id: string, offset: number, length: number): Promise<Uint8Array | undefined>;
}
export const DeliveryStore = Symbol.for('switchyard.DeliveryStore');
