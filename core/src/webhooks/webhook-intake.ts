// The webhook intake: the rules of a delivery to /hook/<id>[/<action>], from its head to its records.
// An adapter hands over what arrived (head first, then the body it was told to read); the intake
// decides, stores and runs. Steps after acceptance (forwarding) plug in as AcceptedDeliveryStep.
import { callerOf, type Caller } from '../access/index.js';
import { type RawHeaders, lazyBody, resolveDeliveryId } from './delivery-id.js';
import { resolveEventType } from './event-type.js';
import type { DispatchOutcome, DispatchService, IdempotentRuns } from '../runs/index.js';
import { SwitchyardError, type ErrorCode } from '../errors.js';
import { noRequestScope, type RequestScope } from '../request-scope.js';
import type { Clock } from '../clock.js';
import type { DeliveryStore, WebhookStore } from './ports.js';
import type { CapabilityRegistry } from '../capabilities/index.js';
import { ByteBudget } from '../byte-budget.js';
import type { DeliveryScheduler } from './delivery-scheduler.js';
import { verifySignature } from './signatures/verify-signature.js';
import type { SignedRequest } from './signatures/signature-scheme.js';
import { WEBHOOK_ID_PATTERN, newDeliveryEntryId, type ActionRecord, type DeliveryRecord, type DeliveryRefusal, type StoredDelivery, type Webhook } from './webhook.js';

/** What is known of a delivery before its body is read. */
export interface DeliveryHead {
  hookId: string;
  /** The capability key named by an action address, if any. */
  action: string | null;
  method: string;
  path: string;
  query: string;
  headers: RawHeaders;
  contentType: string | null;
  clientAddress: string | null;
  /** The announced content-length; null for a chunked body. */
  declaredSize: number | null;
  /** The address as the sender wrote it (the service's public base URL, path and query), for schemes that sign it (Twilio, Square, HubSpot). */
  url?: string | null;
}

/** What the adapter is to do with the body: read it up to `limit`; for an Off webhook, read at most `keep` bytes; too large, read nothing. */
export type Admission =
  | { kind: 'read'; hook: Webhook; limit: number }
  | { kind: 'off'; hook: Webhook; keep: number }
  | { kind: 'too_large'; hook: Webhook; size: number };

export type IntakeResult =
  /** Stored as a refusal; `run` is the refused invocation when the action itself refused. */
  | { kind: 'refused'; delivery: StoredDelivery; error: SwitchyardError; run: DispatchOutcome | null }
  /** Stored; no action named. */
  | { kind: 'accepted'; delivery: StoredDelivery }
  /** Stored as a duplicate of an earlier delivery whose action already ran (or was not named). */
  | { kind: 'duplicate'; delivery: StoredDelivery; firstRun: ActionRecord | null }
  /** Stored, and its action ran (successfully or not). */
  | { kind: 'ran'; delivery: StoredDelivery; run: DispatchOutcome };

export interface WebhookIntakeOptions {
  /** Largest body stored (413 and a refusal entry above it). */
  bodyLimitBytes: number;
  /** How much of a body sent to an Off webhook its refusal keeps. */
  refusedBodyBytes: number;
  /** The answer status an action's outcome gives (the adapter's table of codes). */
  answerStatus(code: ErrorCode | null): number;
}

/** Bytes of bodies being stored at once (see WebhookIntake.store). */
export const STORING_BUDGET_BYTES = 16 * 1024 * 1024;

/** An action address runs as its webhook: the access policy says who that is. */
const hookCaller = (hookId: string): Caller => callerOf({ kind: 'hook', hookId });

