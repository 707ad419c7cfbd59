// The owner's run-time allowlist of forwarding destinations on internal addresses, kept in the
// database beside webhooks.forwarding.allow: list, add and take away entries (host or host:port).
import { Router, json } from 'express';
import { OWNER_MOVES } from '@switchyard/http-kit';
import type { Needs } from '@switchyard/http-kit';

type Ctx = Needs<'access' | 'apiKeys' | 'forwardAllowlist' | 'logger' | 'tokenUses' | 'tokens'>;

export function forwardingAllowRoutes(ctx: Ctx): Router {
  const router = Router();
  const path = '/api/forwarding/allow';
  router.use(path, ctx.access.requireMove(OWNER_MOVES.manageWebhooks), json({ limit: '4kb' }));

  router.get(path, async (_req, res) => {
    res.json({ ok: true, items: await ctx.forwardAllowlist.list() });
  });

  router.post(path, async (req, res) => {
    const { host, added } = await ctx.forwardAllowlist.allow(req.body);
    ctx.logger.info('forwarding allowlist: host admitted', { host, added });
    res.status(added ? 201 : 200).json({ ok: true, host, added });
  });

  router.delete(path, async (req, res) => {
    const { host } = await ctx.forwardAllowlist.disallow(req.body);
    ctx.logger.info('forwarding allowlist: host taken away', { host });
    res.json({ ok: true, host, removed: true });
  });

  return router;
}
