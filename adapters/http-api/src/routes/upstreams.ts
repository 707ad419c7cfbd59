// Imported MCP servers, for the owner's API key: list them, and import one's tools again.
import { Router } from 'express';
import { OWNER_MOVES } from '@switchyard/http-kit';
import type { Needs } from '@switchyard/http-kit';

/** What this module uses of the HTTP context: it receives nothing else. */
type Ctx = Needs<'access' | 'apiKeys' | 'tokenUses' | 'tokens' | 'upstreams' | 'upstreamOAuth'>;

export function upstreamRoutes(ctx: Ctx): Router {
  const router = Router();
  router.use('/api/upstreams', ctx.access.requireMove(OWNER_MOVES.manageUpstreams));

  // A server that signs in with OAuth also says its grant and sign-in state (never a token).
  router.get('/api/upstreams', async (_req, res) => {
    const oauth = new Map((await ctx.upstreamOAuth.list()).map(({ name, ...state }) => [name, state]));
    res.json({ ok: true, items: ctx.upstreams.list().map((u) => (oauth.has(u.name) ? { ...u, oauth: oauth.get(u.name) } : u)) });
  });

  // A failed refresh answers the upstream's coded error (502/504) and keeps the set it had.
  router.post('/api/upstreams/:name/refresh', async (req, res) => {
    res.json(await ctx.upstreams.refresh(req.params['name']!));
  });

  return router;
}
