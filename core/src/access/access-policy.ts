// The access policy: the one answer to every access question a face asks. May this credential make
// this move (on this object)? Who owns an invocation, a receipt, a delivery? Who is it in the
// ledger? (Which fields of an invocation it may see is the ledger's invocation-view.ts, built on
// ownsInvocation.) Pure: it reads nothing and changes nothing; spending a token's use is the face's
// separate, explicit step after an allowed move.
import type { Capability } from '../capabilities/index.js';
import type { Caller, Principal } from './caller.js';
import { SwitchyardError } from '../errors.js';
import { PUBLIC_MOVES } from './moves.js';
import { allowedMoves, isOwnerIssued, scopeAllows } from './share-token.js';

/**
 * What the policy reads of an invocation: who ran it (the token family's fingerprint) on which key.
 * Named by shape, not by the run's record, so that the runs and the ledger build on access rather
 * than access on them.
 */
export interface OwnedRun {
  fingerprint: string | null;
  key: string;
}

/** Capabilities anyone may run (auth none): the public set keyless tokens are cut from. */
export const isPublicCapability = (c: Pick<Capability, 'auth'>): boolean => c.auth === 'none';

/** Who may ask to run an auth-required capability: the owner and the tokens the owner minted. */
export function mayRunAuthRequired(p: Principal): boolean {
  return p.kind === 'owner' || (p.kind === 'token' && isOwnerIssued(p.scope));
}

/** The moves a principal allows, as a denial lists them. */
export function movesOf(p: Principal): string[] {
  if (p.kind === 'owner') return ['*'];
  if (p.kind === 'token') return allowedMoves(p.scope);
  if (p.kind === 'public') return [...PUBLIC_MOVES];
  return [];
}

/**
 * The refusal of `move` for this principal, or null when it is allowed (uses left aside: spending
 * one is a separate step). Asking what one's own credential allows (explain) is open to everyone,
 * the public credential included; tokens carry explain as a move like any other.
 */
export function denialOf(p: Principal, move: string): SwitchyardError | null {
  switch (p.kind) {
    case 'owner':
      return null;
    case 'public':
      if (PUBLIC_MOVES.includes(move) || move === 'explain') return null;
      return new SwitchyardError('credential_required', `${move} needs a credential: a share token (share= or Authorization: Bearer) or the owner's API key`, {
        needed: move,
        allowed: movesOf(p),
        start: '/start',
      });
    case 'token':
      if (scopeAllows(p.scope, move)) return null;
      return new SwitchyardError('scope_denied', `this token does not allow ${move}`, { needed: move, allowed: movesOf(p) });
    case 'hook':
      // A webhook address runs its action (decided by dispatch's auth rule) and makes no other move.
      if (move.startsWith('invoke:')) return null;
      return new SwitchyardError('scope_denied', `a webhook address does not allow ${move}`, { needed: move, allowed: movesOf(p) });
  }
}

/**
 * Running a capability (by any face: dispatch, router tags, /mcp) needs some credential; the public
 * one only reads. `what` names the face in the message; `start` is where a keyless token is minted.
 */
export function runDenial(p: Principal, what: string, start: string): SwitchyardError | null {
  if (p.kind !== 'public') return null;
  return new SwitchyardError('credential_required', `${what} needs a credential: a share token (share= or Authorization: Bearer) or the owner's API key; GET /start mints a keyless one`, {
    needed: 'invoke:<KEY>',
    allowed: movesOf(p),
    start,
  });
}

/**
 * The one judgment of a run, asked by every face that runs a capability (dispatch, router tags, the
 * MCP faces): the refusal that stops it before it becomes a run, or null. A known key needs
 * invoke:<KEY> and, for a replay or a repair, the invocation named must be the principal's own; a
 * key that does not exist is only for a credential to learn (404 with did_you_mean), so without one
 * the refusal is runDenial's. Whether it may run an auth-required capability is decided with it
 * (callerOf's mayRunAuthRequired), and dispatch records that refusal as a refused run.
 */
