// The owner's view of OAuth: GET /api/oauth/clients (every client with its grants) and
// DELETE /api/oauth/grants/<id> with the API key, and the same on the dashboard's OAuth page.
import { Router, urlencoded, type ErrorRequestHandler, type Request } from 'express';
import { SwitchyardError, type ClientWithGrants, type OAuthGrant } from '@switchyard/core';
import type { Needs } from '@switchyard/http-kit';
import { OWNER_MOVES } from '@switchyard/http-kit';
import { html, page } from '@switchyard/http-kit';
import { oauthClientsBody } from './pages.js';
import { securityHeaders } from '@switchyard/http-kit';
import { statusFor } from '@switchyard/http-kit';

type Ctx = Needs<'access' | 'apiKeys' | 'logger' | 'oauth' | 'tokenUses' | 'tokens'>;

/** A client as the owner sees it: never its secret's hash. */
const clientView = ({ client, grants }: ClientWithGrants) => {
  const { secret_hash: _hash, ...rest } = client;
  return { ...rest, grants: grants.map(grantView) };
};
const grantView = (g: OAuthGrant) => ({ ...g, live: g.revoked_at === null });

export function oauthManagementRoutes(ctx: Ctx): Router {
  const router = Router();
  const sessions = ctx.access.sessions;

  router.get('/api/oauth/clients', ctx.access.requireMove(OWNER_MOVES.manageOAuth), async (_req, res) => {
    const list = await ctx.oauth.list();
    res.json({ ok: true, count: list.length, clients: list.map(clientView) });
  });

  router.delete('/api/oauth/grants/:id', ctx.access.requireMove(OWNER_MOVES.manageOAuth), async (req, res) => {
    const grant = await ctx.oauth.revoke(req.params['id'] as string);
    ctx.logger.info('oauth grant revoked', { grant: grant.id, client: grant.client_id, via: 'api' });
    res.json({ ok: true, grant: grantView(grant) });
  });

  const signedIn = ctx.access.requireOwnerSession();
  const sessionOf = (req: Request) => ctx.access.sessionOf(req);

  router.use('/dashboard/oauth', securityHeaders);

  router.get('/dashboard/oauth', signedIn, async (req, res) => {
    const csrf = sessions.csrfToken(sessionOf(req));
    res.type('html').send(page({ title: 'OAuth clients', section: 'oauth', signedIn: true, csrf }, oauthClientsBody(await ctx.oauth.list(), csrf)));
  });

  router.post('/dashboard/oauth/grants/:id/revoke', signedIn, urlencoded({ extended: false, limit: '4kb' }), async (req, res) => {
    if (!sessions.checkCsrf(sessionOf(req), (req.body as Record<string, unknown> | undefined)?.['csrf'])) throw new SwitchyardError('scope_denied', 'the form is stale or forged: reload the page and try again');
    const grant = await ctx.oauth.revoke(req.params['id'] as string);
    ctx.logger.info('oauth grant revoked', { grant: grant.id, client: grant.client_id, via: 'dashboard' });
    res.redirect(303, '/dashboard/oauth');
  });

  router.use('/dashboard/oauth', ((err, req, res, next) => {
    if (!SwitchyardError.is(err)) return next(err);
    const session = sessions.of(req);
    res.status(statusFor(err.code)).type('html').send(page({ title: 'Not here', section: 'oauth', signedIn: session !== null, ...(session ? { csrf: sessions.csrfToken(session) } : {}) }, html`<h1>${err.code}</h1><p class="message">${err.message}</p><p><a href="/dashboard/oauth">Back to the OAuth clients</a></p>`));
  }) as ErrorRequestHandler);

  return router;
}
