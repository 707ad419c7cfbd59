// Managing webhooks with the API key: create, list, and change name, on/off, the id and event-type paths or the signature check.
import { Router, json } from 'express';
import { SwitchyardError, newWebhookId, readWebhookChanges, webhookLogName } from '@switchyard/core';
import { OWNER_MOVES } from '@switchyard/http-kit';
import { baseUrlOf } from '@switchyard/http-kit';
import type { Needs } from '@switchyard/http-kit';
import { presentWebhook } from '@switchyard/http-kit';

/** What this module uses of the HTTP context: it receives nothing else. */
type Ctx = Needs<'access' | 'apiKeys' | 'logger' | 'publicBaseUrl' | 'tokenUses' | 'tokens' | 'webhooks'>;

export function webhookRoutes(ctx: Ctx): Router {
  const router = Router();
  const base = '/api/objects/webhook';
  router.use(base, ctx.access.requireMove(OWNER_MOVES.manageWebhooks), json({ limit: '64kb' }));

  router.post(base, async (req, res) => {
    const changes = readWebhookChanges(req.body, true);
    const now = new Date().toISOString();
    const webhook = await ctx.webhooks.create({
      id: newWebhookId(),
      name: changes.name!,
      on: true,
      delivery_id_path: changes.delivery_id_path ?? null,
      event_type_path: changes.event_type_path ?? null,
      signature: changes.signature ?? null,
      retention_private_days: changes.retention_private_days ?? null,
      created_at: now,
      updated_at: now,
    });
    ctx.logger.info('webhook created', { hook: webhookLogName(webhook.id), name: webhook.name });
    res.status(201).json({ ok: true, ...presentWebhook(webhook, baseUrlOf(req, ctx.publicBaseUrl)) });
  });

  router.get(base, async (req, res) => {
    const baseUrl = baseUrlOf(req, ctx.publicBaseUrl);
    res.json({ ok: true, items: (await ctx.webhooks.list()).map((w) => presentWebhook(w, baseUrl)) });
  });

  router.get(`${base}/:id`, async (req, res) => {
    const webhook = await ctx.webhooks.get(req.params['id'] as string);
    if (!webhook) throw new SwitchyardError('webhook_not_found', `no webhook ${req.params['id']}`);
    res.json({ ok: true, ...presentWebhook(webhook, baseUrlOf(req, ctx.publicBaseUrl)) });
  });

  router.patch(`${base}/:id`, async (req, res) => {
    const changes = readWebhookChanges(req.body, false);
    if (Object.keys(changes).length === 0) throw new SwitchyardError('invalid_request', 'nothing to change: send on, name, delivery_id_path, event_type_path, signature or retention_private_days');
    const webhook = await ctx.webhooks.update(req.params['id'] as string, changes, new Date().toISOString());
    if (!webhook) throw new SwitchyardError('webhook_not_found', `no webhook ${req.params['id']}`);
    ctx.logger.info('webhook changed', { hook: webhookLogName(webhook.id), fields: Object.keys(changes) });
    res.json({ ok: true, ...presentWebhook(webhook, baseUrlOf(req, ctx.publicBaseUrl)) });
  });

  return router;
}
