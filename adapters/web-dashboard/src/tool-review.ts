// The owner's review of held tools in the dashboard: the same holds, diffs and approval as
// /api/tools, for the signed-in owner (approvals CSRF-checked; failures answer as pages with the API's codes).
import { Router, urlencoded, type ErrorRequestHandler, type Request, type Response } from 'express';
import { DEFINITION_HASH_PATTERN, KEY_PATTERN, SwitchyardError } from '@switchyard/core';
import type { Needs } from '@switchyard/http-kit';
import { html, page, statusFor, type Html } from '@switchyard/http-kit';
import { heldToolsBody } from './pages/tools.js';

type Ctx = Needs<'access' | 'logger' | 'upstreams'>;

export function toolReviewRoutes(ctx: Ctx): Router {
  const router = Router();
  const sessions = ctx.access.sessions;
  const signedIn = ctx.access.requireOwnerSession();

  const send = (req: Request, res: Response, title: string, body: Html, status = 200): void => {
    const session = sessions.of(req);
    res.status(status).type('html').set('cache-control', 'no-store').send(page({ title, section: 'upstreams', signedIn: session !== null, ...(session ? { csrf: sessions.csrfToken(session) } : {}) }, body));
  };

  router.get('/dashboard/tools', signedIn, (req, res) => {
    const { tools, omitted } = ctx.upstreams.held();
    const approved = typeof req.query['approved'] === 'string' && KEY_PATTERN.test(req.query['approved']) ? req.query['approved'] : null;
    send(req, res, 'Held tools', heldToolsBody(tools.map((h) => ctx.upstreams.changes(h.key)), omitted, sessions.csrfToken(ctx.access.sessionOf(req)), approved));
  });

  router.post('/dashboard/tools/:key/approve', signedIn, urlencoded({ extended: false, limit: '4kb' }), async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (!sessions.checkCsrf(ctx.access.sessionOf(req), body['csrf'])) throw new SwitchyardError('scope_denied', 'the form is stale or forged: reload the page and try again');
    const hash = body['hash'];
    if (typeof hash !== 'string' || !DEFINITION_HASH_PATTERN.test(hash)) throw new SwitchyardError('invalid_request', 'the form names no definition hash: reload the page and try again');
    const pin = await ctx.upstreams.approve(req.params['key'] as string, hash, 'owner');
    ctx.logger.info('tool definition approved', { key: pin.key, definition_hash: pin.definition_hash, pin: pin.id, via: 'dashboard' });
    res.redirect(303, `/dashboard/tools?approved=${pin.key}`);
  });

  router.use('/dashboard/tools', ((err, req, res, next) => {
    if (!SwitchyardError.is(err)) return next(err);
    send(req, res, 'Not approved', html`<h1>${err.code}</h1><p class="message">${err.message}</p><p><a href="/dashboard/tools">Back to the held tools</a></p>`, statusFor(err.code));
  }) as ErrorRequestHandler);

  return router;
}