export class WebhookIntake {
  constructor(
    private readonly webhooks: WebhookStore,
    private readonly deliveries: DeliveryStore,
    private readonly registry: CapabilityRegistry,
    private readonly dispatch: DispatchService,
    private readonly clock: Clock,
    private readonly options: WebhookIntakeOptions,
    /** Names the request each delivery came from. */
    private readonly scope: RequestScope = noRequestScope,
    /** What follows an accepted, first delivery (forwarding): its jobs are written in the delivery's commit. */
    private readonly scheduler: DeliveryScheduler | null = null,
    /**
     * Each delivery's action runs under an idempotency key of its own (the delivery's entry), so
     * the run the first request could not reserve is run by a retry, once, and never twice.
     */
    private readonly actionRuns: IdempotentRuns | null = null,
  ) {}

  private readonly storing = new ByteBudget(STORING_BUDGET_BYTES);

  get bodyLimitBytes(): number {
    return this.options.bodyLimitBytes;
  }

  /** The webhook, or webhook_not_found: looked up before anything of the body is read. */
  async find(hookId: string): Promise<Webhook> {
    const hook = WEBHOOK_ID_PATTERN.test(hookId) ? await this.webhooks.get(hookId) : undefined;
    if (!hook) throw new SwitchyardError('webhook_not_found', `no webhook ${hookId}`);
    return hook;
  }

  /** Decides from the head alone: unknown (thrown), Off or announced too large (refuse), or read. */
  async admit(head: DeliveryHead): Promise<Admission> {
    const hook = await this.find(head.hookId);
    if (!hook.on) return { kind: 'off', hook, keep: this.options.refusedBodyBytes };
    if (head.declaredSize !== null && head.declaredSize > this.options.bodyLimitBytes) return { kind: 'too_large', hook, size: head.declaredSize };
    return { kind: 'read', hook, limit: this.options.bodyLimitBytes };
  }

  /**
   * Stores the refusal of a delivery to an Off webhook with what was read of its body: its first
   * bytes (`complete` when that is all of it; otherwise flagged body_truncated with the declared size).
   */
  async refuseOff(head: DeliveryHead, hook: Webhook, kept: Uint8Array, complete: boolean): Promise<IntakeResult> {
    const error = new SwitchyardError('webhook_off', `webhook ${hook.id} is off; the delivery was stored as a refusal`);
    const refusal: DeliveryRefusal = { code: error.code, message: error.message };
    if (!complete) Object.assign(refusal, { body_truncated: true, declared_size: head.declaredSize });
    return this.refuse(this.record(head, hook, kept, complete ? kept.length : (head.declaredSize ?? kept.length), complete), refusal, error);
  }

  /** Stores the refusal of a body over the limit (announced, or found while reading), without its body. */
  async refuseTooLarge(head: DeliveryHead, hook: Webhook, size: number): Promise<IntakeResult> {
    const limit = this.options.bodyLimitBytes;
    const error = new SwitchyardError('payload_too_large', `deliveries are limited to ${limit} bytes; this one was stored as a refusal without its body`, { limit });
    return this.refuse(this.record(head, hook, null, size, false), { code: error.code, message: error.message }, error);
  }

  /**
   * A delivery read whole: signature, action, storage, duplicate, the action's run and its record.
   * Nothing here keeps the body once the result is in: the adapter may free it then.
   */
  async deliver(head: DeliveryHead, hook: Webhook, body: Uint8Array): Promise<IntakeResult> {
    const rec = this.record(head, hook, body, body.length, true);

    if (hook.signature?.require && rec.signature !== 'verified') {
      const check = verifySignature(hook.signature, signedRequest(head, body), this.clock.now());
      return this.refuseWith(rec, new SwitchyardError('signature_invalid', `signature ${check.verdict}: ${check.reason}; the delivery was stored as a refusal`, { scheme: hook.signature.scheme }));
    }
    const action = head.action;
    if (action === null) return this.accepted({ kind: 'accepted', delivery: await this.store(rec) });
    if (!this.registry.has(action)) return this.refuseWith(rec, new SwitchyardError('unknown_capability', `no capability ${action}; the delivery was stored as a refusal`));

    const text = Buffer.from(body).toString('utf8');
    const caller = hookCaller(hook.id);
    const refusal = this.dispatch.refusalFor(action, text, caller);
    if (refusal) {
      // The delivery is refused with its action's reason; the refused run is still ledgered.
      const stored = await this.store({ ...rec, outcome: 'refused', refusal: { code: refusal.code, message: `action ${action} refused: ${refusal.message}` } });
      const run = await this.runAction(stored, action, text, caller);
      return { kind: 'refused', delivery: stored, error: refusal, run };
    }

    const stored = await this.store(rec);
    if (stored.duplicate) {
      // A retry of a delivery that already ran its action must not run it again.
      const first = stored.duplicate_of ? await this.deliveries.get(stored.duplicate_of) : undefined;
      if (first && this.actionPending(first)) return this.runPending(stored, first, caller);
      return { kind: 'duplicate', delivery: stored, firstRun: first?.action_run ?? null };
    }
    return this.accepted({ kind: 'ran', delivery: stored, run: await this.runAction(stored, action, text, caller) });
  }

