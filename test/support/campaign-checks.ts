// The fault campaign's cross-checks (test/integration/fault-campaign-multiprocess.test.ts): what the
// sender was answered, what the receiver and the upstream saw, against what the ledger holds. Each
// kind of mismatch is a list of what did not match, so a failure names the entries.

/** One delivery as the sender made it: the delivery id it chose, and what it was answered (null: no answer, e.g. the process was killed). */
export interface SentDelivery {
  deliveryId: string;
  status: number | null;
  /** The ledger entry a 2xx named. */
  entry: string | null;
}

/** One run as its caller made it: the label the upstream records, and the answer. */
export interface SentRun {
  label: string;
  status: number | null;
  invocation: string | null;
}

/** One request the forwarding destination received: its webhook-id (the delivery's entry) and webhook-timestamp (the attempt's second). */
export interface ReceiverHit {
  delivery: string;
  timestamp: number;
}

export interface LedgerDelivery {
  id: string;
  delivery_id: string | null;
  outcome: string;
  /** Its forwarding to each destination (the campaign's webhook has one). */
  forwarding: Array<{ state: string; invocations: string[] }>;
}

export interface LedgerInvocation {
  id: string;
  key: string;
  status: string;
  args: Record<string, unknown> | null;
  created_at: string;
}

export interface CampaignRecords {
  deliveries: SentDelivery[];
  runs: SentRun[];
  /** Every call the upstream received, by label, in the order it logged them. */
  upstreamCalls: string[];
  hits: ReceiverHit[];
  ledgerDeliveries: LedgerDelivery[];
  /** The runs of the upstream's capability. */
  runRecords: LedgerInvocation[];
  /** The forwarding attempts (WEBHOOK_FORWARD). */
  attemptRecords: LedgerInvocation[];
}

export const MISMATCH_KINDS = [
  'acknowledged delivery lost',
  'acknowledged run lost',
  'upstream call without a record',
  'receiver hit without a recorded attempt',
  '503 delivery stored',
  'accepted delivery never scheduled for forwarding',
  'answer neither 2xx nor 503',
  'inconsistent checkpoints',
] as const;
export type MismatchKind = (typeof MISMATCH_KINDS)[number];
export type Mismatches = Record<MismatchKind, string[]>;

const is2xx = (status: number | null): boolean => status !== null && status >= 200 && status < 300;

/** Counts of each key. */
function tally(keys: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  return counts;
}

/** The keys of `seen` found more often than in `recorded`, once per time over. */
function unmatched(seen: Iterable<string>, recorded: Iterable<string>): string[] {
  const have = tally(recorded);
  const out: string[] = [];
  for (const [key, n] of tally(seen)) for (let i = have.get(key) ?? 0; i < n; i++) out.push(key);
  return out;
}

const labelOf = (run: LedgerInvocation): string => String(run.args?.['label'] ?? '');

/** What the sender was answered for a delivery id, in words. */
const answerText = (answers: Map<string, number | null>, id: string | null): string => {
  if (id === null || !answers.has(id)) return 'not sent by the campaign';
  const status = answers.get(id)!;
  return status === null ? 'no answer' : `answered ${status}`;
};

/** Mismatches that a later sweep or attempt may still mend (a lapsed reservation recorded as interrupted): worth waiting for while the fleet settles. */
export const MENDABLE: readonly MismatchKind[] = ['upstream call without a record', 'receiver hit without a recorded attempt'];

/** An attempt's second, as its webhook-timestamp header gives it: the attempt's record is created when it is signed. */
export const attemptSecond = (createdAt: string): number => Math.floor(Date.parse(createdAt) / 1000);

/** Every mismatch but the checkpoints' (see CheckpointLog.inconsistentPairs), by kind. */
export function campaignMismatches(r: CampaignRecords, inconsistentCheckpoints: string[]): Mismatches {
  const stored = new Map(r.ledgerDeliveries.map((d) => [d.id, d]));
  const storedIds = new Set(r.ledgerDeliveries.map((d) => d.delivery_id).filter((id): id is string => id !== null));
  const runIds = new Set(r.runRecords.map((i) => i.id));
  const runLabels = new Set(r.runRecords.map(labelOf));
  const answers = new Map(r.deliveries.map((d) => [d.deliveryId, d.status]));
  return {
    // A 2xx said the delivery was stored: it is in the ledger under the id the sender chose (and the entry the answer named, when its body was read).
    'acknowledged delivery lost': r.deliveries
      .filter((d) => is2xx(d.status) && (d.entry === null ? !storedIds.has(d.deliveryId) : stored.get(d.entry)?.delivery_id !== d.deliveryId))
      .map((d) => `${d.deliveryId} (${d.entry})`),
    'acknowledged run lost': r.runs.filter((run) => is2xx(run.status) && (run.invocation === null ? !runLabels.has(run.label) : !runIds.has(run.invocation))).map((run) => `${run.label} (${run.invocation})`),
    // Each call the upstream logged is a run in the ledger (its outcome, or `interrupted`), as many times as it was called.
    'upstream call without a record': unmatched(
      r.upstreamCalls,
      r.runRecords.map(labelOf),
    ),
    // Each request the destination got is an attempt of that delivery recorded in the same second (its outcome, or `interrupted`).
    'receiver hit without a recorded attempt': unmatched(
      r.hits.map((h) => `${h.delivery}@${h.timestamp}`),
      r.attemptRecords.map((a) => `${String(a.args?.['delivery'] ?? '')}@${attemptSecond(a.created_at)}`),
    ),
    // A 503 says nothing was stored: the sender will send it again, so the id it chose must not be taken.
    '503 delivery stored': r.deliveries.filter((d) => d.status === 503 && storedIds.has(d.deliveryId)).map((d) => d.deliveryId),
    // Every accepted delivery is scheduled for the webhook's destination; its sender's retry would be a duplicate, never forwarded.
    'accepted delivery never scheduled for forwarding': r.ledgerDeliveries
      .filter((d) => d.outcome === 'accepted' && d.forwarding.length === 0)
      .map((d) => `${d.delivery_id} (${d.id}, ${answerText(answers, d.delivery_id)})`),
    // An outage is answered 503 storage_unavailable, never 500; a killed process does not answer at all.
    'answer neither 2xx nor 503': [...r.deliveries.map((d) => ({ what: `delivery ${d.deliveryId}`, status: d.status })), ...r.runs.map((run) => ({ what: `run ${run.label}`, status: run.status }))]
      .filter((a) => a.status !== null && !is2xx(a.status) && a.status !== 503)
      .map((a) => `${a.what}: ${a.status}`),
    'inconsistent checkpoints': inconsistentCheckpoints,
  };
}
