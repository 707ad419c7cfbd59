// Forwarding destinations of a webhook, with the owner's key: create (the secret is shown once),
// list, change, delete; a destination's dead letters (paged) and bulk retry.
import { Router, json } from 'express';
import { SwitchyardError, forwardingView, webhookLogName } from '@switchyard/core';
import { OWNER_MOVES } from '@switchyard/http-kit';
import type { Needs } from '@switchyard/http-kit';

const param = (value: unknown): string => value as string;

function pageLimit(value: unknown): number {
  if (value === undefined) return 50;
  const n = Number(value);
  if (typeof value !== 'string' || !Number.isInteger(n) || n < 1 || n > 200) throw new SwitchyardError('invalid_request', 'limit must be an integer from 1 to 200', { field: 'limit' });
  return n;
}

type Ctx = Needs<'access' | 'apiKeys' | 'destinations' | 'logger' | 'tokenUses' | 'tokens'>;

export function destinationRoutes(ctx: Ctx): Router {
  const router = Router();
  const base = '/api/objects/webhook/:id/destinations';
  router.use(base, ctx.access.requireMove(OWNER_MOVES.manageWebhooks), json({ limit: '64kb' }));

  router.post(base, async (req, res) => {
    const created = await ctx.destinations.create(param(req.params['id']), req.body);
    ctx.logger.info('destination created', { hook: webhookLogName(created.hook_id), destination: created.id });
    res.status(201).json({ ok: true, ...(await ctx.destinations.view(created, true)) });
  });

  router.get(base, async (req, res) => {
    res.json({ ok: true, items: await ctx.destinations.views(await ctx.destinations.list(param(req.params['id']))) });
  });

  router.get(`${base}/:dst`, async (req, res) => {
    res.json({ ok: true, ...(await ctx.destinations.view(await ctx.destinations.get(param(req.params['id']), param(req.params['dst'])))) });
  });

  router.patch(`${base}/:dst`, async (req, res) => {
    const updated = await ctx.destinations.update(param(req.params['id']), param(req.params['dst']), req.body);
    ctx.logger.info('destination changed', { hook: webhookLogName(updated.hook_id), destination: updated.id, fields: Object.keys(req.body ?? {}) });
    res.json({ ok: true, ...(await ctx.destinations.view(updated)) });
  });

  router.delete(`${base}/:dst`, async (req, res) => {
    const removed = await ctx.destinations.remove(param(req.params['id']), param(req.params['dst']));
    ctx.logger.info('destination deleted', { hook: webhookLogName(removed.hook_id), destination: removed.id });
    res.json({ ok: true, ...(await ctx.destinations.view(removed)) });
  });

  router.get(`${base}/:dst/dead`, async (req, res) => {
    const after = req.query['after'];
    if (after !== undefined && (typeof after !== 'string' || !/^\d{1,18}$/.test(after))) throw new SwitchyardError('invalid_request', 'after must be the next_cursor of an earlier page', { field: 'after' });
    const page = await ctx.destinations.dead(param(req.params['id']), param(req.params['dst']), (after as string | undefined) ?? null, pageLimit(req.query['limit']));
    res.json({ ok: true, items: page.items.map((j) => ({ entry: j.delivery, ...forwardingView(j) })), next_cursor: page.next_cursor });
  });

  router.post(`${base}/:dst/retry`, async (req, res) => {
    const requeued = await ctx.destinations.retry(param(req.params['id']), param(req.params['dst']), req.body);
    ctx.logger.info('dead letters re-forwarded', { hook: webhookLogName(String(req.params['id'])), destination: req.params['dst'], requeued });
    res.json({ ok: true, requeued });
  });

  // A new secret, shown this once; the old one signs too until the grace ends.
  router.post(`${base}/:dst/rotate-secret`, async (req, res) => {
    const rotated = await ctx.destinations.rotateSecret(param(req.params['id']), param(req.params['dst']), req.body);
    ctx.logger.info('destination secret rotated', { hook: webhookLogName(rotated.hook_id), destination: rotated.id, grace_until: rotated.previous_secret_until });
    res.json({ ok: true, ...(await ctx.destinations.view(rotated, true)) });
  });

  return router;
}
