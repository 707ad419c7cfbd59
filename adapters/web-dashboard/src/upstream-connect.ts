// Connecting upstreams that sign in with OAuth (authorization code): the owner presses Connect
// (signed in, CSRF-checked), is sent to the upstream's authorization server with PKCE and a
// state, and comes back to /dashboard/upstreams/<name>/callback. The session cookie is
// SameSite=Strict and so is not sent on that cross-site return: the state is bound to the browser
// that pressed Connect by a short-lived Lax cookie instead, checked against the state sent back.
import { randomBytes } from 'node:crypto';
import { Router, urlencoded, type ErrorRequestHandler, type Request, type Response } from 'express';
import { SwitchyardError } from '@switchyard/core';
import { baseUrlOf } from '@switchyard/http-kit';
import type { Needs } from '@switchyard/http-kit';
import { statusFor } from '@switchyard/http-kit';
import { html, page, type Html } from '@switchyard/http-kit';
import { cookieValue, publicRoute, safeEqual } from '@switchyard/http-kit';
import { connectedBody, continueBody, refusedBody, upstreamsBody } from './pages/upstreams.js';

type Ctx = Needs<'access' | 'logger' | 'publicBaseUrl' | 'upstreamOAuth' | 'upstreams'>;

export const CONNECT_COOKIE = 'sy_upstream_connect';
export const CONNECT_COOKIE_PATH = '/dashboard/upstreams';
const CONNECT_TTL_MS = 10 * 60_000;
const NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;

export function upstreamConnectRoutes(ctx: Ctx): Router {
  const router = Router();
  const sessions = ctx.access.sessions;

  const send = (req: Request, res: Response, title: string, body: Html, status = 200): void => {
    const session = sessions.of(req);
    res.status(status).type('html').set('cache-control', 'no-store').send(page({ title, section: 'upstreams', signedIn: session !== null, ...(session ? { csrf: sessions.csrfToken(session) } : {}) }, body));
  };

  const signedIn = ctx.access.requireOwnerSession();

  const nameOf = (req: Request): string => {
    const name = req.params['name'] as string;
    if (!NAME.test(name)) throw new SwitchyardError('upstream_not_found', `no upstream named ${JSON.stringify(name)}`);
    return name;
  };

  router.get('/dashboard/upstreams', signedIn, async (req, res) => {
    const session = ctx.access.sessionOf(req);
    const connected = typeof req.query['connected'] === 'string' && NAME.test(req.query['connected']) ? req.query['connected'] : null;
    send(req, res, 'Upstreams', upstreamsBody(await ctx.upstreamOAuth.list(), ctx.upstreams.list(), sessions.csrfToken(session), connected));
  });

  router.post('/dashboard/upstreams/:name/connect', signedIn, urlencoded({ extended: false, limit: '4kb' }), async (req, res) => {
    if (!sessions.checkCsrf(ctx.access.sessionOf(req), (req.body as Record<string, unknown> | undefined)?.['csrf'])) {
      throw new SwitchyardError('scope_denied', 'the form is stale or forged: reload the page and try again');
    }
    const name = nameOf(req);
    const state = randomBytes(32).toString('base64url');
    const redirectUri = `${baseUrlOf(req, ctx.publicBaseUrl)}/dashboard/upstreams/${name}/callback`;
    const authorizationUrl = await ctx.upstreamOAuth.begin(name, redirectUri, state);
    res.cookie(CONNECT_COOKIE, `${name}.${state}`, { httpOnly: true, sameSite: 'lax', path: CONNECT_COOKIE_PATH, secure: req.secure, maxAge: CONNECT_TTL_MS });
    ctx.logger.info('upstream connect started', { server: name, via: 'dashboard' });
    // A page rather than a redirect: the form's CSP (form-action 'self') would block a redirect to
    // another site, and the owner sees where they are about to sign in.
    send(req, res, `Connect ${name}`, continueBody(name, authorizationUrl));
  });

  router.get('/dashboard/upstreams/:name/callback', publicRoute('the upstream sends the browser back here: the connect cookie and the state decide'), async (req, res) => {
    const name = nameOf(req);
    const query = req.query as Record<string, unknown>;
    const text = (v: unknown) => (typeof v === 'string' ? v.slice(0, 500) : null);
    res.clearCookie(CONNECT_COOKIE, { path: CONNECT_COOKIE_PATH });
    const error = text(query['error']);
    if (error) {
      ctx.logger.warn('upstream connect refused by its authorization server', { server: name, error });
      return send(req, res, `Not connected: ${name}`, refusedBody(name, error, text(query['error_description'])), 400);
    }
    const state = text(query['state']);
    const code = text(query['code']);
    const bound = cookieValue(req.get('cookie'), CONNECT_COOKIE);
    if (!state || !code || !bound || !safeEqual(bound, `${name}.${state}`)) {
      throw new SwitchyardError('invalid_request', `this answer for ${name} does not belong to a connection started in this browser: press Connect again`);
    }
    // RFC 9207: the answer's iss (null when it has none) is checked against the authorization server before the code is used.
    await ctx.upstreamOAuth.complete(name, state, code, text(query['iss']));
    ctx.logger.info('upstream connected', { server: name, via: 'dashboard' });
    // Imported at once by this process; others import on their next refresh.
    await ctx.upstreams.refresh(name).catch((err: Error) => ctx.logger.warn('upstream connected but not imported; refresh to retry', { server: name, error: err.message }));
    send(req, res, `Connected ${name}`, connectedBody(name));
  });

  router.use('/dashboard/upstreams', ((err, req, res, next) => {
    if (!SwitchyardError.is(err)) return next(err);
    send(req, res, 'Not connected', html`<h1>${err.code}</h1><p class="message">${err.message}</p><p><a href="/dashboard/upstreams">Back to the upstreams</a></p>`, statusFor(err.code));
  }) as ErrorRequestHandler);

  return router;
}
