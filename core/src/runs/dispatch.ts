// The dispatch service: parse → validate → check auth, approval and limits → run → append to the ledger.
// Every request that names a known capability becomes exactly one invocation, whether it ran or not.
import { pathText, type Capability, bodyText, parseBody, checkPlan, type CallerChannel, DEFAULT_BLOB_THRESHOLD, ToolOutput, binaryBytes, type UpstreamLogEntry, externalizeBlobs, type BlobStore, type CapabilityRegistry, type RunnerDirectory, computeYield } from '../capabilities/index.js';
import { type Caller, requireOwnInvocation } from '../access/index.js';
import { SwitchyardError, fail, type ErrorCode } from '../errors.js';
import { newInvocationId } from '../ids.js';
import type { InvocationError, InvocationRecord, InvocationStatus, StoredInvocation } from './invocation.js';
import { INVOCATION_ID, checkRepairTarget, repairInFlight } from './lineage.js';
import { recordingRounds, type InputRound } from './caller-rounds.js';
import { noRequestScope, type RequestScope } from '../request-scope.js';
import type { Clock } from '../clock.js';
import type { InvocationStore, RunReservations } from './ports.js';
import { interruptedRecord } from './interrupted-runs.js';
import { PendingOutcomes } from './pending-outcomes.js';
import { createHash } from 'node:crypto';
import { canonicalJson } from '@switchyard/verifier';
import { nestsDeeperThan, stringifyIteratively } from '../json-depth.js';
import { withFixed, withoutFixed } from '../imports/index.js';

/** The database could not take a write the run depends on: the caller may retry after a while. */
export const storageUnavailable = (what: string, err: unknown, details: Record<string, unknown> = {}): SwitchyardError =>
  // The driver's error stays on it (not in the answer), so the adapters can tell what kind of failure it was.
  Object.defineProperty(new SwitchyardError('storage_unavailable', `${what}: the database did not take the write (${(err as Error)?.message ?? String(err)}); retry later`, details), 'cause', { value: err });

/** What a live caller adds to a run: a way to withdraw it, and a channel for progress and questions. */
export interface LiveCall {
  signal?: AbortSignal;
  channel?: CallerChannel;
  /** The MCP revision the caller speaks, when it is an MCP caller (see ToolCallOptions.callerProtocol). */
  callerProtocol?: string;
}

/** `id`: the invocation id the run gets (an idempotency key's claim names it first); a new one otherwise. */
export type DispatchRequest =
  | ({ key: string; body?: unknown; repairs?: string; source?: string; id?: string } & LiveCall)
  | ({ replay: string; source?: string; id?: string } & LiveCall);

export interface DispatchOutcome {
  capability: Capability;
  invocation: StoredInvocation;
}

export interface DispatchOptions {
  timeoutMs: number;
  /** How long an approval request stays open. */
  approvalTtlSeconds?: number;
  /** How deep arguments (and results) may nest; deeper arguments are invalid. */
  maxArgumentDepth?: number;
  /** Binary content parts larger than this (bytes) are stored once as blobs and referenced. */
  blobThresholdBytes?: number;
}

/** The default depth limit of arguments: far beyond any real input schema, far below the stack. */
export const DEFAULT_MAX_ARGUMENT_DEPTH = 64;

/** The SHA-256 of the canonical JSON of a run's arguments: what an approval is bound to. */
export const argsHash = (args: unknown): string => `sha256:${createHash('sha256').update(canonicalJson(args ?? null)).digest('hex')}`;

/** Codes that mean the run was refused before the runner, as opposed to a run that failed. */
const REFUSALS: ReadonlySet<ErrorCode> = new Set(['approval_required', 'credential_required', 'plan_required']);

/** An upstream that logs without end does not grow a record without end. */
const MAX_LOGS = 200;

type Validate = (args: unknown) => { path: string; message: string }[];

const invalidArguments = (capability: Capability, problems: { path: string; message: string }[]): SwitchyardError =>
  new SwitchyardError('invalid_arguments', `arguments do not match the input schema of ${capability.key}: ${problems.map((p) => p.message).join('; ')}`, { errors: problems });

