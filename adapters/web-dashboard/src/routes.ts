// The web dashboard under /dashboard: server-rendered pages with a little script. Capability pages
// are public (as their contracts are); webhooks, approvals and the ledger need the owner's sign-in.
// Security headers come from helmet with a same-origin-only Content Security Policy (no inline script).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Router, urlencoded, type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import { DESTINATION_ID_PATTERN, INVOCATION_ID, MAX_EVENT_TYPES_COUNTED, MAX_EVENT_TYPE_LENGTH, SwitchyardError, WEBHOOK_ID_PATTERN, canonicalKey, counted, deliveryOutcomeWord, erasableKindOf, erasureOf, erasureReason, leafParts, newWebhookId, readWebhookChanges, webhookLogName, type StoredDelivery, type Webhook } from '@switchyard/core';
import { baseUrlOf } from '@switchyard/http-kit';
import type { Needs } from '@switchyard/http-kit';
import { presentBody } from '@switchyard/http-kit';
import { streamDeliveryBody } from '@switchyard/http-kit';
import { html, page, type Html, type PageOptions } from '@switchyard/http-kit';
import { statusFor } from '@switchyard/http-kit';
import { securityHeaders } from '@switchyard/http-kit';
import { signInLimiter } from '@switchyard/http-kit';
import { dashboardNext } from './next-page.js';
import { publicRoute } from '@switchyard/http-kit';
import { capabilityBody, treeBody } from './pages/capabilities.js';
import { deliveriesBody, deliveryBody, forwardingText, webhooksBody, type HookPageExtras } from './pages/webhooks.js';
import type { FormAnswer } from './pages/webhook-forms.js';
import { destinationPayload, formValues, webhookPayload } from './form-fields.js';
import { invocationBody, invocationsBody, ledgerIndexBody } from './pages/ledger.js';
import { loginBody } from './pages/login.js';
import { approvalsBody, type DecisionNotice } from './pages/approvals.js';
import { storageOutagePage } from './storage-outage.js';

/** What this module uses of the HTTP context: it receives nothing else. */
type Ctx = Needs<'access' | 'mintPerMinute' | 'rateWindows' | 'apiKeys' | 'approvals' | 'deliveries' | 'destinations' | 'forwardAllowlist' | 'forwarding' | 'inlineBodyBytes' | 'invocations' | 'ledger' | 'logger' | 'publicBaseUrl' | 'registry' | 'storageFailures' | 'webhooks'>;

const ASSETS: Record<string, string> = {
  'dashboard.css': 'text/css; charset=utf-8',
  'dashboard.js': 'text/javascript; charset=utf-8',
  'verify-proof.js': 'text/javascript; charset=utf-8',
};
// Read once at start; the folder sits beside src/ and dist/ alike.
const assetText = Object.fromEntries(Object.keys(ASSETS).map((name) => [name, readFileSync(fileURLToPath(new URL(`../assets/${name}`, import.meta.url)), 'utf8')]));

/** Pending approvals listed at once, newest first (older ones expire after approvals.ttlSeconds). */
const APPROVALS_SHOWN = 100;

/** How often a live view looks for new deliveries (the database is the source, so any process's deliveries show). */
const LIVE_POLL_MS = 400;

