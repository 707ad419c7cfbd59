// Who a request is, and whether it may make the move it asks for. Three credentials:
//   the owner's API key (x-sheets-key)      → every move;
//   a share token (share= or Bearer)         → the moves its caveats allow;
//   nothing                                  → the public moves (contract:read, confirm:read).
// A bad key or token is an error, never a fall-back to a weaker credential, and a denial names
// exactly what was needed. Every use of a token, allowed or denied, is written to the ledger under
// the token's fingerprint; a uses= caveat is claimed atomically before the move is allowed.
import type { Request } from 'express';
import { PUBLIC_MOVES, SwitchyardError, allowedMoves, isOwnerIssued, randomId, scopeAllows, type Caller, type TokenScope } from '@switchyard/core';
import { API_KEY_HEADER } from './api-key.js';
import type { HttpContext } from './context.js';

export type Credential = { kind: 'owner' } | { kind: 'token'; token: string; scope: TokenScope } | { kind: 'public' };

const RESOLVED = Symbol('switchyard.credential');
type WithCredential = Request & { [RESOLVED]?: Promise<Credential> };

/** The share token a request presents: share=<TOKEN> or Authorization: Bearer <TOKEN>. */
export function presentedToken(req: Request): string | null {
  const share = req.query['share'];
  if (Array.isArray(share)) throw new SwitchyardError('invalid_request', 'give share= once');
  const bearer = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '')?.[1] ?? null;
  if (typeof share === 'string' && bearer && share !== bearer) throw new SwitchyardError('invalid_request', 'share= and the Bearer token differ; send one token');
  return typeof share === 'string' ? share : bearer;
}

/** Resolves (once per request) the credential; throws for a bad key or a corrupted or expired token. */
export function credentialOf(req: Request, ctx: HttpContext): Promise<Credential> {
  const r = req as WithCredential;
  r[RESOLVED] ??= (async (): Promise<Credential> => {
    const key = req.get(API_KEY_HEADER);
    if (key !== undefined) {
      if (!(await ctx.apiKeys.verify(key))) throw new SwitchyardError('invalid_api_key', `the key in ${API_KEY_HEADER} is not a valid API key`, { header: API_KEY_HEADER });
      return { kind: 'owner' };
    }
    const token = presentedToken(req);
    if (token !== null) return { kind: 'token', token, scope: ctx.tokens.verify(token) };
    return { kind: 'public' };
  })();
  return r[RESOLVED];
}

/** The route as recorded with a token use: method and path, never the query (it holds the token). */
const routeOf = (req: Request) => `${req.method} ${req.path}`;

/**
 * Checks that the request's credential allows `move` and answers the credential. Owner-only
 * moves (webhook management, minting wide tokens) are simply moves no token can carry.
 */
export async function authorize(req: Request, ctx: HttpContext, move: string): Promise<Credential> {
  const credential = await credentialOf(req, ctx);
  if (credential.kind === 'owner') return credential;
  if (credential.kind === 'public') {
    if (PUBLIC_MOVES.includes(move)) return credential;
    throw new SwitchyardError('credential_required', `${move} needs a credential: a share token (share= or Authorization: Bearer) or the owner's API key`, {
      needed: move,
      allowed: [...PUBLIC_MOVES],
      start: '/start',
    });
  }
  const { scope } = credential;
  const use = (outcome: 'allowed' | 'denied', code: string | null) =>
    ctx.tokenUses.record({ id: randomId('use_', 20), fingerprint: scope.fingerprint, move, outcome, code, route: routeOf(req), at: new Date().toISOString() });
  if (!scopeAllows(scope, move)) {
    await use('denied', 'scope_denied');
    throw new SwitchyardError('scope_denied', `this token does not allow ${move}`, { needed: move, allowed: allowedMoves(scope) });
  }
  if (scope.uses !== null && !(await ctx.tokenUses.claimUse(scope.fingerprint, scope.uses))) {
    await use('denied', 'uses_spent');
    throw new SwitchyardError('scope_denied', `this token's ${scope.uses} use(s) are spent`, { needed: move, allowed: [], uses: scope.uses });
  }
  await use('allowed', null);
  return credential;
}

/** What dispatch needs to know of the caller. Tokens never run auth-required capabilities. */
export function callerOf(credential: Credential): Caller {
  if (credential.kind === 'owner') return { actor: 'owner', fingerprint: null, mayRunAuthRequired: true };
  // Tokens the owner minted may ask for auth-required runs (which then wait for approval where the
  // capability needs it); tokens minted keyless never may. The issuer is in the signed token id.
  if (credential.kind === 'token') return { actor: credential.scope.actor ?? `token:${credential.scope.fingerprint}`, fingerprint: credential.scope.fingerprint, mayRunAuthRequired: isOwnerIssued(credential.scope) };
  return { actor: 'public', fingerprint: null, mayRunAuthRequired: false };
}

/** The token to carry in links built for this request (run_now, next steps), if any. */
export const linkToken = (credential: Credential): string | undefined => (credential.kind === 'token' ? credential.token : undefined);

/** Middleware: the route's move must be allowed. Routes only the owner may use name a move no token carries. */
export const needs =
  (ctx: HttpContext, move: string): import('express').RequestHandler =>
  async (req, _res, next) => {
    await authorize(req, ctx, move);
    next();
  };

/** Moves that exist only for the owner's API key: no token is ever minted with them. */
export const OWNER_MOVES = { manageWebhooks: 'webhook:manage', readDeliveries: 'deliveries:read', mintTokens: 'token:mint', decideApprovals: 'approval:decide', manageUpstreams: 'upstream:manage', publishArticles: 'article:publish' } as const;