export class DispatchService {
  /** Repairs running in this process, by the invocation they repair, when there are no reservations (see repair()). */
  private readonly repairing = new Map<string, string>();

  constructor(
    private readonly registry: CapabilityRegistry,
    private readonly runners: RunnerDirectory,
    private readonly store: InvocationStore,
    private readonly clock: Clock,
    private readonly options: DispatchOptions,
    /** Names the request each record came from. */
    private readonly scope: RequestScope = noRequestScope,
    /** Where large binary content goes; without one, content stays inline. */
    private readonly blobs: BlobStore | null = null,
    /** Where a run is reserved before its runner is called (write-ahead); without one, runs are not reserved. */
    private readonly reservations: RunReservations | null = null,
    /** Where an outcome the database did not take waits to be written again (shared with forwarding in the app). */
    private readonly outcomes: PendingOutcomes = new PendingOutcomes(store, reservations),
  ) {}

  async dispatch(request: DispatchRequest, caller: Caller): Promise<DispatchOutcome> {
    const source = request.source ?? 'api';
    const live: LiveCall = { ...(request.signal ? { signal: request.signal } : {}), ...(request.channel ? { channel: request.channel } : {}), ...(request.callerProtocol ? { callerProtocol: request.callerProtocol } : {}) };
    const id = request.id ?? newInvocationId();
    if ('replay' in request) return this.replay(request.replay, caller, source, live, id);
    if (typeof request.key !== 'string' || request.key.length === 0) fail('invalid_request', 'key must be a non-empty string');
    const { capability, validate } = this.registry.require(request.key);
    if (request.repairs !== undefined) return this.repair(capability, validate, request.repairs, request.body, caller, source, live, id);
    return this.run(capability, validate, request.body, caller, { repairs: null, replays: null, source }, null, id, live);
  }

  /** A repair: the lineage rules (lineage.ts) against the ledger, then a run linked to the failure. */
  private async repair(capability: Capability, validate: Validate, repairs: unknown, body: unknown, caller: Caller, source: string, live: LiveCall, id: string): Promise<DispatchOutcome> {
    if (typeof repairs !== 'string' || !INVOCATION_ID.test(repairs)) {
      // Echoed only as a scalar: an array or object named here may nest as deep as the request allows.
      const echoed = typeof repairs === 'object' ? null : (repairs ?? null);
      fail('invalid_repair', 'repairs must be an invocation id of the form inv_…', { repairs: echoed, reason: 'malformed' });
    }
    const targetId = repairs as string;
    const target = await this.store.get(targetId);
    // Someone else's failure is not the caller's to repair: to it, that invocation does not exist.
    if (target) requireOwnInvocation(caller.principal, target, targetId);
    // A second repair of the same failure while the first runs would fork the chain. With write-ahead
    // the database decides: the run's reservation names the failure, unique, so of two processes
    // repairing it at once one runs and the other is refused (repairInFlight). Without reservations
    // (one process by construction) this process keeps the failure until its record is appended.
    if (!this.reservations) {
      const inFlight = this.repairing.get(targetId);
      if (inFlight) throw repairInFlight(targetId, inFlight);
      this.repairing.set(targetId, id);
    }
    try {
      checkRepairTarget(capability.key, targetId, target, target ? await this.store.repairChain(targetId) : []);
      // Checked again once this run holds its reservation: a repair that ran and ended between the
      // check above and the reservation (its record appended, its reservation gone) is found now,
      // so this one is refused (lineage_closed or superseded) before anything runs.
      const stillRepairable = async (): Promise<void> => checkRepairTarget(capability.key, targetId, await this.store.get(targetId), await this.store.repairChain(targetId));
      return await this.run(capability, validate, body, caller, { repairs: targetId, replays: null, source }, null, id, live, undefined, this.reservations ? stillRepairable : undefined);
    } finally {
      if (!this.reservations) this.repairing.delete(targetId);
    }
  }