export function dashboardRoutes(ctx: Ctx): Router {
  const router = Router();
  const sessions = ctx.access.sessions;

  const send = (req: Request, res: Response, options: Omit<PageOptions, 'signedIn' | 'csrf'>, body: Html, status = 200): void => {
    const session = sessions.of(req);
    res.status(status).type('html').send(page({ ...options, signedIn: session !== null, ...(session ? { csrf: sessions.csrfToken(session) } : {}) }, body));
  };

  /** Owner pages: without a session, to the sign-in form and back. */
  const signedIn = ctx.access.requireOwnerSession();
  /** Capability pages are public, as their contracts are; so are the sign-in form and the pages' assets. */
  const open = publicRoute('public, as the contracts are');

  /** State changes need the session's CSRF token as well as its cookie. */
  const csrf: RequestHandler = (req, _res, next) => {
    if (!sessions.checkCsrf(ctx.access.sessionOf(req), (req.body as Record<string, unknown> | undefined)?.['csrf'])) {
      throw new SwitchyardError('scope_denied', 'the form is stale or forged: reload the page and try again');
    }
    next();
  };

  router.use('/dashboard', securityHeaders);

  router.get('/dashboard/assets/:name', open, (req, res) => {
    const name = req.params['name'] as string;
    const type = ASSETS[name];
    if (!type) throw new SwitchyardError('not_found', `no asset ${name}`);
    res.type(type).set('cache-control', 'public, max-age=300').send(assetText[name]);
  });

  router.get('/dashboard', open, (req, res) => {
    const q = typeof req.query['q'] === 'string' ? req.query['q'].trim().slice(0, 500) : '';
    send(req, res, { title: 'Capabilities', section: 'capabilities' }, treeBody(ctx.registry.systems(), q, q ? ctx.registry.ask(q, 10) : null));
  });

  router.get('/dashboard/capabilities/:key', open, (req, res) => {
    const entry = ctx.registry.get(req.params['key'] as string);
    if (!entry) {
      const suggestions = ctx.registry.suggest(req.params['key'] as string);
      return send(req, res, { title: 'Unknown capability', section: 'capabilities' }, treeBody(ctx.registry.systems(), req.params['key'] as string, { keyShaped: true, exact: null, hits: [], didYouMean: suggestions }), 404);
    }
    send(req, res, { title: entry.capability.key, section: 'capabilities', scripts: ['dashboard.js'] }, capabilityBody(entry.capability, baseUrlOf(req, ctx.publicBaseUrl)));
  });

  router.get('/dashboard/login', publicRoute('the sign-in form'), (req, res) => {
    send(req, res, { title: 'Sign in', section: 'login' }, loginBody(dashboardNext(req.query['next']), false));
  });

  router.post('/dashboard/login', publicRoute('signing in with the API key, rate limited per client'), signInLimiter(ctx), urlencoded({ extended: false, limit: '4kb' }), async (req, res) => {
    const body = req.body as Record<string, unknown>;
    const next = dashboardNext(body['next']);
    if (typeof body['api_key'] !== 'string' || !(await ctx.apiKeys.verify(body['api_key']))) {
      ctx.logger.warn('dashboard sign-in refused', { client: req.ip });
      return send(req, res, { title: 'Sign in', section: 'login' }, loginBody(next, true), 401);
    }
    sessions.issue(res, req.secure);
    res.redirect(303, next);
  });

  router.post('/dashboard/logout', signedIn, urlencoded({ extended: false, limit: '4kb' }), csrf, (_req, res) => {
    sessions.clear(res);
    res.redirect(303, '/dashboard');
  });

  /** The webhook list with the allowlist, and the answer to a form posted on it. */
  const listPage = async (req: Request, res: Response, answer: FormAnswer | null, status = 200): Promise<void> => {
    const session = ctx.access.sessionOf(req);
    send(req, res, { title: 'Webhooks', section: 'webhooks' }, webhooksBody(await ctx.webhooks.list(), baseUrlOf(req, ctx.publicBaseUrl), sessions.csrfToken(session), answer, await ctx.forwardAllowlist.list()), status);
  };

  router.get('/dashboard/webhooks', signedIn, async (req, res) => listPage(req, res, null));

  // The run-time allowlist, as POST and DELETE /api/forwarding/allow; the list answers directly (adding twice is harmless).
  router.post('/dashboard/forwarding/allow', signedIn, urlencoded({ extended: false, limit: '4kb' }), csrf, async (req, res) => {
    try {
      const { host, added } = await ctx.forwardAllowlist.allow({ host: (req.body as Record<string, unknown>)['host'] });
      ctx.logger.info('forwarding host admitted', { host, added, via: 'dashboard' });
      await listPage(req, res, { kind: 'done', text: added ? `${host} admitted: destinations there may be added and are forwarded to.` : `${host} was already admitted; nothing changed.` });
    } catch (err) {
      const answer = refused(err);
      if (!answer) throw err;
      await listPage(req, res, answer, 400);
    }
  });

  router.post('/dashboard/forwarding/disallow', signedIn, urlencoded({ extended: false, limit: '4kb' }), csrf, async (req, res) => {
    try {
      const { host } = await ctx.forwardAllowlist.disallow({ host: (req.body as Record<string, unknown>)['host'] });
      ctx.logger.info('forwarding host removed', { host, via: 'dashboard' });
      await listPage(req, res, { kind: 'done', text: `${host} removed: attempts to it are refused again.` });
    } catch (err) {
      const answer = refused(err) ?? (SwitchyardError.is(err) && err.code === 'not_found' ? { kind: 'refused' as const, code: err.code, message: err.message } : null);
      if (!answer) throw err;
      await listPage(req, res, answer, answer.kind === 'refused' && answer.code === 'not_found' ? 404 : 400);
    }
  });

  router.post('/dashboard/webhooks/:id/switch', signedIn, urlencoded({ extended: false, limit: '4kb' }), csrf, async (req, res) => {
    const on = (req.body as Record<string, unknown>)['on'];
    if (on !== 'true' && on !== 'false') throw new SwitchyardError('invalid_request', 'on must be true or false');
    const updated = await ctx.webhooks.update(req.params['id'] as string, { on: on === 'true' }, new Date().toISOString());
    if (!updated) throw new SwitchyardError('webhook_not_found', `no webhook ${req.params['id']}`);
    ctx.logger.info('webhook changed', { hook: webhookLogName(updated.id), fields: ['on'], via: 'dashboard' });
    // Back to the page whose switch it was: the webhook's own page or the list.
    res.redirect(303, (req.body as Record<string, unknown>)['from'] === 'webhook' ? `/dashboard/webhooks/${updated.id}` : '/dashboard/webhooks');
  });

  const hookOf = async (req: Request) => {
    const id = req.params['id'] as string;
    const hook = WEBHOOK_ID_PATTERN.test(id) ? await ctx.webhooks.get(id) : undefined;
    if (!hook) throw new SwitchyardError('webhook_not_found', `no webhook ${id}`);
    return hook;
  };

  /** A webhook's destinations by id, for pages that name them. */
  const destinationNames = async (hookId: string) => new Map((await ctx.destinations.list(hookId)).map((d) => [d.id, d.name]));

  /** Each delivery's forwarding in a line, by destination name. */
  const forwardingOf = async (hookId: string, ids: string[]): Promise<Map<string, string>> => {
    const names = await destinationNames(hookId);
    const views = await ctx.forwarding.views(ids);
    return new Map(ids.map((id) => [id, forwardingText(views.get(id) ?? [], names)]));
  };

  /** A webhook's page: its settings, destinations (with forms) and newest deliveries. */
  const hookPage = async (req: Request, res: Response, hook: Webhook, extras: Omit<HookPageExtras, 'withDeadLetters' | 'forwarding'>, status = 200): Promise<void> => {
    const eventType = chosenEventType(req);
    // The table shows sizes, never bodies: none is read.
    const recent = await ctx.deliveries.list({ hookId: hook.id, ...(eventType !== null ? { eventType } : {}), order: 'newest', cursor: null, limit: 50, inlineBodyBytes: 0 });
    const counts = await ctx.deliveries.countEventTypes({ hookId: hook.id, limit: MAX_EVENT_TYPES_COUNTED });
    const session = ctx.access.sessionOf(req);
    const listed = await ctx.destinations.list(hook.id);
    const circuits = await ctx.destinations.circuitViews(listed.map((d) => d.id));
    const destinations = listed.map((d) => ({ ...d, circuit: circuits.get(d.id)! }));
    const withDeadLetters = new Set<string>();
    for (const d of destinations) if ((await ctx.destinations.dead(hook.id, d.id, null, 1)).items.length > 0) withDeadLetters.add(d.id);
    const forwarding = destinations.length > 0 ? await forwardingOf(hook.id, recent.items.map((d) => d.id)) : null;
    send(req, res, { title: hook.name, section: 'webhooks', scripts: ['dashboard.js'] }, deliveriesBody(hook, recent.items, baseUrlOf(req, ctx.publicBaseUrl), sessions.csrfToken(session), destinations, { counts, chosen: eventType }, { ...extras, withDeadLetters, forwarding }), status);
  };

  router.get('/dashboard/webhooks/:id', signedIn, async (req, res) => {
    const hook = await hookOf(req);
    await hookPage(req, res, hook, { answer: await doneNotice(req.query, hook), typed: null });
  });

  /** What the last form did, from the redirect's fixed words and ids; names come from the store. */
  const doneNotice = async (query: Request['query'], hook: Webhook): Promise<FormAnswer | null> => {
    const did = query['did'];
    const dstId = typeof query['dst'] === 'string' && DESTINATION_ID_PATTERN.test(query['dst']) ? query['dst'] : null;
    const dst = dstId ? (await ctx.destinations.list(hook.id)).find((d) => d.id === dstId) : undefined;
    const done = (text: string): FormAnswer => ({ kind: 'done', text });
    if (did === 'created') return done(`Webhook ${hook.name} created. Its address is below.`);
    if (did === 'saved') return done(`Webhook ${hook.name} saved.`);
    if (!dst) return null;
    if (did === 'dst-saved') return done(`Destination ${dst.name} saved.`);
    if (did === 'dst-on') return done(`Destination ${dst.name} turned on: new deliveries are forwarded to it.`);
    if (did === 'dst-off') return done(`Destination ${dst.name} turned off: nothing more is forwarded to it.`);
    const requeued = Number(query['requeued']);
    if (Number.isSafeInteger(requeued) && requeued >= 0) return done(`${counted(requeued, 'dead letter')} re-sent to ${dst.name}.`);
    return null;
  };

  /** A form refused for its input: the page again, with the whole message and what was typed. */
  const refused = (err: unknown): FormAnswer | null =>
    SwitchyardError.is(err) && (err.code === 'invalid_request' || err.code === 'blocked_address') ? { kind: 'refused', code: err.code, message: err.message } : null;

  const form = urlencoded({ extended: false, limit: '64kb' });

  router.post('/dashboard/webhooks', signedIn, form, csrf, async (req, res) => {
    const now = new Date().toISOString();
    let changes;
    try {
      changes = readWebhookChanges(webhookPayload(req.body as Record<string, unknown>, null), true);
    } catch (err) {
      const answer = refused(err);
      if (!answer) throw err;
      return send(req, res, { title: 'Webhooks', section: 'webhooks' }, webhooksBody(await ctx.webhooks.list(), baseUrlOf(req, ctx.publicBaseUrl), sessions.csrfToken(ctx.access.sessionOf(req)), answer), 400);
    }
    const hook = await ctx.webhooks.create({ id: newWebhookId(), name: changes.name!, on: true, delivery_id_path: null, event_type_path: null, signature: changes.signature ?? null, retention_private_days: changes.retention_private_days ?? null, created_at: now, updated_at: now });
    ctx.logger.info('webhook created', { hook: webhookLogName(hook.id), name: hook.name, via: 'dashboard' });
    res.redirect(303, `/dashboard/webhooks/${hook.id}?did=created`);
  });

  router.post('/dashboard/webhooks/:id/edit', signedIn, form, csrf, async (req, res) => {
    const hook = await hookOf(req);
    let changes;
    try {
      changes = readWebhookChanges(webhookPayload(req.body as Record<string, unknown>, hook), false);
    } catch (err) {
      const answer = refused(err);
      if (!answer) throw err;
      return hookPage(req, res, hook, { answer, typed: null }, 400);
    }
    const updated = await ctx.webhooks.update(hook.id, changes, new Date().toISOString());
    if (!updated) throw new SwitchyardError('webhook_not_found', `no webhook ${hook.id}`);
    ctx.logger.info('webhook changed', { hook: webhookLogName(hook.id), fields: Object.keys(changes), via: 'dashboard' });
    res.redirect(303, `/dashboard/webhooks/${hook.id}?did=saved`);
  });

  // A new destination: its page answers at once, as its signing secret is shown this one time.
  router.post('/dashboard/webhooks/:id/destinations', signedIn, form, csrf, async (req, res) => {
    const hook = await hookOf(req);
    const body = req.body as Record<string, unknown>;
    try {
      const created = await ctx.destinations.create(hook.id, destinationPayload(body, true));
      ctx.logger.info('destination created', { hook: webhookLogName(hook.id), destination: created.id, via: 'dashboard' });
      await hookPage(req, res, hook, { answer: { kind: 'done', text: `Destination ${created.name} added. Its signing secret, shown this once: ${created.secret}` }, typed: null }, 201);
    } catch (err) {
      const answer = refused(err);
      if (!answer) throw err;
      await hookPage(req, res, hook, { answer, typed: { form: 'new', values: formValues(body) } }, 400);
    }
  });

  router.post('/dashboard/webhooks/:id/destinations/:dst/edit', signedIn, form, csrf, async (req, res) => {
    const hook = await hookOf(req);
    const dst = req.params['dst'] as string;
    const body = req.body as Record<string, unknown>;
    try {
      await ctx.destinations.update(hook.id, dst, destinationPayload(body, false));
    } catch (err) {
      const answer = refused(err);
      if (!answer) throw err;
      return hookPage(req, res, hook, { answer, typed: { form: dst, values: formValues(body) } }, 400);
    }
    ctx.logger.info('destination changed', { hook: webhookLogName(hook.id), destination: dst, via: 'dashboard' });
    res.redirect(303, `/dashboard/webhooks/${hook.id}?did=dst-saved&dst=${dst}`);
  });

  // A new signing secret: the page answers at once, as the secret is shown this one time.
  router.post('/dashboard/webhooks/:id/destinations/:dst/rotate-secret', signedIn, urlencoded({ extended: false, limit: '4kb' }), csrf, async (req, res) => {
    const hook = await hookOf(req);
    const dst = req.params['dst'] as string;
    const grace = (req.body as Record<string, unknown>)['grace_s'];
    const payload = typeof grace === 'string' && grace.trim() !== '' ? { grace_s: /^\d{1,15}$/.test(grace.trim()) ? Number(grace.trim()) : grace } : {};
    try {
      const rotated = await ctx.destinations.rotateSecret(hook.id, dst, payload);
      ctx.logger.info('destination secret rotated', { hook: webhookLogName(hook.id), destination: rotated.id, grace_until: rotated.previous_secret_until, via: 'dashboard' });
      const old = rotated.previous_secret_until ? `the old one also signs until ${rotated.previous_secret_until}` : 'the old one no longer signs';
      await hookPage(req, res, hook, { answer: { kind: 'done', text: `Destination ${rotated.name} has a new signing secret, shown this once: ${rotated.secret} (${old}).` }, typed: null });
    } catch (err) {
      const answer = refused(err);
      if (!answer) throw err;
      await hookPage(req, res, hook, { answer, typed: { form: `rotate-${dst}`, values: {} } }, 400);
    }
  });

  router.post('/dashboard/webhooks/:id/destinations/:dst/switch', signedIn, urlencoded({ extended: false, limit: '4kb' }), csrf, async (req, res) => {
    const hook = await hookOf(req);
    const on = (req.body as Record<string, unknown>)['on'];
    if (on !== 'true' && on !== 'false') throw new SwitchyardError('invalid_request', 'on must be true or false');
    const updated = await ctx.destinations.update(hook.id, req.params['dst'] as string, { on: on === 'true' });
    ctx.logger.info('destination changed', { hook: webhookLogName(hook.id), destination: updated.id, fields: ['on'], via: 'dashboard' });
    res.redirect(303, `/dashboard/webhooks/${hook.id}?did=dst-${on === 'true' ? 'on' : 'off'}&dst=${updated.id}`);
  });

  // Re-forwards a destination's dead letters: all of them, or one delivery's (entry).
  router.post('/dashboard/webhooks/:id/destinations/:dst/retry', signedIn, urlencoded({ extended: false, limit: '4kb' }), csrf, async (req, res) => {
    const form = req.body as Record<string, unknown>;
    const entry = form['entry'];
    const requeued = await ctx.destinations.retry(req.params['id'] as string, req.params['dst'] as string, typeof entry === 'string' ? { entries: [entry] } : { state: 'dead' });
    ctx.logger.info('dead letters re-forwarded', { hook: webhookLogName(String(req.params['id'])), destination: req.params['dst'], requeued, via: 'dashboard' });
    const back = form['back'];
    // Only back to a dashboard page: the form names where it came from, never another site.
    const page = typeof back === 'string' && /^\/dashboard\/(webhooks|deliveries)\/[A-Za-z0-9_]+$/.test(back) ? back : `/dashboard/webhooks/${req.params['id']}`;
    // The page says how many were re-sent (the count is the service's answer, the name is looked up there).
    res.redirect(303, `${page}?requeued=${requeued}&dst=${encodeURIComponent(String(req.params['dst']))}`);
  });

  // New deliveries as server-sent events, read from the database so every process's show.
  router.get('/dashboard/webhooks/:id/live', signedIn, async (req, res) => {
    const hook = await hookOf(req);
    const eventType = chosenEventType(req);
    let after = Number(req.query['after'] ?? 0);
    if (!Number.isSafeInteger(after) || after < 0) after = 0;
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
    res.write('retry: 2000\n\n');
    let polling = false;
    const poll = async (): Promise<void> => {
      if (polling) return;
      polling = true;
      try {
        const fresh = (await ctx.deliveries.list({ hookId: hook.id, ...(eventType !== null ? { eventType } : {}), order: 'append', cursor: after > 0 ? String(after) : null, limit: 100, inlineBodyBytes: 0 })).items;
        const forwarding = fresh.length > 0 ? await forwardingOf(hook.id, fresh.map((d) => d.id)) : new Map<string, string>();
        for (const d of fresh) {
          res.write(`event: delivery\ndata: ${JSON.stringify({ ...liveRow(d), forwarding: forwarding.get(d.id) ?? '—' })}\n\n`);
          after = d.seq;
        }
      } catch (err) {
        ctx.logger.warn('live deliveries poll failed', { hook: webhookLogName(hook.id), error: (err as Error).message });
      } finally {
        polling = false;
      }
    };
    const timer = setInterval(() => void poll(), LIVE_POLL_MS);
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
    req.on('close', () => {
      clearInterval(timer);
      clearInterval(keepAlive);
    });
    await poll();
  });

  router.get('/dashboard/deliveries/:entry', signedIn, async (req, res) => {
    const delivery = await ctx.deliveries.get(req.params['entry'] as string, { inlineBodyBytes: ctx.inlineBodyBytes });
    if (!delivery) throw new SwitchyardError('not_found', `no delivery ${req.params['entry']}`);
    const forwarding = (await ctx.forwarding.views([delivery.id])).get(delivery.id) ?? [];
    const session = ctx.access.sessionOf(req);
    const hook = await ctx.webhooks.get(delivery.hook_id);
    const answer = hook ? await doneNotice(req.query, hook) : null;
    // The record as this page shows it; its body the browser fetches and hashes itself (an edited
    // body under an unchanged recorded SHA-256 must not verify).
    const parts = leafParts({ kind: 'delivery', entry: delivery });
    const erasure = await ctx.ledger.erasureFor(delivery.id);
    const opening = {
      salt: ctx.ledger.commitmentSalt('delivery', delivery.id),
      public: parts.public,
      private: parts.private,
      ...(delivery.body_sha256 !== null && !erasure ? { body: `/dashboard/deliveries/${delivery.id}/body` } : {}),
      ...(erasure ? { erasure: erasure.id } : {}),
    };
    send(req, res, { title: delivery.id, section: 'webhooks', scripts: ['verify-proof.js'] }, deliveryBody(delivery, presentBody(delivery.body), forwarding, sessions.csrfToken(session), answer, await destinationNames(delivery.hook_id), opening));
  });

  // A body too large for the page, byte for byte with its original content type.
  router.get('/dashboard/deliveries/:entry/body', signedIn, async (req, res) => {
    await streamDeliveryBody(ctx.deliveries, req.params['entry'] as string, res);
  });

  router.get('/dashboard/approvals', signedIn, async (req, res) => {
    const session = ctx.access.sessionOf(req);
    const pending = await ctx.approvals.pending(APPROVALS_SHOWN);
    send(req, res, { title: 'Approvals', section: 'approvals' }, approvalsBody(pending, sessions.csrfToken(session), await decisionNotice(req.query)));
  });

  // The same decision as POST /api/approvals/<id>, taken by the signed-in owner; failures
  // (already decided, expired, not waiting) answer as pages with the API's codes.
  router.post('/dashboard/approvals/:id', signedIn, urlencoded({ extended: false, limit: '4kb' }), csrf, async (req, res) => {
    const decision = (req.body as Record<string, unknown>)['decision'];
    if (decision !== 'approve' && decision !== 'deny') throw new SwitchyardError('invalid_request', 'decision must be approve or deny');
    const { approval } = await ctx.approvals.decide(req.params['id'] as string, decision, 'owner');
    ctx.logger.info('approval decided', { invocation: approval.invocation, decision: approval.decision, run: approval.run_invocation, via: 'dashboard' });
    const run = approval.run_invocation ? `&run=${approval.run_invocation}` : '';
    res.redirect(303, `/dashboard/approvals?${approval.decision}=${approval.invocation}${run}`);
  });

  /** The notice after a decision: the ids come from the redirect, what is shown from the ledger. */
  const decisionNotice = async (query: Request['query']): Promise<DecisionNotice | null> => {
    const id = (v: unknown) => (typeof v === 'string' && INVOCATION_ID.test(v) ? v : null);
    const approved = id(query['approved']);
    const denied = id(query['denied']);
    const invocation = approved ?? denied;
    if (!invocation) return null;
    const runId = approved ? id(query['run']) : null;
    const run = runId ? ((await ctx.invocations.get(runId)) ?? null) : null;
    return { invocation, decision: approved ? 'approved' : 'denied', run };
  };

  router.get('/dashboard/ledger', signedIn, async (req, res) => {
    // A key in any letter case lists the invocations of the upper-case key the ledger keeps.
    const key = typeof req.query['key'] === 'string' ? canonicalKey(req.query['key']) : undefined;
    if (!key) return send(req, res, { title: 'Ledger', section: 'ledger' }, ledgerIndexBody(ctx.registry.systems()));
    const before = typeof req.query['before'] === 'string' ? req.query['before'] : null;
    const pageOf = await ctx.invocations.list({ key, order: 'newest', cursor: before, limit: 100 });
    send(req, res, { title: `Invocations of ${key}`, section: 'ledger' }, invocationsBody(key, pageOf.items, pageOf.next_cursor));
  });

  router.get('/dashboard/invocations/:id', signedIn, async (req, res) => {
    const inv = INVOCATION_ID.test(req.params['id'] as string) ? await ctx.invocations.get(req.params['id'] as string) : undefined;
    if (!inv) throw new SwitchyardError('invocation_not_found', `no invocation ${req.params['id']}`);
    // The repairs chain upwards, oldest first (bounded: a chain is as long as its attempts).
    const chain = [inv];
    for (let at = inv; at.repairs && chain.length < 50; ) {
      const parent = await ctx.invocations.get(at.repairs);
      if (!parent) break;
      chain.unshift(parent);
      at = parent;
    }
    // The record as this page shows it, opened like a receipt: the browser holds it to the leaf.
    const parts = leafParts({ kind: 'invocation', entry: inv });
    // An erased run names its erasure: the browser proves that entry too before it lets those fields not open.
    const erasure = await ctx.ledger.erasureFor(inv.id);
    send(
      req,
      res,
      { title: inv.id, section: 'ledger', scripts: ['verify-proof.js'] },
      invocationBody(inv, chain, { salt: ctx.ledger.commitmentSalt('invocation', inv.id), public: parts.public, private: parts.private, ...(erasure ? { erasure: erasure.id } : {}) }, { csrf: sessions.csrfToken(ctx.access.sessionOf(req)), erasedAt: erasure?.erased_at ?? null }),
    );
  });

  // Erases a run's payload (docs/proofs.md#erasure): the same rule and refusals as POST /api/ledger/<id>/erase.
  router.post('/dashboard/invocations/:id/erase', signedIn, urlencoded({ extended: false, limit: '4kb' }), csrf, async (req, res) => {
    const id = req.params['id'] as string;
    if (erasableKindOf(id) !== 'invocation') throw new SwitchyardError('not_erasable', `${id} is not an invocation`);
    const erasure = await ctx.ledger.erase(erasureOf('invocation', id, erasureReason((req.body as Record<string, unknown>)['reason']), new Date()));
    ctx.logger.info('ledger entry erased', { entry: id, erasure: erasure.id, fields: erasure.fields.join(','), via: 'dashboard' });
    res.redirect(303, `/dashboard/invocations/${id}`);
  });

  // Failures on dashboard pages answer as pages, with the same codes the API uses.
  router.use('/dashboard', storageOutagePage(ctx.storageFailures, sessions));
  router.use('/dashboard', ((err, req, res, next) => {
    // A storage failure not answered as a page above goes to the API's JSON answer (503, Retry-After).
    if (!SwitchyardError.is(err) || err.code === 'storage_unavailable') return next(err);
    const approvals = req.originalUrl.startsWith('/dashboard/approvals');
    send(req, res, { title: 'Not here', section: approvals ? 'approvals' : 'capabilities' }, html`<h1>${err.code}</h1><p class="message">${err.message}</p><p>${approvals ? html`<a href="/dashboard/approvals">Back to the approvals</a>` : html`<a href="/dashboard">Back to the dashboard</a>`}</p>`, statusFor(err.code));
  }) as ErrorRequestHandler);

  return router;
}

/** The page's event-type filter (`?event_type=`; empty for all). */
function chosenEventType(req: Request): string | null {
  const value = req.query['event_type'];
  if (value === undefined || value === '') return null;
  if (typeof value !== 'string' || value.length > MAX_EVENT_TYPE_LENGTH) throw new SwitchyardError('invalid_request', `event_type must be one event type of at most ${MAX_EVENT_TYPE_LENGTH} characters`);
  return value;
}

const liveRow = (d: StoredDelivery) => ({ id: d.id, received_at: d.received_at, method: d.method, event_type: d.event_type, delivery_id: d.delivery_id, outcome: d.refusal ? `refused: ${d.refusal.code}` : deliveryOutcomeWord(d), duplicate: d.duplicate, body_size: d.body_size });
