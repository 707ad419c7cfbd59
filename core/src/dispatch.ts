// The dispatch service: parse → validate → check auth, approval and limits → run → append to the ledger.
// Every request that names a known capability becomes exactly one invocation, whether it ran or not.
import { pathText, type Capability } from './capability.js';
import type { Caller } from './caller.js';
import { bodyText, parseBody } from './body-format.js';
import { SwitchyardError, fail, type ErrorCode } from './errors.js';
import { newInvocationId } from './ids.js';
import type { InvocationError, InvocationRecord, InvocationStatus, StoredInvocation } from './invocation.js';
import { INVOCATION_ID, checkRepairTarget } from './lineage.js';
import type { Clock, InvocationStore } from './ports.js';
import type { CapabilityRegistry } from './registry.js';
import type { RunnerDirectory } from './runner-directory.js';
import { computeYield } from './yield.js';
import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';

export type DispatchRequest =
  | { key: string; body?: unknown; repairs?: string; source?: string }
  | { replay: string; source?: string };

export interface DispatchOutcome {
  capability: Capability;
  invocation: StoredInvocation;
}

export interface DispatchOptions {
  timeoutMs: number;
  /** How long an approval request stays open. */
  approvalTtlSeconds?: number;
}

/** The SHA-256 of the canonical JSON of a run's arguments: what an approval is bound to. */
export const argsHash = (args: unknown): string => `sha256:${createHash('sha256').update(canonicalJson(args ?? null)).digest('hex')}`;

/** Codes that mean the run was refused before the runner, as opposed to a run that failed. */
const REFUSALS: ReadonlySet<ErrorCode> = new Set(['approval_required', 'credential_required', 'plan_required']);

const invalidArguments = (capability: Capability, problems: { path: string; message: string }[]): SwitchyardError =>
  new SwitchyardError('invalid_arguments', `arguments do not match the input schema of ${capability.key}: ${problems.map((p) => p.message).join('; ')}`, { errors: problems });

export class DispatchService {
  constructor(
    private readonly registry: CapabilityRegistry,
    private readonly runners: RunnerDirectory,
    private readonly store: InvocationStore,
    private readonly clock: Clock,
    private readonly options: DispatchOptions,
  ) {}

  async dispatch(request: DispatchRequest, caller: Caller): Promise<DispatchOutcome> {
    const source = request.source ?? 'api';
    if ('replay' in request) return this.replay(request.replay, caller, source);
    if (typeof request.key !== 'string' || request.key.length === 0) fail('invalid_request', 'key must be a non-empty string');
    const { capability, validate } = this.registry.require(request.key);
    if (request.repairs !== undefined) {
      if (typeof request.repairs !== 'string' || !INVOCATION_ID.test(request.repairs)) {
        fail('invalid_repair', 'repairs must be an invocation id of the form inv_…', { repairs: request.repairs ?? null, reason: 'malformed' });
      }
      checkRepairTarget(capability.key, request.repairs, await this.store.get(request.repairs));
    }
    return this.run(capability, validate, request.body, caller, { repairs: request.repairs ?? null, replays: null, source });
  }

  /**
   * What a run of `key` with this body would be refused for before reaching its runner (body
   * format, input schema, auth), or null when it would run or wait for approval. Nothing is stored.
   */
  refusalFor(key: string, rawBody: unknown, caller: Caller): SwitchyardError | null {
    const { capability, validate } = this.registry.require(key);
    try {
      const problems = validate(parseBody(capability.bodyFormat, rawBody));
      if (problems.length > 0) return invalidArguments(capability, problems);
      this.checkPermission(capability, caller);
      return null;
    } catch (err) {
      if (SwitchyardError.is(err)) return err;
      throw err;
    }
  }

