// POST /hook/<id>[/<action>]: every delivery is stored whole and byte-exact before anything reads
// it (a raw reader on /hook only; gzip is not inflated). Off webhooks, oversized bodies and unknown
// actions are stored as refusals. An action address then runs the named capability with the body
// as its inputs, as a keyless caller, and a further record links delivery, invocation and answer.
import { Router, type Request, type Response, type NextFunction } from 'express';
import {
  SwitchyardError,
  WEBHOOK_ID_PATTERN,
  callerOf,
  newDeliveryEntryId,
  resolveDeliveryId,
  verifySignature,
  type Caller,
  type DeliveryRecord,
  type RawHeaders,
  type StoredDelivery,
  type Webhook,
} from '@switchyard/core';
import { baseUrlOf } from '../base-url.js';
import type { Needs } from '../context.js';
import { unknownKeyLinks, runAnswer } from '../presenters.js';
import { rawBody } from '../raw-body.js';
import { currentRequestId } from '../request-id.js';
import { statusFor } from '../status.js';
import { writeJson } from '../write-json.js';

/** What this module uses of the HTTP context: it receives nothing else. */
type Ctx = Needs<'deliveries' | 'dispatch' | 'hookBodyLimitBytes' | 'logger' | 'publicBaseUrl' | 'registry' | 'webhooks'>;

const pairs = (rawHeaders: string[]): RawHeaders => {
  const out: Array<[string, string]> = [];
  for (let i = 0; i < rawHeaders.length; i += 2) out.push([rawHeaders[i]!, rawHeaders[i + 1]!]);
  return out;
};

/** An action address runs as its webhook: the access policy says who that is. */
const hookCaller = (hookId: string): Caller => callerOf({ kind: 'hook', hookId });

/** A delivery as received: what is stored, before the database decides whether it is a duplicate. */
export function deliveryRecord(req: Request, hook: Webhook, body: Uint8Array | null, bodySize: number, action: string | null): DeliveryRecord {
  const headers = pairs(req.rawHeaders);
  const queryAt = req.originalUrl.indexOf('?');
  const found = resolveDeliveryId({ headers, body, contentType: req.get('content-type') ?? null, webhookPath: hook.delivery_id_path });
  const signature = hook.signature && body ? verifySignature(hook.signature, headers, body) : null;
  return {
    id: newDeliveryEntryId(),
    hook_id: hook.id,
    received_at: new Date().toISOString(),
    method: req.method,
    path: queryAt < 0 ? req.originalUrl : req.originalUrl.slice(0, queryAt),
    query: queryAt < 0 ? '' : req.originalUrl.slice(queryAt + 1),
    headers,
    body,
    body_size: bodySize,
    client_address: req.socket.remoteAddress ?? null,
    delivery_id: found?.id ?? null,
    delivery_id_rule: found?.rule ?? null,
    signature: signature?.verdict ?? null,
    outcome: 'accepted',
    refusal: null,
    action,
    request_id: currentRequestId(),
  };
}

const receipt = (d: StoredDelivery) => ({
  entry: d.id,
  hook: d.hook_id,
  delivery_id: d.delivery_id,
  delivery_id_rule: d.delivery_id_rule,
  duplicate: d.duplicate,
  duplicate_of: d.duplicate_of,
  bytes: d.body_size,
  signature: d.signature,
});

