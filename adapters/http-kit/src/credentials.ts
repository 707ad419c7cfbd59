// Who a request is (its credential), and the HTTP side of asking the access policy (core's
// access-policy.ts) whether it may make the move it asks for. Three credentials:
//   the owner's API key (x-sheets-key, or as a Bearer) → every move;
//   a share token (share= or Bearer)         → the moves its caveats allow;
//   nothing                                  → the public moves (contract:read, confirm:read).
// A bad key or token is an error, never a fall-back to a weaker credential, and a denial names
// exactly what was needed. Every use of a token, allowed or denied, is written to the ledger under
// the token's fingerprint; a uses= caveat is claimed atomically once the move is allowed.
import type { Request } from 'express';
import { OWNER_MOVES, SwitchyardError, isShareTokenText, callerOf as policyCallerOf, denialOf, randomId, requireOwnInvocation, type ApiKeyStore, type Caller, type StoredInvocation, type TokenIssuer, type TokenScope, type TokenUseStore } from '@switchyard/core';
import { API_KEY_HEADER } from './api-key.js';

/** What this module uses: the keys, the token issuer and the ledger of token uses. */
type Ctx = { apiKeys: ApiKeyStore; tokenUses: TokenUseStore; tokens: TokenIssuer };

export type Credential = { kind: 'owner' } | { kind: 'token'; token: string; scope: TokenScope } | { kind: 'public' };

const RESOLVED = Symbol('switchyard.credential');
const RESOURCE = Symbol('switchyard.resource');
type WithCredential = Request & { [RESOLVED]?: Promise<Credential>; [RESOURCE]?: string };

/**
 * Says which protected resource (RFC 8707) the request is for, before its credential is resolved:
 * the MCP faces do, with their own URL. A token bound to a resource is accepted only there.
 */
export function presentedTo(req: Request, resource: string): void {
  (req as WithCredential)[RESOURCE] = resource;
}

/** The share token a request presents: share=<TOKEN> or Authorization: Bearer <TOKEN>. */
export function presentedToken(req: Request): string | null {
  const share = req.query['share'];
  if (Array.isArray(share)) throw new SwitchyardError('invalid_request', 'give share= once');
  const bearer = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '')?.[1] ?? null;
  if (typeof share === 'string' && bearer && share !== bearer) throw new SwitchyardError('invalid_request', 'share= and the Bearer token differ; send one token');
  return typeof share === 'string' ? share : bearer;
}

/** Resolves (once per request) the credential; throws for a bad key or a corrupted or expired token. */
export function credentialOf(req: Request, ctx: Ctx): Promise<Credential> {
  const r = req as WithCredential;
  r[RESOLVED] ??= (async (): Promise<Credential> => {
    const key = req.get(API_KEY_HEADER);
    if (key !== undefined) {
      if (!(await ctx.apiKeys.verify(key))) throw new SwitchyardError('invalid_api_key', `the key in ${API_KEY_HEADER} is not a valid API key`, { header: API_KEY_HEADER });
      return { kind: 'owner' };
    }
    const token = presentedToken(req);
    // MCP clients configure one Authorization header: the owner's key is accepted there too, never
    // in share= (URLs end up in logs and histories). Anything else is judged as a share token.
    if (token !== null && !isShareTokenText(token) && req.query['share'] === undefined && (await ctx.apiKeys.verify(token))) return { kind: 'owner' };
    // Held to its resource= and grant= caveats too (OAuth tokens): the grant is asked in the database.
    if (token !== null) return { kind: 'token', token, scope: await ctx.tokens.inUse(token, r[RESOURCE] ?? null, req.query['share'] === undefined ? 'header' : 'url') };
    return { kind: 'public' };
  })();
  return r[RESOLVED];
}

/** The route as recorded with a token use: method and path, never the query (it holds the token). */
const routeOf = (req: Request) => `${req.method} ${req.path}`;

/**
 * Asks the access policy whether the request's credential may make `move` (on `object`, when the
 * move reads or re-runs one invocation) and answers the credential. Owner-only moves (webhook
 * management, minting wide tokens) are simply moves no token can carry. A token's decision is
 * written to the ledger under its fingerprint; an allowed move then spends one of its uses, as a
 * separate step (spendUse).
 */
export async function authorize(req: Request, ctx: Ctx, move: string, object?: { id: string; invocation: StoredInvocation | undefined }): Promise<Credential> {
  const credential = await credentialOf(req, ctx);
  let denial = denialOf(credential, move);
  if (!denial && object) {
    try {
      requireOwnInvocation(credential, object.invocation, object.id);
    } catch (err) {
      denial = err as SwitchyardError;
    }
  }
  await settle(req, ctx, credential, move, denial);
  return credential;
}

/**
 * Carries out the policy's decision on `move`: a denial is thrown (a token's is written to the
 * ledger first, under its fingerprint); an allowed token move spends one of its uses.
 */
export async function settle(req: Request, ctx: Ctx, credential: Credential, move: string, denial: SwitchyardError | null): Promise<void> {
  if (credential.kind !== 'token') {
    if (denial) throw denial;
    return;
  }
  if (denial) {
    await recordUse(req, ctx, credential.scope, move, 'denied', denial.code);
    throw denial;
  }
  await spendUse(req, ctx, credential.scope, move);
}

const recordUse = (req: Request, ctx: Ctx, scope: TokenScope, move: string, outcome: 'allowed' | 'denied', code: string | null) =>
  ctx.tokenUses.record({ id: randomId('use_', 20), fingerprint: scope.fingerprint, move, outcome, code, route: routeOf(req), at: new Date().toISOString() });

/** Spends one of a token's uses (a uses= caveat is claimed atomically) and records the use. */
async function spendUse(req: Request, ctx: Ctx, scope: TokenScope, move: string): Promise<void> {
  if (scope.uses !== null && !(await ctx.tokenUses.claimUse(scope.fingerprint, scope.uses))) {
    await recordUse(req, ctx, scope, move, 'denied', 'uses_spent');
    throw spent(scope, move);
  }
  await recordUse(req, ctx, scope, move, 'allowed', null);
}

const spent = (scope: TokenScope, move: string) => new SwitchyardError('scope_denied', `this token's ${scope.uses} use(s) are spent`, { needed: move, allowed: [], uses: scope.uses });

/** A token presented only to be narrowed or looked at must still be good: a spent one is refused, without spending. */
export async function requireUnspent(ctx: Ctx, credential: Credential, move: string): Promise<void> {
  if (credential.kind !== 'token' || credential.scope.uses === null) return;
  if ((await ctx.tokenUses.usesClaimed(credential.scope.fingerprint)) >= credential.scope.uses) throw spent(credential.scope, move);
}

/** What dispatch needs to know of the caller: the policy's answer for this credential. */
export const callerOf = (credential: Credential): Caller => policyCallerOf(credential);

/** The token to carry in links built for this request (run_now, next steps), if any. */
export const linkToken = (credential: Credential): string | undefined => (credential.kind === 'token' ? credential.token : undefined);

/** Moves that exist only for the owner's API key (defined in core with every other move). */
export { OWNER_MOVES };
