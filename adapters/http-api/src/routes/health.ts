// Liveness and readiness: the process answers, and the database answers and takes writes.
import { Router } from 'express';
import { SwitchyardError } from '@switchyard/core';
import { STORAGE_RETRY_AFTER_SECONDS, publicRoute, statusFor } from '@switchyard/http-kit';
import type { DatabaseHealthReading, Needs } from '@switchyard/http-kit';

/** What this module uses of the HTTP context: it receives nothing else. */
type Ctx = Needs<'databaseHealth' | 'registry'>;

/** Not ok carries the coded error, as every ok:false answer does: no answer at all, or no writes (with why). */
function errorOf(database: DatabaseHealthReading): SwitchyardError | null {
  if (database.ok) return null;
  if (database.reads === false || !database.write) return new SwitchyardError('database_unavailable', `the ${database.engine} database does not answer`);
  return new SwitchyardError('storage_unavailable', `the ${database.engine} database does not take writes (${database.write.kind ?? 'other'}): ${database.write.reason ?? 'unknown'}`, { kind: database.write.kind ?? 'other' });
}

export function healthRoutes(ctx: Ctx): Router {
  const router = Router();
  const started = Date.now();
  router.get('/healthz', publicRoute('liveness and readiness, for a load balancer that holds no key'), async (_req, res) => {
    const database: DatabaseHealthReading = await ctx.databaseHealth().catch(() => ({ ok: false, engine: 'unknown' }));
    const error = errorOf(database);
    if (error?.code === 'storage_unavailable') res.set('Retry-After', String(STORAGE_RETRY_AFTER_SECONDS));
    res.status(error ? statusFor(error.code) : 200).json({ ok: database.ok, ...(error ? { error: error.toJSON() } : {}), database, capabilities: ctx.registry.size, uptime_s: Math.round((Date.now() - started) / 1000) });
  });
  return router;
}