export function judgeRun(
  p: Principal,
  capability: Pick<Capability, 'key'> | null,
  object: { id: string; invocation: OwnedRun | undefined } | undefined,
  what: string,
  start: string,
): SwitchyardError | null {
  if (!capability) return runDenial(p, what, start);
  const denial = denialOf(p, `invoke:${capability.key}`);
  if (denial || !object) return denial ?? runDenial(p, what, start);
  if (!object.invocation || !ownsInvocation(p, object.invocation)) return new SwitchyardError('invocation_not_found', `no invocation ${object.id} run with this credential`, { id: object.id });
  return runDenial(p, what, start);
}

/** True when the principal may be offered `capability` as something to run (MCP tools/list). */
export function mayInvoke(p: Principal, capability: Pick<Capability, 'key' | 'auth'>): boolean {
  return denialOf(p, `invoke:${capability.key}`) === null && (isPublicCapability(capability) || mayRunAuthRequired(p));
}

/**
 * True when the principal may read an imported server's resources, resource templates and prompts
 * (MCP at /mcp/servers/<name>). They are not capabilities and have no move of their own, so they
 * go with the server's tools: the owner reads them; anyone else only when offered every one of the
 * server's tools (a server with none shows them to the owner only).
 */
export function mayReadServer(p: Principal, tools: Pick<Capability, 'key' | 'auth'>[]): boolean {
  if (p.kind === 'owner') return true;
  return tools.length > 0 && tools.every((c) => mayInvoke(p, c));
}

/**
 * Who owns an invocation, as far as reading its private fields and re-running it go: the owner owns
 * every one; a token owns the runs its family made (itself, or a token it was narrowed from: they
 * share an id, so a fingerprint) on the keys it still holds. Webhooks and the public own none.
 */
export function ownsInvocation(p: Principal, inv: OwnedRun): boolean {
  if (p.kind === 'owner') return true;
  if (p.kind !== 'token') return false;
  return inv.fingerprint === p.scope.fingerprint && (p.scope.keys === null || p.scope.keys.includes(inv.key));
}

/** Deliveries carry the webhook's address (its only secret): the owner's only. */
export function ownsDelivery(p: Principal, _delivery?: { hook_id: string }): boolean {
  return p.kind === 'owner';
}

/** Refuses, as if it did not exist, an invocation this principal does not own (its receipt, which opens the private fields; replay; repair). */
export function requireOwnInvocation<T extends OwnedRun>(p: Principal, inv: T | undefined, id: string): T {
  if (!inv || !ownsInvocation(p, inv)) throw new SwitchyardError('invocation_not_found', `no invocation ${id} run with this credential`, { id });
  return inv;
}

/** Who the principal is in the ledger. A token's actor is its caveat's (never a reserved name: see actor-names.ts) or token:<fingerprint>. */
export function callerOf(p: Principal): Caller {
  const may = mayRunAuthRequired(p);
  switch (p.kind) {
    case 'owner':
      return { actor: 'owner', fingerprint: null, mayRunAuthRequired: may, principal: p };
    case 'token':
      return { actor: p.scope.actor ?? `token:${p.scope.fingerprint}`, fingerprint: p.scope.fingerprint, mayRunAuthRequired: may, principal: p };
    case 'hook':
      return { actor: `hook:${p.hookId}`, fingerprint: null, mayRunAuthRequired: may, principal: p };
    case 'public':
      return { actor: 'public', fingerprint: null, mayRunAuthRequired: may, principal: p };
  }
}

/** How a record's actor is shown: with its fingerprint whenever a token made it, so nobody passes for the owner. */
export const actorLabel = (inv: { actor: string; fingerprint: string | null }): string => (inv.fingerprint ? `${inv.actor} (${inv.fingerprint})` : inv.actor);
