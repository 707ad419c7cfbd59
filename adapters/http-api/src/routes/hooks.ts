// POST /hook/<id>[/<action>]: adapts HTTP to the webhook intake (core). The webhook is looked up
// before the body is read: unknown → 404 and Off → 403 at once, too large → 413, all without
// reading the body (an Off refusal keeps its first bytes); then the body is held in the budget,
// read byte-exact, and handed to the intake, whose result is answered here.
import { Router, type IRouter, type Request, type Response } from 'express';
import { SwitchyardError, deliveryOutcomeWord, webhookLogName, type DeliveryHead, type IntakeResult, type RawHeaders, type StoredDelivery } from '@switchyard/core';
import { baseUrlOf, declareAccess } from '@switchyard/http-kit';
import type { Needs } from '@switchyard/http-kit';
import { unknownKeyLinks, runAnswer } from '../presenters.js';
import { readBody, readFirstBytes, releaseBody } from '@switchyard/http-kit';
import { closeAfterAnswer, declaredLength, holdBody, refuseAndClose, type RequestGate } from '@switchyard/http-kit';
import { statusFor } from '@switchyard/http-kit';
import { writeJson } from '@switchyard/http-kit';

/** How long an Off refusal waits for the first bytes it keeps. */
const OFF_PREFIX_WAIT_MS = 1000;

/** What this module uses of the HTTP context: it receives nothing else. */
type Ctx = Needs<'intake' | 'limits' | 'logger' | 'publicBaseUrl' | 'registry'>;

const pairs = (rawHeaders: string[]): RawHeaders => {
  const out: Array<[string, string]> = [];
  for (let i = 0; i < rawHeaders.length; i += 2) out.push([rawHeaders[i]!, rawHeaders[i + 1]!]);
  return out;
};

/** What the intake needs of a request before its body is read; `baseUrl` makes the address the sender signed. */
export function deliveryHead(req: Request, hookId: string, action: string | null, baseUrl: string | null = null): DeliveryHead {
  const queryAt = req.originalUrl.indexOf('?');
  return {
    hookId,
    action,
    method: req.method,
    path: queryAt < 0 ? req.originalUrl : req.originalUrl.slice(0, queryAt),
    query: queryAt < 0 ? '' : req.originalUrl.slice(queryAt + 1),
    headers: pairs(req.rawHeaders),
    contentType: req.get('content-type') ?? null,
    clientAddress: req.socket.remoteAddress ?? null,
    declaredSize: declaredLength(req),
    url: baseUrl === null ? null : baseUrl + req.originalUrl,
  };
}

const receipt = (d: StoredDelivery) => ({
  entry: d.id,
  hook: d.hook_id,
  outcome: deliveryOutcomeWord(d),
  delivery_id: d.delivery_id,
  delivery_id_rule: d.delivery_id_rule,
  event_type: d.event_type,
  duplicate: d.duplicate,
  duplicate_of: d.duplicate_of,
  bytes: d.body_size,
  signature: d.signature,
});