  private async replay(id: unknown, caller: Caller, source: string): Promise<DispatchOutcome> {
    if (typeof id !== 'string' || !INVOCATION_ID.test(id)) fail('invalid_request', 'replay must be an invocation id of the form inv_…');
    const original = await this.store.get(id as string);
    if (!original) fail('invocation_not_found', `no invocation ${id}`, { id });
    const { capability, validate } = this.registry.require(original!.key);
    return this.run(capability, validate, original!.body, caller, { repairs: null, replays: original!.id, source });
  }

  /**
   * Runs an invocation that waited for approval, once the owner approved it: the same key and body,
   * as the caller who asked, as a new invocation whose source names the approval. The arguments
   * must hash to what was approved.
   */
  async runApproved(waiting: StoredInvocation, approval: { id: string; args_hash: string }, invocationId: string = newInvocationId()): Promise<DispatchOutcome> {
    const { capability, validate } = this.registry.require(waiting.key);
    if (argsHash(waiting.args) !== approval.args_hash) fail('invalid_request', 'the approved arguments are not the ones this invocation holds');
    const caller: Caller = { actor: waiting.actor, fingerprint: waiting.fingerprint, mayRunAuthRequired: true };
    return this.run(capability, validate, waiting.body, caller, { repairs: null, replays: null, source: `approval:${approval.id}` }, approval.args_hash, invocationId);
  }

  private async run(
    capability: Capability,
    validate: (args: unknown) => { path: string; message: string }[],
    rawBody: unknown,
    caller: Caller,
    links: { repairs: string | null; replays: string | null; source: string },
    approvedArgsHash: string | null = null,
    id: string = newInvocationId(),
  ): Promise<DispatchOutcome> {
    const started = this.clock.now();
    const text = bodyText(rawBody);
    let args: unknown = null;
    let status: InvocationStatus = 'ok';
    let ran = false;
    let result: unknown = null;
    let error: InvocationError | null = null;

    try {
      args = parseBody(capability.bodyFormat, rawBody);
      const problems = validate(args);
      if (problems.length > 0) throw invalidArguments(capability, problems);
      this.checkPermission(capability, caller);
      if (capability.approval && approvedArgsHash === null) {
        // Not run: the owner approves these exact arguments first (or denies them).
        const expires = new Date(started.getTime() + (this.options.approvalTtlSeconds ?? 86_400) * 1000).toISOString();
        throw new SwitchyardError('approval_required', `${capability.key} runs only after the owner approves these exact arguments`, { args_hash: argsHash(args), approval_expires_at: expires, approvals: '/api/approvals' });
      }
      if (approvedArgsHash !== null && argsHash(args) !== approvedArgsHash) fail('invalid_request', 'the arguments differ from the approved ones');
      ran = true;
      result = await this.runners.runnerFor(capability).run(capability, args, { timeoutMs: this.options.timeoutMs, invocationId: id, actor: caller.actor });
    } catch (err) {
      const coded = SwitchyardError.is(err) ? err : new SwitchyardError('internal_error', `runner failed: ${(err as Error)?.message ?? String(err)}`);
      error = coded.toJSON();
      // An approval request that passed every other check waits; anything else refused is refused.
      status = coded.code === 'approval_required' && coded.details['args_hash'] ? 'awaiting_approval' : REFUSALS.has(coded.code) ? 'refused' : 'failed';
      result = null;
    }

    const ok = error === null;
    const resultText = ok ? JSON.stringify(result ?? null) : '';
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
      yield: computeYield({ bodyText: text, resultText, ok, ran, cost: capability.cost, args }),
      repairs: links.repairs,
      replays: links.replays,
      source: links.source,
      created_at: started.toISOString(),
      duration_ms: this.clock.now().getTime() - started.getTime(),
    };
    return { capability, invocation: await this.store.append(record) };
  }

  /** Auth and approval, decided before anything reaches the runner. */
  private checkPermission(capability: Capability, caller: Caller): void {
    if (capability.auth === 'required' && !caller.mayRunAuthRequired) {
      fail('credential_required', `${capability.key} needs auth; this caller may only run capabilities with auth none`, { auth: 'required' });
    }
  }
}
