// Imported MCP servers, for the owner's API key: list them, and import one's tools again.
import { Router } from 'express';
import { OWNER_MOVES, needs } from '../credentials.js';
import type { Needs } from '../context.js';

/** What this module uses of the HTTP context: it receives nothing else. */
type Ctx = Needs<'apiKeys' | 'tokenUses' | 'tokens' | 'upstreams'>;

export function upstreamRoutes(ctx: Ctx): Router {
  const router = Router();
  router.use('/api/upstreams', needs(ctx, OWNER_MOVES.manageUpstreams));

  router.get('/api/upstreams', (_req, res) => {
    res.json({ ok: true, items: ctx.upstreams.list() });
  });

  // A failed refresh answers the upstream's coded error (502/504) and keeps the set it had.
  router.post('/api/upstreams/:name/refresh', async (req, res) => {
    res.json(await ctx.upstreams.refresh(req.params['name']!));
  });

  return router;
}
