// The jobs an accepted delivery schedules for forwarding, written in the delivery's own commit
// (DeliveryStore.append, planned by a DeliveryScheduler): intake writes them, forwarding works them.
export type ForwardState = 'pending' | 'retrying' | 'delivered' | 'dead' | 'skipped';

/** One delivery on its way to one destination: the schedule row every process shares. */
export interface ForwardJob {
  id: string;
  delivery: string;
  hook_id: string;
  destination: string;
  state: ForwardState;
  /** Attempts made since the last (re)start of the series. */
  attempts: number;
  last_status: number | null;
  /** When the next attempt is due (epoch ms); null once delivered, dead or skipped. */
  due_at: number | null;
  /** Every attempt's invocation id, oldest first. */
  invocations: string[];
  /** Copied from the destination when the job was made: later jobs wait for earlier ones. */
  ordered: boolean;
  created_at: string;
  /** The W3C traceparent of the request that made the job (traces on): its attempts join that trace in any process. */
  traceparent?: string | null;
}

/**
 * A new job, written in its delivery's own commit (DeliveryStore.append); one leased to the
 * process that plans it is attempted by that process as soon as the commit lands.
 */
export type NewForwardJob = ForwardJob & { lease?: { owner: string; until: number } };