  /**
   * An accepted delivery whose action has no record: its run could not be reserved (the database
   * refused the write, and the sender was answered 503), or it is still running, or its process
   * died before linking it. Only with action keys can a retry tell these apart.
   */
  private actionPending(first: StoredDelivery): boolean {
    return this.actionRuns !== null && first.action !== null && first.outcome === 'accepted' && first.action_run === null && first.body !== null && !first.body_omitted;
  }

  /**
   * A retry of a delivery whose action is pending runs it, with the first delivery's body, under
   * the first delivery's key: once, whoever retries. A run still going (409 under its key) answers
   * the retry as a duplicate whose first run is not known yet; one that ended without its link
   * (the process died, or the link's write failed) is linked now, not run again. (Its forwarding
   * was scheduled in the first delivery's own commit.)
   */
  private async runPending(stored: StoredDelivery, first: StoredDelivery, caller: Caller): Promise<IntakeResult> {
    try {
      const run = await this.runAction(first, first.action!, Buffer.from(first.body!).toString('utf8'), caller);
      return { kind: 'ran', delivery: stored, run };
    } catch (err) {
      if (!SwitchyardError.is(err, 'idempotency_key_in_progress')) throw err;
      return { kind: 'duplicate', delivery: stored, firstRun: null };
    }
  }

  /** The delivery's record, named by the request it came in. */
  private record(head: DeliveryHead, hook: Webhook, body: Uint8Array | null, bodySize: number, whole: boolean): DeliveryRecord {
    return deliveryRecord(head, hook, body, bodySize, this.clock.now(), whole, this.scope.requestId());
  }

  private accepted<R extends IntakeResult>(result: R): R {
    if (result.kind === 'accepted' && result.delivery.duplicate) return { kind: 'duplicate', delivery: result.delivery, firstRun: null } as IntakeResult as R;
    return result;
  }

  /** Runs the action as hook:<id> (under the delivery's key) and writes the record linking delivery, invocation and answer. */
  private async runAction(stored: StoredDelivery, action: string, text: string, caller: Caller): Promise<DispatchOutcome> {
    const request = { key: action, body: text, source: `hook:${stored.hook_id}/${stored.id}` };
    const answer = this.actionRuns
      ? await this.actionRuns.run(caller, `delivery:${stored.id}`, request, (id) => this.dispatch.dispatch({ ...request, id }, caller))
      : { ran: await this.dispatch.dispatch(request, caller) };
    const outcome = answer.ran ?? { capability: this.registry.require(answer.replayed.key).capability, invocation: answer.replayed };
    await this.link(stored, action, outcome);
    return outcome;
  }

  /** The action's record (unique per delivery): one a concurrent retry wrote first is as good as ours. */
  private async link(stored: StoredDelivery, action: string, outcome: DispatchOutcome): Promise<void> {
    try {
      await this.appendAction(stored, action, outcome);
    } catch (err) {
      if ((await this.deliveries.get(stored.id))?.action_run?.invocation === outcome.invocation.id) return;
      throw err;
    }
  }

