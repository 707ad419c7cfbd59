// GET /api/ledger: deliveries and invocations, paged by the ledger listings' rule within a byte
// budget, bodies over the inline threshold left out; one delivery; a delivery's raw body. API key.
import { Router, json } from 'express';
import { DELIVERY_EVENT, INVOCATION_EVENT, KEY_PATTERN, MAX_EVENT_TYPES_COUNTED, MAX_EVENT_TYPE_LENGTH, SwitchyardError, WEBHOOK_ID_PATTERN, canonicalKey, erasableKindOf, erasureOf, erasureReason, fillPage, invocationView, type ForwardingView, type LedgerPageRequest } from '@switchyard/core';
import { baseUrlOf } from '@switchyard/http-kit';
import { OWNER_MOVES, credentialOf } from '@switchyard/http-kit';
import type { Needs } from '@switchyard/http-kit';
import { streamDeliveryBody } from '@switchyard/http-kit';
import { ORDER_NAMES, envelopeBytes, parseLedgerPage, writePage } from '../paging.js';
import { presentDelivery } from '@switchyard/http-kit';

/** What this module uses of the HTTP context: it receives nothing else. */
type Ctx = Needs<'access' | 'apiKeys' | 'deliveries' | 'forwarding' | 'inlineBodyBytes' | 'invocations' | 'ledger' | 'logger' | 'pageBytes' | 'publicBaseUrl' | 'tokenUses' | 'tokens' | 'webhooks'>;

const EVENTS = [DELIVERY_EVENT, INVOCATION_EVENT];

/** `hook=`, checked and known: a webhook that does not exist is 404, not an empty answer. */
async function hookParam(ctx: Ctx, value: unknown): Promise<string | undefined> {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !WEBHOOK_ID_PATTERN.test(value)) throw new SwitchyardError('invalid_request', 'hook must be a webhook id (hk_ + 12 letters and digits)');
  if (!(await ctx.webhooks.get(value))) throw new SwitchyardError('webhook_not_found', `no webhook ${value}`);
  return value;
}

/** `event_type=`: the exact type, as the listing shows it. */
function eventTypeParam(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_EVENT_TYPE_LENGTH) {
    throw new SwitchyardError('invalid_request', `event_type must be an event type of 1 to ${MAX_EVENT_TYPE_LENGTH} characters, as deliveries show it (e.g. event_type=push)`, { field: 'event_type' });
  }
  return value;
}

