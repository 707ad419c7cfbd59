// Managing webhooks with the API key: create, list, and change name, on/off or the id path.
import { Router, json } from 'express';
import { DELIVERY_ID_PATH_PATTERN, SIGNATURE_SCHEMES, SwitchyardError, newWebhookId, webhookLogName, type SignatureSettings, type Webhook } from '@switchyard/core';
import { OWNER_MOVES } from '@switchyard/http-kit';
import { baseUrlOf } from '@switchyard/http-kit';
import type { Needs } from '@switchyard/http-kit';
import { presentWebhook } from '@switchyard/http-kit';

/** What this module uses of the HTTP context: it receives nothing else. */
type Ctx = Needs<'access' | 'apiKeys' | 'logger' | 'publicBaseUrl' | 'tokenUses' | 'tokens' | 'webhooks'>;

const FIELDS = new Set(['name', 'delivery_id_path', 'on', 'signature']);
type Changes = Partial<Pick<Webhook, 'name' | 'on' | 'delivery_id_path' | 'signature'>>;

/** {scheme, secret, header?, require?} or null to remove it. */
function readSignature(value: unknown): SignatureSettings | null {
  if (value === null) return null;
  const bad = (why: string) => new SwitchyardError('invalid_request', `signature ${why}; send {scheme, secret, header?, require?} or null`, { schemes: SIGNATURE_SCHEMES });
  if (typeof value !== 'object' || Array.isArray(value)) throw bad('must be an object');
  const v = value as Record<string, unknown>;
  const extra = Object.keys(v).filter((k) => !['scheme', 'secret', 'header', 'require'].includes(k));
  if (extra.length > 0) throw bad(`has unknown field(s) ${extra.join(', ')}`);
  if (!SIGNATURE_SCHEMES.includes(v['scheme'] as (typeof SIGNATURE_SCHEMES)[number])) throw bad(`scheme must be one of ${SIGNATURE_SCHEMES.join(', ')}`);
  if (typeof v['secret'] !== 'string' || v['secret'].length < 8 || v['secret'].length > 500) throw bad('secret must be a string of 8 to 500 characters');
  if (v['header'] !== undefined && (typeof v['header'] !== 'string' || !/^[A-Za-z0-9-]{1,100}$/.test(v['header']))) throw bad('header must be a header name');
  if (v['require'] !== undefined && typeof v['require'] !== 'boolean') throw bad('require must be true or false');
  return { scheme: v['scheme'] as SignatureSettings['scheme'], secret: v['secret'], header: (v['header'] as string | undefined) ?? null, require: (v['require'] as boolean | undefined) ?? false };
}

function readChanges(payload: unknown, creating: boolean): Changes {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw new SwitchyardError('invalid_request', 'send a JSON object, e.g. {"name": "github"}');
  const p = payload as Record<string, unknown>;
  const extra = Object.keys(p).filter((k) => !FIELDS.has(k) || (creating && k === 'on'));
  if (extra.length > 0) throw new SwitchyardError('invalid_request', `unknown field(s) ${extra.join(', ')}`, { fields: extra });
  const out: Changes = {};
  if (p['name'] !== undefined || creating) {
    if (typeof p['name'] !== 'string' || p['name'].trim().length === 0 || p['name'].length > 200) throw new SwitchyardError('invalid_request', 'name must be a non-empty string of at most 200 characters');
    out.name = p['name'];
  }
  if (p['delivery_id_path'] !== undefined) {
    const path = p['delivery_id_path'];
    if (path !== null && (typeof path !== 'string' || !DELIVERY_ID_PATH_PATTERN.test(path))) {
      throw new SwitchyardError('invalid_request', 'delivery_id_path must be a body path like data.object.id, or header:<name>, or null');
    }
    out.delivery_id_path = path as string | null;
  }
  if (p['signature'] !== undefined) out.signature = readSignature(p['signature']);
  if (p['on'] !== undefined) {
    if (typeof p['on'] !== 'boolean') throw new SwitchyardError('invalid_request', 'on must be true or false');
    out.on = p['on'];
  }
  return out;
}

export function webhookRoutes(ctx: Ctx): Router {
  const router = Router();
  const base = '/api/objects/webhook';
  router.use(base, ctx.access.requireMove(OWNER_MOVES.manageWebhooks), json({ limit: '64kb' }));

  router.post(base, async (req, res) => {
    const changes = readChanges(req.body, true);
    const now = new Date().toISOString();
    const webhook = await ctx.webhooks.create({
      id: newWebhookId(),
      name: changes.name!,
      on: true,
      delivery_id_path: changes.delivery_id_path ?? null,
      signature: changes.signature ?? null,
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
    const changes = readChanges(req.body, false);
    if (Object.keys(changes).length === 0) throw new SwitchyardError('invalid_request', 'nothing to change: send on, name or delivery_id_path');
    const webhook = await ctx.webhooks.update(req.params['id'] as string, changes, new Date().toISOString());
    if (!webhook) throw new SwitchyardError('webhook_not_found', `no webhook ${req.params['id']}`);
    ctx.logger.info('webhook changed', { hook: webhookLogName(webhook.id), fields: Object.keys(changes) });
    res.json({ ok: true, ...presentWebhook(webhook, baseUrlOf(req, ctx.publicBaseUrl)) });
  });

  return router;
}