  private async appendAction(stored: StoredDelivery, action: string, outcome: DispatchOutcome): Promise<void> {
    const inv = outcome.invocation;
    await this.deliveries.appendAction({
      delivery: stored.id,
      action,
      invocation: inv.id,
      ok: inv.ok,
      status: inv.ran ? inv.status : 'refused',
      answer: { status: this.options.answerStatus(inv.ok ? null : (inv.error?.code ?? 'internal_error')), body: { ok: inv.ok, result: inv.result, invocation: inv.id, error: inv.error } },
      created_at: this.clock.now().toISOString(),
    });
  }

  /**
   * Appends a delivery, with its schedule (forwarding) in the same commit. Each body is copied again
   * on its way into the database, so many large ones committing together would multiply the memory
   * the body budget bounds: up to 16 MiB of bodies are stored at once (small ones keep sharing
   * commits), a larger one alone.
   */
  private async store(rec: DeliveryRecord): Promise<StoredDelivery> {
    const bytes = rec.body?.length ?? 0;
    await this.storing.reserve(bytes);
    try {
      const plan = this.scheduler && rec.outcome === 'accepted' ? await this.scheduler.plan(rec) : null;
      if (plan === null || plan.jobs.length === 0) return await this.deliveries.append(rec);
      let stored: StoredDelivery | null = null;
      try {
        return (stored = await this.deliveries.append(rec, plan.jobs));
      } finally {
        plan.settled(stored);
      }
    } finally {
      this.storing.release(bytes);
    }
  }

  /** Stores the delivery as refused with `error`'s code and message. */
  private refuseWith(rec: DeliveryRecord, error: SwitchyardError): Promise<IntakeResult> {
    return this.refuse(rec, { code: error.code, message: error.message }, error);
  }

  private async refuse(rec: DeliveryRecord, refusal: DeliveryRefusal, error: SwitchyardError): Promise<IntakeResult> {
    const delivery = await this.store({ ...rec, outcome: 'refused', refusal });
    return { kind: 'refused', delivery, error, run: null };
  }
}

/**
 * A delivery as received: what is stored, before the database decides whether it is a duplicate.
 * Only a whole body is searched for a delivery id or checked against a signature.
 */
export function deliveryRecord(head: DeliveryHead, hook: Webhook, body: Uint8Array | null, bodySize: number, now: Date, whole = true, requestId: string | null = null): DeliveryRecord {
  const read = whole ? body : null;
  // Parsed at most once, by whichever of the two lookups first needs a body field.
  const parsed = lazyBody(read, head.contentType);
  const found = resolveDeliveryId({ headers: head.headers, body: read, contentType: head.contentType, webhookPath: hook.delivery_id_path, parsed });
  const type = resolveEventType({ headers: head.headers, body: read, contentType: head.contentType, webhookPath: hook.event_type_path, scheme: hook.signature?.scheme ?? null, parsed });
  const signature = hook.signature && read ? verifySignature(hook.signature, signedRequest(head, read), now) : null;
  return {
    id: newDeliveryEntryId(),
    hook_id: hook.id,
    received_at: now.toISOString(),
    method: head.method,
    path: head.path,
    query: head.query,
    headers: head.headers,
    body,
    body_size: bodySize,
    client_address: head.clientAddress,
    delivery_id: found?.id ?? null,
    delivery_id_rule: found?.rule ?? null,
    event_type: type?.type ?? null,
    event_type_rule: type?.rule ?? null,
    signature: signature?.verdict ?? null,
    outcome: 'accepted',
    refusal: null,
    action: head.action,
    request_id: requestId,
  };
}

/** What a signature scheme checks of a delivery. */
const signedRequest = (head: DeliveryHead, body: Uint8Array): SignedRequest => ({ method: head.method, url: head.url ?? null, headers: head.headers, body });
