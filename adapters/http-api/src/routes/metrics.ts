// GET /metrics: the Prometheus text exposition. The owner's API key unless config makes it public
// (metrics.public), for a scraper on a trusted network that holds no key.
import { Router } from 'express';
import { checkApiKey } from '@switchyard/http-kit';
import type { Needs } from '@switchyard/http-kit';

/** What this module uses of the HTTP context: it receives nothing else. */
type Ctx = Needs<'apiKeys' | 'metrics' | 'metricsPublic'>;

export function metricsRoutes(ctx: Ctx): Router {
  const router = Router();
  router.get('/metrics', async (req, res) => {
    if (!ctx.metricsPublic) await checkApiKey(req, ctx.apiKeys);
    const { contentType, text } = await ctx.metrics.exposition();
    res.setHeader('cache-control', 'no-store');
    res.type(contentType).send(text);
  });
  return router;
}
