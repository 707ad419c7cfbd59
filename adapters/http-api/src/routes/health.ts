// Liveness and readiness: the process answers and the database answers.
import { Router } from 'express';
import { SwitchyardError } from '@switchyard/core';
import { publicRoute, statusFor } from '@switchyard/http-kit';
import type { Needs } from '@switchyard/http-kit';

/** What this module uses of the HTTP context: it receives nothing else. */
type Ctx = Needs<'databaseHealth' | 'registry'>;

export function healthRoutes(ctx: Ctx): Router {
  const router = Router();
  const started = Date.now();
  router.get('/healthz', publicRoute('liveness and readiness, for a load balancer that holds no key'), async (_req, res) => {
    const database = await ctx.databaseHealth().catch(() => ({ ok: false, engine: 'unknown' }));
    // Not ok carries the coded error, as every ok:false answer does.
    const error = database.ok ? {} : { error: new SwitchyardError('database_unavailable', `the ${database.engine} database does not answer`).toJSON() };
    res.status(database.ok ? 200 : statusFor('database_unavailable')).json({ ok: database.ok, ...error, database, capabilities: ctx.registry.size, uptime_s: Math.round((Date.now() - started) / 1000) });
  });
  return router;
}
