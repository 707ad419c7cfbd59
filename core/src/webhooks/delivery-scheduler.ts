// What follows an accepted, first delivery (forwarding), planned before the delivery is stored so
// that its jobs are written in the delivery's own commit. Two writes would leave a window: a process
// killed between them, or a database that stops between them, leaves an accepted delivery nobody
// will ever forward (its sender's retry is a duplicate, and duplicates are not forwarded), and a
// sender answered 503 for a delivery that was stored.
import type { NewForwardJob } from './forward-job.js';
import type { DeliveryRecord, StoredDelivery } from './webhook.js';

export interface DeliveryPlan {
  /** Written with the delivery if it is stored as a first, accepted delivery; never otherwise. */
  readonly jobs: readonly NewForwardJob[];
  /** The commit's outcome: the delivery as stored, or null when its write failed. */
  settled(stored: StoredDelivery | null): void;
}

export interface DeliveryScheduler {
  /** The plan for `record`, about to be stored (any outcome: a refusal's plan is empty). */
  plan(record: DeliveryRecord): Promise<DeliveryPlan>;
}

/** No jobs, nothing to start. */
export const NOTHING_PLANNED: DeliveryPlan = { jobs: [], settled: () => undefined };