  /**
   * What a run of `key` with this body would be refused for before reaching its runner (body
   * format, input schema, auth), or null when it would run or wait for approval. Nothing is stored.
   */
  refusalFor(key: string, rawBody: unknown, caller: Caller): SwitchyardError | null {
    const { capability, validate } = this.registry.require(key);
    try {
      this.checkArguments(capability, validate, rawBody, this.tooDeep(rawBody));
      this.applyAuthVerdict(capability, caller);
      checkPlan(capability);
      return null;
    } catch (err) {
      if (SwitchyardError.is(err)) return err;
      throw err;
    }
  }

  private async replay(id: unknown, caller: Caller, source: string, live: LiveCall, runId: string): Promise<DispatchOutcome> {
    if (typeof id !== 'string' || !INVOCATION_ID.test(id)) fail('invalid_request', 'replay must be an invocation id of the form inv_…');
    // Only the original's owner replays it (it re-sends the original arguments); to anyone else it does not exist.
    const original = requireOwnInvocation(caller.principal, await this.store.get(id as string), id as string);
    const { capability, validate } = this.registry.require(original.key);
    return this.run(capability, validate, original.body, caller, { repairs: null, replays: original.id, source }, null, runId, live);
  }

  /**
   * Runs an invocation that waited for approval, once the owner approved it: the same key and body,
   * as the caller who asked, as a new invocation whose source names the approval. The arguments
   * must hash to what was approved. `consume` records the approval as used; it is called once the
   * run is reserved (or, for a run refused before its runner, just before its record is appended),
   * so a database that takes neither leaves the approval undecided and runnable. If it fails,
   * nothing runs or is recorded.
   */
  async runApproved(waiting: StoredInvocation, approval: { id: string; args_hash: string }, invocationId: string = newInvocationId(), consume?: () => Promise<void>): Promise<DispatchOutcome> {
    const { capability, validate } = this.registry.require(waiting.key);
    if (argsHash(waiting.args) !== approval.args_hash) fail('invalid_request', 'the approved arguments are not the ones this invocation holds');
    // The owner approved it: it runs as the caller who asked, with the owner's leave. A waiting
    // repair's run keeps its repairs link, so a successful one closes the lineage.
    const caller: Caller = { actor: waiting.actor, fingerprint: waiting.fingerprint, mayRunAuthRequired: true, principal: { kind: 'owner' } };
    return this.run(capability, validate, waiting.body, caller, { repairs: waiting.repairs, replays: null, source: `approval:${approval.id}` }, approval.args_hash, invocationId, {}, consume);
  }

