// Liveness and readiness: the process answers and the database answers.
import { Router } from 'express';
import type { HttpContext } from '../context.js';

export function healthRoutes(ctx: HttpContext): Router {
  const router = Router();
  const started = Date.now();
  router.get('/healthz', async (_req, res) => {
    const database = await ctx.databaseHealth().catch(() => ({ ok: false, engine: 'unknown' }));
    res.status(database.ok ? 200 : 503).json({ ok: database.ok, database, capabilities: ctx.registry.size, uptime_s: Math.round((Date.now() - started) / 1000) });
  });
  return router;
}