export function hookRoutes(ctx: Ctx): Router {
  const router = Router();

  const findHook = async (id: string): Promise<Webhook> => {
    const hook = WEBHOOK_ID_PATTERN.test(id) ? await ctx.webhooks.get(id) : undefined;
    if (!hook) throw new SwitchyardError('webhook_not_found', `no webhook ${id}`);
    return hook;
  };

  /** Stores a refusal (the delivery whole, marked refused) and answers with its code. */
  const refuse = async (res: Response, rec: DeliveryRecord, error: SwitchyardError, extra: Record<string, unknown> = {}): Promise<void> => {
    const stored = await ctx.deliveries.append({ ...rec, outcome: 'refused', refusal: { code: error.code, message: error.message } });
    ctx.logger.warn('webhook delivery refused', { hook: rec.hook_id, entry: stored.id, code: error.code, action: rec.action });
    res.status(statusFor(error.code)).json({ ok: false, error: { ...error.toJSON(), ...extra }, ...receipt(stored) });
  };

  // The public face of a webhook: its name and whether it is on, nothing about deliveries.
  router.get('/hook/:id', async (req, res) => {
    const hook = await findHook(req.params['id'] as string);
    res.json({ name: hook.name, on: hook.on });
  });

  const parseRaw = rawBody(ctx.hookBodyLimitBytes);

  /** The action an address names, as its registered key when it names one in any letter case. */
  const actionOf = (req: Request): string | null => {
    const named = req.params['action'] as string | undefined;
    return named === undefined ? null : (ctx.registry.keyOf(named) ?? named);
  };

  const ingest = async (req: Request, res: Response): Promise<void> => {
    const hook = await findHook(req.params['id'] as string);
    const action = actionOf(req);
    const body: Uint8Array = Buffer.isBuffer(req.body) ? req.body : new Uint8Array();
    const rec = deliveryRecord(req, hook, body, body.length, action);

    if (!hook.on) return refuse(res, rec, new SwitchyardError('webhook_off', `webhook ${hook.id} is off; the delivery was stored as a refusal`));
    if (hook.signature?.require && rec.signature !== 'verified') {
      const check = verifySignature(hook.signature, rec.headers, body);
      return refuse(res, rec, new SwitchyardError('signature_invalid', `signature ${check.verdict}: ${check.reason}; the delivery was stored as a refusal`, { scheme: hook.signature.scheme }));
    }
    if (action !== null && !ctx.registry.has(action)) {
      const baseUrl = baseUrlOf(req, ctx.publicBaseUrl);
      return refuse(res, rec, new SwitchyardError('unknown_capability', `no capability ${action}; the delivery was stored as a refusal`), unknownKeyLinks(action, ctx.registry.suggest(action), baseUrl));
    }

    const stored = await ctx.deliveries.append(rec);
    if (action === null) {
      writeJson(res, 200, { ok: true, ...receipt(stored) });
      return;
    }
    if (stored.duplicate) {
      // A retry of a delivery that already ran its action must not run it again.
      const first = stored.duplicate_of ? await ctx.deliveries.get(stored.duplicate_of) : undefined;
      // The receipt at the top (as for a delivery without an action) and as `delivery` (as for a run).
      const delivery = receipt(stored);
      res.status(200).json({ ok: true, ...delivery, delivery, action: { name: action, ran: false, reason: 'duplicate', first_run: first?.action_run ?? null } });
      return;
    }

    const outcome = await ctx.dispatch.dispatch({ key: action, body: Buffer.from(body).toString('utf8'), source: `hook:${hook.id}/${stored.id}` }, hookCaller(hook.id));
    const inv = outcome.invocation;
    const status = inv.ok ? 200 : statusFor(inv.error?.code ?? 'internal_error');
    const answer = { ...runAnswer(outcome, baseUrlOf(req, ctx.publicBaseUrl)), delivery: receipt(stored) };
    await ctx.deliveries.appendAction({
      delivery: stored.id,
      action,
      invocation: inv.id,
      ok: inv.ok,
      status: inv.ran ? inv.status : 'refused',
      answer: { status, body: { ok: inv.ok, result: inv.result, invocation: inv.id, error: inv.error } },
      created_at: new Date().toISOString(),
    });
    if (!inv.ran) ctx.logger.warn('webhook action refused', { hook: hook.id, entry: stored.id, action, code: inv.error?.code });
    res.status(status).json(answer);
  };

  /** A body over the limit is not read; the refusal keeps its headers and announced size. */
  const tooLarge = async (err: unknown, req: Request, res: Response, next: NextFunction): Promise<void> => {
    if ((err as { type?: string })?.type !== 'entity.too.large') return next(err);
    const hook = await findHook(req.params['id'] as string);
    const rec = deliveryRecord(req, hook, null, (err as { length: number }).length, actionOf(req));
    await refuse(res, rec, new SwitchyardError('payload_too_large', `deliveries are limited to ${ctx.hookBodyLimitBytes} bytes; this one was stored as a refusal without its body`, { limit: ctx.hookBodyLimitBytes }));
  };

  router.post('/hook/:id', parseRaw, ingest, tooLarge);
  router.post('/hook/:id/:action', parseRaw, ingest, tooLarge);
  return router;
}