  private async run(
    capability: Capability,
    validate: Validate,
    rawBody: unknown,
    caller: Caller,
    links: { repairs: string | null; replays: string | null; source: string },
    approvedArgsHash: string | null = null,
    id: string = newInvocationId(),
    live: LiveCall = {},
    /** What the run uses up (an approval), recorded with its reservation or its record; see runApproved. */
    consume?: () => Promise<void>,
    /** Checked once the run is reserved (a repair's lineage, see repair()): a refusal releases the reservation and is thrown, nothing recorded. */
    recheck?: () => Promise<void>,
  ): Promise<DispatchOutcome> {
    let consumed = consume === undefined;
    let consumeFailed = false;
    let refusedOnceReserved = false;
    const useUp = async (): Promise<void> => {
      if (consumed) return;
      consumed = true;
      try {
        await consume!();
      } catch (err) {
        consumeFailed = true;
        throw err;
      }
    };
    const started = this.clock.now();
    const maxDepth = this.maxDepth;
    // An object body too deep is never handed to anything recursive, JSON.stringify included.
    const bodyTooDeep = this.tooDeep(rawBody);
    const text = bodyTooDeep ? stringifyIteratively(rawBody) : bodyText(rawBody);
    let args: unknown = null;
    let status: InvocationStatus = 'ok';
    let ran = false;
    let result: unknown = null;
    let error: InvocationError | null = null;
    let output: ToolOutput | null = null;
    const logs: UpstreamLogEntry[] = [];
    // The questions its upstream asks the caller are rounds of this one run, recorded with it.
    const rounds: InputRound[] = [];
    const channel = recordingRounds(live.channel, rounds, this.clock);

    try {
      args = this.checkArguments(capability, validate, rawBody, bodyTooDeep);
      this.applyAuthVerdict(capability, caller);
      checkPlan(capability);
      if (capability.approval && approvedArgsHash === null) {
        // Not run: the owner approves these exact arguments first (or denies them).
        const expires = new Date(started.getTime() + (this.options.approvalTtlSeconds ?? 86_400) * 1000).toISOString();
        throw new SwitchyardError('approval_required', `${capability.key} runs only after the owner approves these exact arguments`, { args_hash: argsHash(args), approval_expires_at: expires, approvals: '/api/approvals' });
      }
      if (approvedArgsHash !== null && argsHash(args) !== approvedArgsHash) fail('invalid_request', 'the arguments differ from the approved ones');
      // Write-ahead: the run is durably reserved before anything runs; no reservation, no run.
      await this.reserve(interruptedRecord({ id, capability, caller, bodyText: text, args, links, createdAt: started, requestId: this.scope.requestId() }));
      try {
        await recheck?.();
      } catch (err) {
        refusedOnceReserved = true;
        await this.release(id);
        throw err;
      }
      try {
        await useUp();
      } catch (err) {
        // Not used up (decided elsewhere, or not written): this run does not happen; its reservation goes.
        await this.release(id);
        throw err;
      }
      ran = true;
      result = await this.runners.runnerFor(capability).run(capability, args, { timeoutMs: this.options.timeoutMs, invocationId: id, actor: caller.actor, ...live, ...(channel ? { channel } : {}), log: (entry) => void (logs.length < MAX_LOGS && logs.push(entry)) });
      if (ToolOutput.is(result)) {
        output = result;
        result = output.value;
      }
      // A caller who withdrew the call gets no result, whatever the runner made of the abort.
      if (live.signal?.aborted) fail('cancelled', `the caller cancelled the call to ${capability.key}`);
      // The result is written to the ledger and its leaves like the arguments: bounded the same way.
      if (nestsDeeperThan(result, maxDepth)) fail('tool_error', `the result of ${capability.key} nests deeper than ${maxDepth} levels`, { max_depth: maxDepth });
    } catch (err) {
      // Not reserved, so nothing ran and nothing can be recorded: the request fails as a whole. So
      // does a repair that another one of the same failure beat to its reservation or to its end (as
      // before a run), and a run whose approval could not be used up.
      if (consumeFailed || refusedOnceReserved) throw err;
      if (!ran && (SwitchyardError.is(err, 'storage_unavailable') || SwitchyardError.is(err, 'repair_in_progress'))) throw err;
      const coded = SwitchyardError.is(err) ? err : new SwitchyardError('internal_error', `runner failed: ${(err as Error)?.message ?? String(err)}`);
      error = coded.toJSON();
      // An approval request that passed every other check waits; anything else refused is refused.
      status =
        coded.code === 'approval_required' && coded.details['args_hash'] ? 'awaiting_approval'
        : REFUSALS.has(coded.code) ? 'refused'
        : coded.code === 'cancelled' && ran ? 'cancelled'
        : 'failed';
      result = null;
    }

    const ok = error === null;
    const resultText = ok ? JSON.stringify(result ?? null) : '';
    // The upstream's whole answer is kept with an ok run; its log lines with any run that made some.
    const content = ok && output ? (this.blobs ? await externalizeBlobs(output.content, this.blobs, this.options.blobThresholdBytes ?? DEFAULT_BLOB_THRESHOLD, (sha256) => `/api/invocations/${id}/blobs/${sha256}`) : output.content) : undefined;
    const record: InvocationRecord = {
      id,
      key: capability.key,
      path: pathText(capability),
      actor: caller.actor,
      fingerprint: caller.fingerprint,
      body: text,
      args,
      status,
      ok,
      ran,
      error,
      result: ok ? (result ?? null) : null,
      ...(content ? { content } : {}),
      ...(ok && output && output.structuredContent !== undefined ? { structured_content: output.structuredContent } : {}),
      ...(capability.definition_hash !== undefined ? { definition_hash: capability.definition_hash } : {}),
      ...(logs.length > 0 ? { logs } : {}),
      ...(rounds.length > 0 ? { rounds } : {}),
      yield: computeYield({ bodyText: text, resultText, ok, ran, cost: capability.cost, args, binaryBytes: content ? binaryBytes(content) : 0 }),
      repairs: links.repairs,
      replays: links.replays,
      source: links.source,
      created_at: started.toISOString(),
      duration_ms: this.clock.now().getTime() - started.getTime(),
      request_id: this.scope.requestId(),
    };
    // A run refused before its runner uses its approval up with its record (which it then needs).
    await useUp();
    let stored: StoredInvocation;
    try {
      // A run that ran holds its reservation: an outcome the database does not take now is kept and
      // written once it is back (pending-outcomes.ts), or, past its bounds, swept as interrupted.
      stored = ran ? await this.outcomes.record(record) : await this.store.append(record);
    } catch (err) {
      throw storageUnavailable(`${capability.key} ${ran ? 'ran, but its outcome was not recorded yet' : 'was not recorded'}`, err, { invocation: id, ran });
    }
    return { capability, invocation: stored };
  }

