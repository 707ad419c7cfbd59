// Idempotent retries (IETF httpapi Idempotency-Key): a client that sends the same key again, with
// the same credential, within 24 h gets the first run's record and nothing runs again. The same key
// with another request is 422 idempotency_key_reused; while the first run is still going, 409
// idempotency_key_in_progress. A first attempt that never ran (the database refused its
// reservation, or it was refused before it became a run) does not hold the key: the retry runs.
// Keys past the window are deleted by the run sweeper, a bounded number per sweep (forgetExpired).
import { createHash } from 'node:crypto';
import type { Caller } from '../access/index.js';
import { canonicalJson } from '@switchyard/verifier';
import type { DispatchOutcome } from './dispatch.js';
import { fail } from '../errors.js';
import { newInvocationId } from '../ids.js';
import type { StoredInvocation } from './invocation.js';
import type { Clock } from '../clock.js';
import type { IdempotencyClaim, IdempotencyKeyStore, InvocationStore, RunReservations } from './ports.js';

/** How long a key is remembered. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** How many expired keys one sweep deletes at most, so a backlog is worked off in short statements. */
export const IDEMPOTENCY_SWEEP_LIMIT = 500;
/** Keys are opaque strings of printable ASCII (the draft's sf-string), at most this long. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** A key as sent, checked: 1–255 printable ASCII characters. */
export function checkIdempotencyKey(key: unknown): string {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH || !/^[\x20-\x7e]+$/.test(key)) {
    fail('invalid_request', `an idempotency key is 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters`, { idempotency_key: typeof key === 'string' ? key.slice(0, 64) : null });
  }
  return key as string;
}

/** Whose keys these are: the owner's, or one token family's (its fingerprint). */
export const idempotencyScope = (caller: Caller): string => (caller.fingerprint ? `token:${caller.fingerprint}` : caller.principal.kind);

/** The hash a key is bound to: the request as the client sent it, in canonical JSON. */
export const requestHash = (request: unknown): string => `sha256:${createHash('sha256').update(canonicalJson(request ?? null)).digest('hex')}`;

export type IdempotentAnswer = { ran: DispatchOutcome; replayed?: undefined } | { replayed: StoredInvocation; ran?: undefined };

export class IdempotentRuns {
  constructor(
    private readonly keys: IdempotencyKeyStore,
    private readonly invocations: InvocationStore,
    private readonly reservations: RunReservations,
    private readonly clock: Clock,
    /** How long a claim whose run is not reserved yet counts as in progress. */
    private readonly leaseMs = 30_000,
  ) {}

  /**
   * Runs `runIt` under the key, with the invocation id the claim names, unless the key already
   * names a run: then that run's record, or the 422/409 the rules say.
   */
  async run(caller: Caller, key: string, request: unknown, runIt: (invocationId: string) => Promise<DispatchOutcome>): Promise<IdempotentAnswer> {
    const scope = idempotencyScope(caller);
    const hash = requestHash(request);
    const fresh = (): IdempotencyClaim => {
      const now = this.clock.now().getTime();
      return { scope, key, request_hash: hash, invocation: newInvocationId(), lease_until: now + this.leaseMs, created_at: now };
    };
    const mine = fresh();
    const held = await this.keys.claim(mine);
    if (held === null) return { ran: await this.runClaimed(mine, runIt) };

    const now = this.clock.now().getTime();
    const forgotten = now - held.created_at >= IDEMPOTENCY_WINDOW_MS;
    if (!forgotten) {
      if (held.request_hash !== hash) {
        fail('idempotency_key_reused', `idempotency key ${JSON.stringify(key)} was first sent with another request; use a new key for a new request`, { idempotency_key: key });
      }
      const first = await this.invocations.get(held.invocation);
      if (first) return { replayed: first };
      if (held.lease_until > now || (await this.reservations.isReserved(held.invocation))) {
        fail('idempotency_key_in_progress', `the run first sent with idempotency key ${JSON.stringify(key)} has not ended yet; retry later`, { idempotency_key: key, invocation: held.invocation });
      }
    }
    // Forgotten, or the first attempt never ran: this request takes the key over, once.
    const takeover = fresh();
    // A forgotten key the sweeper deleted meanwhile is claimed afresh; one another request took over is its.
    if (!(await this.keys.takeOver(held, takeover)) && !(forgotten && (await this.keys.claim(takeover)) === null)) {
      fail('idempotency_key_in_progress', `another request with idempotency key ${JSON.stringify(key)} is running; retry later`, { idempotency_key: key });
    }
    return { ran: await this.runClaimed(takeover, runIt) };
  }

  /** Deletes keys past the window (up to `limit`, oldest first): the run sweeper's share. Answers how many went. */
  async forgetExpired(limit = IDEMPOTENCY_SWEEP_LIMIT): Promise<number> {
    return this.keys.forgetUsedBy(this.clock.now().getTime() - IDEMPOTENCY_WINDOW_MS, limit);
  }

  /** Runs under a claim; a request that fails before it is a run lets go of the key at once. */
  private async runClaimed(claim: IdempotencyClaim, runIt: (invocationId: string) => Promise<DispatchOutcome>): Promise<DispatchOutcome> {
    try {
      return await runIt(claim.invocation);
    } catch (err) {
      // Whatever it was (a refusal before the runner, or a database that refused the reservation),
      // nothing is in the ledger under this id unless a reservation holds it, which the next try checks.
      await this.keys.release(claim).catch(() => undefined);
      throw err;
    }
  }
}