/** The /hook routes, on `router` (the app itself, so that deliveries walk no nested router). */
export function hookRoutes(ctx: Ctx, gate: RequestGate, router: Pick<IRouter, 'get' | 'post'> = Router()): Pick<IRouter, 'get' | 'post'> {

  // The public face of a webhook: its name and whether it is on, nothing about deliveries.
  router.get('/hook/:id', declareAccess({ kind: 'public', why: 'the address is the secret; it shows only the name and on/off' }, async (req, res) => {
    if (!gate.check(req, res)) return;
    const hook = await ctx.intake.find(req.params['id'] as string);
    res.json({ name: hook.name, on: hook.on });
  }));

  /** Answers what the intake decided; a body left unread closes the connection. */
  const answer = (req: Request, res: Response, result: IntakeResult, bodyUnread: boolean): void => {
    if (bodyUnread) closeAfterAnswer(res);
    switch (result.kind) {
      case 'accepted':
        return writeJson(res, 200, { ok: true, ...receipt(result.delivery) });
      case 'duplicate': {
        const delivery = receipt(result.delivery);
        if (result.delivery.action === null) return writeJson(res, 200, { ok: true, ...delivery });
        // The receipt at the top (as for a delivery without an action) and as `delivery` (as for a run).
        res.status(200).json({ ok: true, ...delivery, delivery, action: { name: result.delivery.action, ran: false, reason: 'duplicate', first_run: result.firstRun } });
        return;
      }
      case 'ran': {
        const inv = result.run.invocation;
        res.status(inv.ok ? 200 : statusFor(inv.error?.code ?? 'internal_error')).json({ ...runAnswer(result.run, baseUrlOf(req, ctx.publicBaseUrl)), delivery: receipt(result.delivery) });
        return;
      }
      case 'refused': {
        const { delivery, error, run } = result;
        ctx.logger.warn('webhook delivery refused', { hook: webhookLogName(delivery.hook_id), entry: delivery.id, code: error.code, action: delivery.action });
        if (run) {
          res.status(statusFor(error.code)).json({ ...runAnswer(run, baseUrlOf(req, ctx.publicBaseUrl)), error: error.toJSON(), delivery: receipt(delivery) });
          return;
        }
        const links = error.code === 'unknown_capability' && delivery.action ? unknownKeyLinks(delivery.action, ctx.registry.suggest(delivery.action), baseUrlOf(req, ctx.publicBaseUrl)) : {};
        res.status(statusFor(error.code)).json({ ok: false, error: { ...error.toJSON(), ...links }, ...receipt(delivery) });
        return;
      }
    }
  };

  /** The action an address names, as its registered key when it names one in any letter case. */
  const actionOf = (req: Request): string | null => {
    const named = req.params['action'] as string | undefined;
    return named === undefined ? null : (ctx.registry.keyOf(named) ?? named);
  };

  const ingest = async (req: Request, res: Response): Promise<void> => {
    if (!gate.check(req, res)) return;
    const head = deliveryHead(req, req.params['id'] as string, actionOf(req), baseUrlOf(req, ctx.publicBaseUrl));
    let admission;
    try {
      admission = await ctx.intake.admit(head);
    } catch (err) {
      // Unknown: answered at once; the body is never read.
      closeAfterAnswer(res);
      throw err;
    }
    if (admission.kind === 'off') {
      const first = await readFirstBytes(req, admission.keep, OFF_PREFIX_WAIT_MS);
      return answer(req, res, await ctx.intake.refuseOff(head, admission.hook, first.bytes, first.complete), !first.complete);
    }
    if (admission.kind === 'too_large') return answer(req, res, await ctx.intake.refuseTooLarge(head, admission.hook, admission.size), true);
    const release = holdBody(req, res, ctx.limits);
    if (!release) return;
    let body: Buffer | null = null;
    try {
      const read = await readBody(req, admission.limit, head.declaredSize);
      if (read.kind === 'aborted') return refuseAndClose(req, res, new SwitchyardError('invalid_request', 'the request body ended before it was complete'));
      if (read.kind === 'too_large') return answer(req, res, await ctx.intake.refuseTooLarge(head, admission.hook, read.size), true);
      body = read.bytes;
      answer(req, res, await ctx.intake.deliver(head, admission.hook, body), false);
    } finally {
      // The body is stored (or dropped) by now: its bytes leave the budget, and its memory goes
      // with them rather than at the collector's convenience (the store keeps its own copy).
      if (body) releaseBody(body);
      release();
    }
  };

  // No password on a delivery (SPEC): the address is the secret.
  declareAccess({ kind: 'public', why: 'the address is the secret: no password on a delivery' }, ingest);
  router.post('/hook/:id', ingest);
  router.post('/hook/:id/:action', ingest);
  return router;
}
