// GET /metrics: the Prometheus text exposition. The owner's move metrics:read (asked of the access
// policy like every other) unless config makes it public (metrics.public), for a scraper on a
// trusted network that holds no key.
import { Router } from 'express';
import { OWNER_MOVES, publicRoute } from '@switchyard/http-kit';
import type { Needs } from '@switchyard/http-kit';

/** What this module uses of the HTTP context: it receives nothing else. */
type Ctx = Needs<'access' | 'metrics' | 'metricsPublic'>;

export function metricsRoutes(ctx: Ctx): Router {
  const router = Router();
  const access = ctx.metricsPublic ? publicRoute('metrics.public: a scraper on a trusted network holds no key') : ctx.access.requireMove(OWNER_MOVES.readMetrics);
  router.get('/metrics', access, async (_req, res) => {
    const { contentType, text } = await ctx.metrics.exposition();
    res.setHeader('cache-control', 'no-store');
    res.type(contentType).send(text);
  });
  return router;
}
