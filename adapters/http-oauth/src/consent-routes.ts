// The authorization endpoint, under /dashboard because the owner's sign-in cookie is scoped there:
// GET /dashboard/oauth/authorize checks the request and shows the consent page (signing the owner
// in first), POST takes the decision (CSRF-protected) and sends the browser back to the client.
// A request that does not establish its client and exact redirect URI is an error page, never a
// redirect: there is no open redirect. The POST checks the whole request again (nothing is kept
// between the two, so any process answers either).
import { Router, urlencoded, type ErrorRequestHandler, type Request, type Response } from 'express';
import { SwitchyardError, consentChoices, type AuthorizationRequest, type RefusedAuthorization } from '@switchyard/core';
import { baseUrlOf } from '@switchyard/http-kit';
import type { Needs } from '@switchyard/http-kit';
import { page, type Html } from '@switchyard/http-kit';
import { securityHeaders } from '@switchyard/http-kit';
import { CARRIED_PARAMS, authorizationErrorBody, consentBody } from './pages.js';
import { statusFor } from '@switchyard/http-kit';
import { AUTHORIZE_PATH } from './endpoint-routes.js';
import { MCP_PATH, resourceAt, type ResourceCtx } from '@switchyard/http-kit';

type Ctx = ResourceCtx & Needs<'access' | 'logger' | 'oauth'>;

const isRefused = (r: AuthorizationRequest | RefusedAuthorization): r is RefusedAuthorization => 'error' in r;

/**
 * The dashboard's Content Security Policy with the client's redirect origin added to form-action:
 * browsers hold a form's redirect to it, and the consent form's answer is such a redirect.
 */
function allowFormTo(res: Response, redirectUri: string): void {
  const url = new URL(redirectUri);
  const target = url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
  const csp = String(res.getHeader('content-security-policy') ?? '');
  res.set('content-security-policy', csp.replace("form-action 'self'", `form-action 'self' ${target}`));
}

export function consentRoutes(ctx: Ctx): Router {
  const router = Router();
  const sessions = ctx.access.sessions;

  const send = (req: Request, res: Response, title: string, body: Html, status = 200): void => {
    const session = sessions.of(req);
    res.status(status).set('cache-control', 'no-store').type('html').send(page({ title, section: 'oauth', signedIn: session !== null, ...(session ? { csrf: sessions.csrfToken(session) } : {}) }, body));
  };

  /** Every parameter once, as text: anything else cannot be carried through the form. */
  const paramsOf = (source: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(CARRIED_PARAMS.filter((p) => source[p] !== undefined).map((p) => [p, source[p]]));

  const check = (req: Request, params: Record<string, unknown>) => {
    const base = baseUrlOf(req, ctx.publicBaseUrl);
    return ctx.oauth.checkAuthorization(params, base, `${base}${MCP_PATH}`, (url) => resourceAt(ctx, base, url));
  };

  const refuse = (req: Request, res: Response, refused: RefusedAuthorization): void => {
    if (refused.redirect) return void res.redirect(303, refused.redirect);
    send(req, res, 'Authorization refused', authorizationErrorBody(refused.error.error, refused.error.description), 400);
  };

  router.use(AUTHORIZE_PATH, securityHeaders);

  // Signing in first: the sign-in page brings the owner back to this very request.
  router.get(AUTHORIZE_PATH, ctx.access.requireOwnerSession(), async (req, res) => {
    const session = ctx.access.sessionOf(req);
    const params = paramsOf(req.query as Record<string, unknown>);
    const checked = await check(req, params);
    if (isRefused(checked)) return refuse(req, res, checked);
    allowFormTo(res, checked.redirect_uri);
    const choices = consentChoices(checked.keys, (key) => ctx.registry.get(key)?.capability);
    send(req, res, `Allow ${checked.client.name}?`, consentBody(checked, choices, params as Record<string, string>, sessions.csrfToken(session)));
  });

  // Without the session and its CSRF token, nothing is decided and nobody is redirected anywhere.
  const answering = ctx.access.requireOwnerSession({ refuse: 'sign in to the dashboard to answer an authorization request' });
  router.post(AUTHORIZE_PATH, urlencoded({ extended: false, limit: '64kb' }), answering, async (req, res) => {
    const session = ctx.access.sessionOf(req);
    const form = (req.body ?? {}) as Record<string, unknown>;
    if (!sessions.checkCsrf(session, form['csrf'])) throw new SwitchyardError('scope_denied', 'the consent form is stale or forged: go back to the application and start again');
    const decision = form['decision'];
    if (decision !== 'allow' && decision !== 'deny') throw new SwitchyardError('invalid_request', 'decision must be allow or deny');
    const checked = await check(req, paramsOf(form));
    if (isRefused(checked)) return refuse(req, res, checked);
    const ticked = form['key'] === undefined ? [] : Array.isArray(form['key']) ? form['key'].filter((k): k is string => typeof k === 'string') : [String(form['key'])];
    const to = await ctx.oauth.decide(checked, decision, ticked, baseUrlOf(req, ctx.publicBaseUrl));
    ctx.logger.info('oauth consent', { client: checked.client.id, decision, resource: checked.resource, keys: decision === 'allow' ? ticked.length : 0 });
    res.redirect(303, to);
  });

  router.use(AUTHORIZE_PATH, ((err, req, res, next) => {
    if (!SwitchyardError.is(err)) return next(err);
    send(req, res, 'Authorization refused', authorizationErrorBody(err.code, err.message), statusFor(err.code));
  }) as ErrorRequestHandler);

  return router;
}