export function ledgerRoutes(ctx: Ctx): Router {
  const router = Router();
  // Deliveries carry webhook addresses (the secret), invocations their whole records: the owner's only.
  router.use('/api/ledger', ctx.access.requireMove(OWNER_MOVES.readDeliveries));

  router.get('/api/ledger', async (req, res) => {
    const event = req.query['event'];
    if (typeof event !== 'string' || !EVENTS.includes(event)) {
      throw new SwitchyardError('invalid_request', `event must be one of: ${EVENTS.join(', ')} (e.g. ?event=webhook%20delivery)`, { events: EVENTS });
    }
    const request = parseLedgerPage(req.query);
    if (event === INVOCATION_EVENT) {
      if (req.query['hook'] !== undefined || req.query['event_type'] !== undefined) throw new SwitchyardError('invalid_request', 'hook and event_type filter deliveries; for invocations use key');
      // A key matches in any letter case; the ledger keeps (and the answer names) the upper-case key.
      const named = req.query['key'];
      const key = typeof named === 'string' ? canonicalKey(named) : named;
      if (key !== undefined && (typeof key !== 'string' || !KEY_PATTERN.test(key))) throw new SwitchyardError('invalid_request', 'key must be a capability key, e.g. key=MESSAGING_UPDATE_GROUP');
      const head = { ok: true, event, ...(key ? { key } : {}), order: ORDER_NAMES[request.order] };
      const cred = await credentialOf(req, ctx);
      const page = await fillPage((r: LedgerPageRequest) => ctx.invocations.list({ ...r, ...(key ? { key: key as string } : {}) }), request, (i) => JSON.stringify({ event, ...invocationView(cred, i) }), ctx.pageBytes - envelopeBytes(head));
      return writePage(res, head, page);
    }
    if (req.query['key'] !== undefined) throw new SwitchyardError('invalid_request', 'key filters invocations; for deliveries use hook');
    const eventType = eventTypeParam(req.query['event_type']);
    const hook = await hookParam(ctx, req.query['hook']);
    const baseUrl = baseUrlOf(req, ctx.publicBaseUrl);
    const head = { ok: true, event, ...(hook ? { hook } : {}), ...(eventType !== undefined ? { event_type: eventType } : {}), order: ORDER_NAMES[request.order] };
    // Each page's forwarding state is read with it, in one query.
    const forwarding = new Map<string, ForwardingView[]>();
    const page = await fillPage(
      async (r: LedgerPageRequest) => {
        const found = await ctx.deliveries.list({ ...r, ...(hook ? { hookId: hook } : {}), ...(eventType !== undefined ? { eventType } : {}), inlineBodyBytes: ctx.inlineBodyBytes });
        for (const [entry, views] of await ctx.forwarding.views(found.items.map((d) => d.id))) forwarding.set(entry, views);
        return found;
      },
      request,
      (d) => JSON.stringify(presentDelivery(d, baseUrl, forwarding.get(d.id))),
      ctx.pageBytes - envelopeBytes(head),
      // A body under the threshold can still be too much for a small budget: then it is left out too.
      (d) => JSON.stringify(presentDelivery({ ...d, body: null, body_omitted: d.body !== null || d.body_omitted }, baseUrl, forwarding.get(d.id))),
    );
    writePage(res, head, page);
  });

  // How many deliveries name each event type, most frequent first (before /:entry, which it would match).
  router.get('/api/ledger/event-types', async (req, res) => {
    const extra = Object.keys(req.query).filter((k) => k !== 'hook');
    if (extra.length > 0) throw new SwitchyardError('invalid_request', `unknown parameter(s) ${extra.join(', ')}: event types are counted over all deliveries, or one webhook's (hook=)`, { fields: extra });
    const hook = await hookParam(ctx, req.query['hook']);
    const counts = await ctx.deliveries.countEventTypes({ ...(hook ? { hookId: hook } : {}), limit: MAX_EVENT_TYPES_COUNTED });
    res.json({ ok: true, event: DELIVERY_EVENT, ...(hook ? { hook } : {}), ...counts });
  });

  router.get('/api/ledger/:entry', async (req, res) => {
    const delivery = await ctx.deliveries.get(req.params['entry'] as string);
    if (!delivery) throw new SwitchyardError('not_found', `no ledger entry ${req.params['entry']}`);
    const forwarding = (await ctx.forwarding.views([delivery.id])).get(delivery.id);
    res.json({ ok: true, entry: presentDelivery(delivery, baseUrlOf(req, ctx.publicBaseUrl), forwarding) });
  });

  // Erasure (docs/proofs.md#erasure): the owner's move of its own, asked before the body is read.
  router.post('/api/ledger/:entry/erase', ctx.access.requireMove(OWNER_MOVES.eraseEntries), json({ limit: '8kb' }), async (req, res) => {
    const entry = req.params['entry'] as string;
    const kind = erasableKindOf(entry);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const extra = typeof body === 'object' && body !== null ? Object.keys(body).filter((k) => k !== 'reason') : [];
    if (extra.length > 0) throw new SwitchyardError('invalid_request', `unknown field(s) ${extra.join(', ')}: an erasure takes only a reason`, { fields: extra });
    const erasure = await ctx.ledger.erase(erasureOf(kind, entry, erasureReason(body['reason']), new Date()));
    ctx.logger.info('ledger entry erased', { entry, erasure: erasure.id, fields: erasure.fields.join(',') });
    const { reason: _, ...shown } = erasure;
    res.status(201).json({ ok: true, erasure: shown, confirm: `${baseUrlOf(req, ctx.publicBaseUrl)}/api/dispatch?confirm=${erasure.id}` });
  });

  router.get('/api/ledger/:entry/body', async (req, res) => {
    await streamDeliveryBody(ctx.deliveries, req.params['entry'] as string, res);
  });

  return router;
}
