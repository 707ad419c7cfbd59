// Access declared where a route is declared: each guard is a handler that carries its declaration
// (read back by accessOf, so a test lists every mounted route with its access), and every decision
// is the one access policy's (core access-policy.ts). No handler asks the policy itself.
import type { Request, RequestHandler } from 'express';
import { SwitchyardError, callerOf, judgeRun, runDenial, type ApiKeyStore, type Caller, type Capability, type StoredInvocation, type TokenIssuer, type TokenUseStore } from '@switchyard/core';
import { baseUrlOf } from './base-url.js';
import { authorize, credentialOf, settle, type Credential } from './credentials.js';
import type { DashboardSession, DashboardSessions } from './dashboard-session.js';

/** What a route declares about who may use it. */
export type DeclaredAccess =
  /** A move the request's credential must be allowed (an owner-only move for the owner's routes); `when` if only some requests need it. */
  | { kind: 'move'; move: string; when?: string }
  /** The owner signed in to the dashboard (the session cookie). */
  | { kind: 'owner-session' }
  /** Anyone, and why. */
  | { kind: 'public'; why: string }
  /** Runs capabilities: a good credential, then each run's invoke:<KEY> judged once (admitRun), where its key is known. */
  | { kind: 'run'; what: string }
  /** One path, a move per query verb (GET /api/dispatch); null where the verb's handler judges a run or mints. */
  | { kind: 'verbs'; moves: Record<string, string | null>; narrower?: Record<string, string> };

const ACCESS = Symbol.for('switchyard.declaredAccess');

export type AccessGuard = RequestHandler & { [ACCESS]: DeclaredAccess };

/** Makes a handler a guard that declares `access` (for a face whose guard does more at its door, as the MCP faces' does). */
export const declareAccess = (access: DeclaredAccess, handler: RequestHandler): AccessGuard => Object.assign(handler, { [ACCESS]: access });

/** The access a handler declares, if it is a guard. */
export const accessOf = (handler: unknown): DeclaredAccess | undefined => (typeof handler === 'function' ? (handler as Partial<AccessGuard>)[ACCESS] : undefined);

/** A route anyone may use; `why` says so where the route is declared. */
export const publicRoute = (why: string): AccessGuard => declareAccess({ kind: 'public', why }, (_req, _res, next) => next());

/** The invocation a move is checked against (the policy's ownership rule), when the request names one. */
export type InvocationObject = { id: string; invocation: StoredInvocation | undefined };

/** A run let through: the credential, and who it is to dispatch. */
export interface Admitted {
  credential: Credential;
  caller: Caller;
}

/** The credential a guard let through (requireRun, requireVerb; undefined where a verb declares no move). */
export const runCredential = (res: { locals: Record<string, unknown> }): Credential | undefined => res.locals['credential'] as Credential | undefined;

const SESSION = Symbol('switchyard.ownerSession');
type Signed = Request & { [SESSION]?: DashboardSession };

/** The guards of one service, over its keys, tokens and their uses, and its one owner-session service. */
export class RouteAccess {
  constructor(
    private readonly stores: { apiKeys: ApiKeyStore; tokens: TokenIssuer; tokenUses: TokenUseStore },
    /** The dashboard's signed sessions: one service for every face that serves the owner's pages. */
    readonly sessions: DashboardSessions,
    private readonly publicBaseUrl: string | null,
  ) {}

  /** The route needs `move` (moves.ts in core); with `when`, only the requests it picks do. */
  requireMove(move: string, when?: { why: string; applies: (req: Request) => boolean }): AccessGuard {
    return declareAccess({ kind: 'move', move, ...(when ? { when: when.why } : {}) }, async (req, _res, next) => {
      if (!when || when.applies(req)) await authorize(req, this.stores, move);
      next();
    });
  }

  /**
   * One path, one move per query verb: `verbOf` names the request's verb (refusing none or several),
   * `objectOf` the invocation it reads. A verb without a move passes (its handler judges a run or mints).
   * `narrowerFor` names, for the values that need it, a move other than the verb's own (a receipt
   * of a delivery needs deliveries:read, not receipt:read): still declared here, still the policy's.
   */
  requireVerb<V extends string>(
    moves: Record<V, string | null>,
    verbOf: (req: Request) => V,
    objectOf: (req: Request, verb: V, value: string) => Promise<InvocationObject | undefined>,
    narrowerFor: Partial<Record<V, { why: string; moveOf: (value: string) => string | undefined }>> = {},
  ): AccessGuard {
    const narrower = Object.fromEntries(Object.entries(narrowerFor).map(([verb, rule]) => [verb, (rule as { why: string }).why]));
    return declareAccess({ kind: 'verbs', moves, ...(Object.keys(narrower).length ? { narrower } : {}) }, async (req, res, next) => {
      const verb = verbOf(req);
      const move = narrowerFor[verb]?.moveOf(String(req.query[verb])) ?? moves[verb];
      if (move !== null) {
        const object = await objectOf(req, verb, String(req.query[verb]));
        res.locals['credential'] = await authorize(req, this.stores, move, object);
        res.locals['object'] = object;
      }
      next();
    });
  }

  /** The owner's dashboard session: without one, to the sign-in page and back to this request (or, for a form's answer, `refuse`). */
  requireOwnerSession(options: { refuse?: string } = {}): AccessGuard {
    return declareAccess({ kind: 'owner-session' }, (req, res, next) => {
      const session = this.sessions.of(req);
      if (!session) {
        if (options.refuse) throw new SwitchyardError('credential_required', options.refuse);
        return res.redirect(303, `/dashboard/login?next=${encodeURIComponent(req.originalUrl)}`);
      }
      (req as Signed)[SESSION] = session;
      next();
    });
  }

  /** The session requireOwnerSession let through. */
  sessionOf(req: Request): DashboardSession {
    const session = (req as Signed)[SESSION];
    if (!session) throw new Error('sessionOf: the route declares no requireOwnerSession()');
    return session;
  }

  /**
   * The route runs capabilities: a bad key or token is refused here, before the body is read;
   * `atTheDoor` refuses the public credential here too (routes that only run). Each run is then
   * judged once, by admitRun, where its key is known.
   */
  requireRun(what: string, options: { atTheDoor?: boolean } = {}): AccessGuard {
    return declareAccess({ kind: 'run', what }, async (req, res, next) => {
      const credential = await credentialOf(req, this.stores);
      if (options.atTheDoor) {
        const denial = runDenial(credential, what, `${baseUrlOf(req, this.publicBaseUrl)}/start`);
        if (denial) throw denial;
      }
      res.locals['credential'] = credential;
      next();
    });
  }

  /**
   * The one judgment of a run (core's judgeRun): may `credential` run `capability` (null: no such
   * key), on `object` when it replays or repairs one? A token's use is recorded, and spent when
   * allowed. Answers who the run is for.
   */
  async admitRun(req: Request, credential: Credential, what: string, capability: Pick<Capability, 'key'> | null, object?: InvocationObject): Promise<Admitted> {
    const denial = judgeRun(credential, capability, object, what, `${baseUrlOf(req, this.publicBaseUrl)}/start`);
    if (capability) await settle(req, this.stores, credential, `invoke:${capability.key}`, denial);
    else if (denial) throw denial;
    return { credential, caller: callerOf(credential) };
  }
}