  /** Withdraws a reservation whose run will not happen; if that fails, it lapses and is swept (interrupted). */
  private async release(id: string): Promise<void> {
    if (!this.reservations) return;
    this.reservations.abandon(id); // no longer renewed, whatever the drop does
    await this.reservations.drop(id).catch(() => undefined);
  }

  private async reserve(interrupted: InvocationRecord): Promise<void> {
    if (!this.reservations) return;
    try {
      await this.reservations.begin(interrupted);
    } catch (err) {
      if (SwitchyardError.is(err, 'repair_in_progress')) throw err; // another repair of the same failure holds it
      throw storageUnavailable(`${interrupted.key} was not run`, err, { ran: false });
    }
  }

  private get maxDepth(): number {
    return this.options.maxArgumentDepth ?? DEFAULT_MAX_ARGUMENT_DEPTH;
  }

  /** An object body nesting deeper than the limit (a text body is measured once parsed). */
  private tooDeep(rawBody: unknown): boolean {
    return typeof rawBody === 'object' && rawBody !== null && nestsDeeperThan(rawBody, this.maxDepth);
  }

  /** The body parsed, within the depth limit and valid against the input schema: the arguments, or the refusal thrown. */
  private checkArguments(capability: Capability, validate: Validate, rawBody: unknown, bodyTooDeep: boolean): unknown {
    const maxDepth = this.maxDepth;
    // An argument fixed by the owner's override is never the caller's: a value sent for one is replaced, not refused.
    const parsed = withoutFixed(capability, parseBody(capability.bodyFormat, rawBody));
    if (bodyTooDeep || (parsed !== rawBody && nestsDeeperThan(parsed, maxDepth))) {
      fail('invalid_arguments', `arguments nest deeper than ${maxDepth} levels`, { max_depth: maxDepth, errors: [{ path: '/', message: `nests deeper than ${maxDepth} levels`, keyword: 'maxDepth', params: { limit: maxDepth } }] });
    }
    const problems = validate(parsed);
    if (problems.length > 0) throw invalidArguments(capability, problems);
    return withFixed(capability, parsed);
  }

  /**
   * The access policy's verdict on auth, applied before anything reaches the runner: it was decided
   * once, with the rest of the run's judgment (callerOf's mayRunAuthRequired), and dispatch only
   * records the refused run it means.
   */
  private applyAuthVerdict(capability: Capability, caller: Caller): void {
    if (capability.auth === 'required' && !caller.mayRunAuthRequired) {
      fail('credential_required', `${capability.key} needs auth; this caller may only run capabilities with auth none`, { auth: 'required' });
    }
  }
}
