// GET /api/ledger?event=webhook%20delivery: deliveries whole, newest first, with the API key.
import { Router } from 'express';
import { DELIVERY_EVENT, SwitchyardError, WEBHOOK_ID_PATTERN } from '@switchyard/core';
import { OWNER_MOVES, needs } from '../credentials.js';
import type { HttpContext } from '../context.js';
import { parseCursor, parseLimit } from '../paging.js';
import { presentDelivery } from '../webhook-presenters.js';

const EVENTS = [DELIVERY_EVENT];

export function ledgerRoutes(ctx: HttpContext): Router {
  const router = Router();
  // Deliveries carry webhook addresses (the secret): the owner's only.
  router.use('/api/ledger', needs(ctx, OWNER_MOVES.readDeliveries));

  router.get('/api/ledger', async (req, res) => {
    const event = req.query['event'];
    if (typeof event !== 'string' || !EVENTS.includes(event)) {
      throw new SwitchyardError('invalid_request', `event must be one of: ${EVENTS.join(', ')} (e.g. ?event=webhook%20delivery)`, { events: EVENTS });
    }
    const hook = req.query['hook'];
    if (hook !== undefined && (typeof hook !== 'string' || !WEBHOOK_ID_PATTERN.test(hook))) throw new SwitchyardError('invalid_request', 'hook must be a webhook id (hk_ + 12 letters and digits)');
    const before = parseCursor(req.query['before'], 'before');
    const limit = parseLimit(req.query['limit']);
    // A webhook that does not exist has no deliveries: say so rather than answer an empty page.
    if (hook && !(await ctx.webhooks.get(hook as string))) throw new SwitchyardError('webhook_not_found', `no webhook ${hook as string}`);
    const page = await ctx.deliveries.list({ ...(hook ? { hookId: hook as string } : {}), before, limit });
    res.json({ ok: true, event, order: 'newest first', items: page.items.map(presentDelivery), next_cursor: page.next_cursor });
  });

  router.get('/api/ledger/:entry', async (req, res) => {
    const delivery = await ctx.deliveries.get(req.params['entry'] as string);
    if (!delivery) throw new SwitchyardError('not_found', `no ledger entry ${req.params['entry']}`);
    res.json({ ok: true, entry: presentDelivery(delivery) });
  });

  return router;
}
