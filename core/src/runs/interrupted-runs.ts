// Runs that never got an outcome. A run is reserved (RunReservations) before its runner is called,
// holding the record it ends with if nothing better is written: `interrupted`, ok false, ran true,
// outcome unknown. When a reservation lapses (its process died between the call and the outcome,
// or could not write the outcome), whichever process sweeps next appends that record, so the
// ledger never misses a run and the run can be repaired like any failure (and counts as waste).
import { pathText, type Capability, computeYield } from '../capabilities/index.js';
import type { Caller } from '../access/index.js';
import type { InvocationRecord } from './invocation.js';
import type { Clock } from '../clock.js';
import type { InvocationStore, RunReservations } from './ports.js';

export const INTERRUPTED_MESSAGE = 'the run began but its outcome was never recorded (the process stopped or could not write it); what the capability did is unknown';

/** What a run reserved before its runner is called would be, should its outcome never arrive. */
export function interruptedRecord(run: {
  id: string;
  capability: Pick<Capability, 'key' | 'path' | 'cost'>;
  caller: Pick<Caller, 'actor' | 'fingerprint'>;
  bodyText: string;
  args: unknown;
  links: { repairs: string | null; replays: string | null; source: string };
  createdAt: Date;
  requestId: string | null;
}): InvocationRecord {
  return {
    id: run.id,
    key: run.capability.key,
    path: pathText(run.capability),
    actor: run.caller.actor,
    fingerprint: run.caller.fingerprint,
    body: run.bodyText,
    args: run.args,
    status: 'interrupted',
    ok: false,
    ran: true,
    error: { code: 'interrupted', message: INTERRUPTED_MESSAGE },
    result: null,
    yield: computeYield({ bodyText: run.bodyText, resultText: '', ok: false, ran: true, cost: run.capability.cost, args: run.args }),
    repairs: run.links.repairs,
    replays: run.links.replays,
    source: run.links.source,
    created_at: run.createdAt.toISOString(),
    duration_ms: 0,
    request_id: run.requestId,
  };
}

/** Appends the interrupted record of every lapsed reservation (any process may; the ledger's unique id decides). */
export class InterruptedRuns {
  constructor(
    private readonly reservations: RunReservations,
    private readonly invocations: InvocationStore,
    private readonly clock: Clock,
  ) {}

  /** Ends lapsed reservations, up to `limit`; answers the ids appended as interrupted. */
  async sweep(limit = 100): Promise<string[]> {
    const ended: string[] = [];
    for (const held of await this.reservations.lapsed(limit)) {
      // The outcome made it (only the reservation's removal did not), or another process swept it first.
      if (!(await this.invocations.get(held.id))) {
        // How long the run stood open before it was found: its duration as far as anyone knows.
        const duration = Math.max(0, this.clock.now().getTime() - Date.parse(held.created_at));
        try {
          await this.invocations.append({ ...held, duration_ms: duration });
          ended.push(held.id);
        } catch (err) {
          // A concurrent sweep appended it first: fine. Anything else: the reservation stays for the next sweep.
          if (!(await this.invocations.get(held.id))) throw err;
        }
      }
      await this.reservations.drop(held.id);
    }
    return ended;
  }
}
