// /api/dispatch: POST runs a capability; GET answers one query verb (contract, registry, map, ask,
// build, confirm, receipt, explain, invoke, self_scope) from one table.
import { Router, json, type Request, type RequestHandler, type Response } from 'express';
import { INVOCATION_ID, ROOT, SwitchyardError, checkIdempotencyKey, contractMarkdown, describe, rootMapMarkdown, systemArticleMarkdown, type Caller, type DispatchOutcome, type DispatchRequest, type StoredInvocation } from '@switchyard/core';
import { OWNER_MOVES, credentialOf, linkToken, requireUnspent, runCredential, type Credential, type InvocationObject } from '@switchyard/http-kit';
import { explainAnswer, selfScopeAnswer } from '../token-answers.js';
import { mintLimiter } from '@switchyard/http-kit';
import { baseUrlOf } from '@switchyard/http-kit';
import type { Needs } from '@switchyard/http-kit';
import { statusFor } from '@switchyard/http-kit';
import { writeJson } from '@switchyard/http-kit';
import { contractJson, runAnswer, toolMetadata, withKeyLinks } from '../presenters.js';
import { confirmation, deliveryReceipt, receipt } from '../proofs.js';

/** A delivery's ledger id. */
const DELIVERY_ENTRY_ID = /^dlv_[A-Za-z0-9]{8,40}$/;
import { askJson, askLimit, askMarkdown, buildJson, buildMarkdown, checkQuestion } from '../discovery-answers.js';

/** What this module uses of the HTTP context: it receives nothing else. */
type Ctx = Needs<'access' | 'mintPerMinute' | 'rateWindows' | 'apiKeys' | 'bodyLimitBytes' | 'deliveries' | 'dispatch' | 'idempotentRuns' | 'invocations' | 'ledger' | 'logger' | 'publicBaseUrl' | 'registry' | 'tokenUses' | 'tokens'>;

const sendMarkdown = (res: Response, text: string): void => {
  res.type('text/markdown; charset=utf-8').send(text);
};

const wantsMarkdown = (req: Request): boolean => req.query['format'] === 'markdown';

const single = (req: Request, name: string): string | undefined => {
  const value = req.query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new SwitchyardError('invalid_request', `query parameter ${name} must be given once`);
  return value;
};

/** The query verbs of GET /api/dispatch; a request names exactly one. */
export const QUERY_VERBS = ['invoke', 'key', 'confirm', 'receipt', 'map', 'registry', 'ask', 'build', 'explain', 'self_scope'] as const;
export type QueryVerb = (typeof QUERY_VERBS)[number];
/** What a run is called in its refusals (the access policy words them). */
const RUNNING = 'running a capability';
/**
 * A verb's handler: the request, the verb's value, the credential that passed the verb's move (none
 * for invoke and self_scope) and the invocation the move was checked against, if the verb names one.
 */
type VerbHandler = (req: Request, res: Response, value: string, cred: Credential | undefined, object: InvocationObject | undefined) => Promise<void>;

/** The POST envelope: {key, body}, {key, body, repairs} or {replay}. */
function parseEnvelope(payload: unknown): DispatchRequest {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new SwitchyardError('invalid_request', 'the request must be a JSON object: {key, body}, {key, body, repairs} or {replay}');
  }
  const p = payload as Record<string, unknown>;
  const allowed = new Set(['key', 'body', 'repairs', 'replay']);
  const extra = Object.keys(p).filter((k) => !allowed.has(k));
  if (extra.length > 0) throw new SwitchyardError('invalid_request', `unknown field(s) ${extra.join(', ')}; send {key, body}, {key, body, repairs} or {replay}`, { fields: extra });
  if (p['replay'] !== undefined) {
    if (p['key'] !== undefined || p['body'] !== undefined || p['repairs'] !== undefined) {
      throw new SwitchyardError('invalid_request', 'replay takes no key, body or repairs: the original invocation supplies them');
    }
    if (typeof p['replay'] !== 'string') throw new SwitchyardError('invalid_request', 'replay must be an invocation id (inv_…)');
    return { replay: p['replay'] };
  }
  if (typeof p['key'] !== 'string' || p['key'].length === 0) throw new SwitchyardError('invalid_request', 'key must be a non-empty string');
  return { key: p['key'], body: p['body'], ...(p['repairs'] !== undefined ? { repairs: p['repairs'] as string } : {}) };
}

export function dispatchRoutes(ctx: Ctx): Router {
  const router = Router();

  // Content type and credential are checked before the body is read.
  const jsonOnly: RequestHandler = (req, _res, next) => {
    const type = req.is('application/json');
    // type-is answers null for a request that announces no body, whatever its content type says.
    if (type === null || req.headers['content-length'] === '0') throw new SwitchyardError('invalid_request', 'the request has no body: send {"key": …, "body": …} as application/json');
    if (!type) throw new SwitchyardError('unsupported_media_type', 'send the dispatch request as application/json');
    next();
  };

  /** Runs a dispatch request for the request's credential: invoke:<KEY> must be allowed. */
  const run = async (req: Request, res: Response, request: DispatchRequest): Promise<void> => {
    const baseUrl = baseUrlOf(req, ctx.publicBaseUrl);
    // The key to authorize: the request's, or for a replay the original's. Unknown keys are left to
    // dispatch, whose 404 carries did_you_mean (the registry is public anyway). A replayed or repaired
    // invocation must be the caller's own (the policy decides, before any use is spent).
    // Keys match in any letter case; the move names the registered (upper-case) key.
    let key = 'key' in request ? ctx.registry.keyOf(request.key) : undefined;
    let object: InvocationObject | undefined;
    if ('replay' in request) {
      const original = typeof request.replay === 'string' && INVOCATION_ID.test(request.replay) ? await ctx.invocations.get(request.replay) : undefined;
      if (!original) throw new SwitchyardError('invocation_not_found', `no invocation ${String(request.replay)} to replay`);
      key = original.key;
      object = { id: original.id, invocation: original };
    } else if (typeof request.repairs === 'string' && INVOCATION_ID.test(request.repairs)) {
      const target = await ctx.invocations.get(request.repairs);
      if (target) object = { id: target.id, invocation: target };
    }
    // Judged once, by the access policy: the credential, invoke:<KEY> and the replayed or repaired run's owner.
    const { credential: cred, caller } = await ctx.access.admitRun(req, await credentialOf(req, ctx), RUNNING, key !== undefined && ctx.registry.has(key) ? { key } : null, object);
    try {
      const outcome = await dispatchOnce(req, res, request, caller);
      const error = outcome.invocation.error;
      if (error) ctx.logger.info('run failed', { key: outcome.capability.key, invocation: outcome.invocation.id, code: error.code });
      // A run waiting for the owner's approval is accepted, not refused: 202.
      const status = outcome.invocation.status === 'awaiting_approval' ? 202 : error ? statusFor(error.code) : 200;
      writeJson(res, status, runAnswer(outcome, baseUrl, linkToken(cred)));
    } catch (err) {
      throw withKeyLinks(err, baseUrl);
    }
  };

  /**
   * A POST with an Idempotency-Key runs at most once per key and credential (24 h): a retry gets the
   * first run's record, marked Idempotent-Replayed (core/src/runs/idempotency.ts has the rules).
   */
  const dispatchOnce = async (req: Request, res: Response, request: DispatchRequest, caller: Caller): Promise<DispatchOutcome> => {
    const header = req.method === 'POST' ? req.get('idempotency-key') : undefined;
    if (header === undefined) return ctx.dispatch.dispatch(request, caller);
    const answer = await ctx.idempotentRuns.run(caller, checkIdempotencyKey(header), request, (id) => ctx.dispatch.dispatch({ ...request, id }, caller));
    if (answer.ran) return answer.ran;
    res.set('Idempotent-Replayed', 'true');
    return { capability: ctx.registry.require(answer.replayed.key).capability, invocation: answer.replayed };
  };

  router.post('/api/dispatch', jsonOnly, ctx.access.requireRun(RUNNING), json({ limit: ctx.bodyLimitBytes, strict: false }), async (req, res) => {
    await run(req, res, parseEnvelope(req.body));
  });

  const mintLimit = mintLimiter(ctx);

  /**
   * GET /api/dispatch: one query verb per request, looked up in this table (parameter → move →
   * handler). The route's guard checks the move before the handler runs; invoke has none there
   * (its run is judged once the key is known, so an unknown key still gets did_you_mean) and
   * self_scope neither (keyless minting, rate limited per client instead).
   */
  const verbs: Record<QueryVerb, { move: string | null; object?: (value: string) => Promise<InvocationObject | undefined>; handle: VerbHandler }> = {
    invoke: {
      move: null,
      handle: async (req, res, invoke) => {
        const body = single(req, 'body');
        await run(req, res, { key: invoke, body: body ?? '' });
      },
    },
    key: {
      move: 'contract:read',
      handle: async (req, res, key, cred) => {
        const baseUrl = baseUrlOf(req, ctx.publicBaseUrl);
        const token = linkToken(cred!);
        let entry;
        try {
          entry = ctx.registry.require(key);
        } catch (err) {
          throw withKeyLinks(err, baseUrl);
        }
        if (wantsMarkdown(req)) return sendMarkdown(res, contractMarkdown(entry.capability, baseUrl, token));
        res.json({ ok: true, contract: contractJson(entry.capability, baseUrl, token) });
      },
    },
    confirm: {
      // Public: anyone may check that an invocation happened; nothing private is in the answer.
      move: 'confirm:read',
      handle: async (req, res, confirm) => {
        res.json(await confirmation(ctx, confirm, baseUrlOf(req, ctx.publicBaseUrl)));
      },
    },
    receipt: {
      move: 'receipt:read',
      // A receipt opens the private fields: its owner's only; to anyone else it does not exist.
      // A delivery's receipt (dlv_…) opens a webhook's traffic: whoever may read deliveries (the owner) only.
      object: async (id) => (DELIVERY_ENTRY_ID.test(id) ? undefined : { id, invocation: INVOCATION_ID.test(id) ? await ctx.invocations.get(id) : undefined }),
      handle: async (req, res, receiptOf, _cred, object) => {
        if (!object) {
          // A delivery id: its guard asked for deliveries:read (narrowerFor below).
          const delivery = await ctx.deliveries.get(receiptOf);
          if (!delivery) throw new SwitchyardError('not_found', `no delivery ${receiptOf}`);
          return void res.json(await deliveryReceipt(ctx, delivery, baseUrlOf(req, ctx.publicBaseUrl)));
        }
        res.json(await receipt(ctx, object.invocation!, baseUrlOf(req, ctx.publicBaseUrl)));
      },
    },
    map: {
      move: 'contract:read',
      handle: async (req, res, map, cred) => {
        const baseUrl = baseUrlOf(req, ctx.publicBaseUrl);
        const token = linkToken(cred!);
        const systems = ctx.registry.systems();
        if (map === '1' || map.toUpperCase() === ROOT) {
          if (wantsMarkdown(req)) return sendMarkdown(res, rootMapMarkdown(ROOT, systems, baseUrl));
          res.json({ ok: true, root: ROOT, systems: systems.map((s) => ({ system: s.system, path: [ROOT, s.system], capabilities: s.capabilities.map((c) => c.key), article: `${baseUrl}/api/dispatch?map=${s.system}&format=markdown` })) });
          return;
        }
        const system = systems.find((s) => s.system === map.toUpperCase());
        if (!system) throw new SwitchyardError('unknown_system', `no system ${map}`, { systems: systems.map((s) => s.system) });
        if (wantsMarkdown(req)) return sendMarkdown(res, systemArticleMarkdown(system, baseUrl));
        res.json({ ok: true, system: system.system, path: [ROOT, system.system], capabilities: system.capabilities.map((c) => ({ key: c.key, ...describe(c, baseUrl, token) })) });
      },
    },
    registry: {
      move: 'contract:read',
      handle: async (req, res, _value, cred) => {
        const baseUrl = baseUrlOf(req, ctx.publicBaseUrl);
        const capabilities = ctx.registry.list().map((c) => ({ key: c.key, ...describe(c, baseUrl, linkToken(cred!)), ...toolMetadata(c) }));
        res.json({ ok: true, root: ROOT, count: capabilities.length, capabilities });
      },
    },
    ask: {
      move: 'contract:read',
      handle: async (req, res, ask, cred) => {
        const baseUrl = baseUrlOf(req, ctx.publicBaseUrl);
        const token = linkToken(cred!);
        const question = checkQuestion(ask);
        const answer = ctx.registry.ask(question, askLimit(single(req, 'limit')));
        if (wantsMarkdown(req)) return sendMarkdown(res, askMarkdown(ctx.registry, question, answer, baseUrl, token));
        res.json(askJson(ctx.registry, question, answer, baseUrl, token));
      },
    },
    build: {
      move: 'contract:read',
      handle: async (req, res, _value, cred) => {
        const baseUrl = baseUrlOf(req, ctx.publicBaseUrl);
        const build = ctx.registry.build();
        res.set('etag', `"${build.terminalKey}"`);
        if (wantsMarkdown(req)) return sendMarkdown(res, buildMarkdown(build, baseUrl));
        res.json(buildJson(build, baseUrl, linkToken(cred!)));
      },
    },
    explain: {
      move: 'explain',
      handle: async (req, res, _value, cred) => {
        res.json(await explainAnswer(ctx, cred!, baseUrlOf(req, ctx.publicBaseUrl)));
      },
    },
    self_scope: {
      // Keyless: mints a token (rate limited per client) rather than using one. A credential sent
      // along must be good, as on every route: a bad one is its error, never ignored.
      move: null,
      handle: async (req, res) => {
        const cred = await credentialOf(req, ctx);
        await requireUnspent(ctx, cred, 'self_scope');
        await new Promise<void>((resolve, reject) => mintLimit(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
        res.json(await selfScopeAnswer(ctx, cred, baseUrlOf(req, ctx.publicBaseUrl), {
          keys: (single(req, 'keys') ?? '').split(',').map((k) => k.trim()).filter(Boolean),
          purpose: single(req, 'purpose') ?? null,
          actor: single(req, 'actor') ?? null,
          narrow: single(req, 'narrow') === '1',
        }));
      },
    },
  };

  /** The one verb a request names. */
  const verbOf = (req: Request): QueryVerb => {
    const named = Object.keys(req.query).filter((name): name is QueryVerb => (QUERY_VERBS as readonly string[]).includes(name));
    if (named.length > 1) {
      throw new SwitchyardError('invalid_request', `GET /api/dispatch takes one query verb; this request names ${named.join(' and ')}`, { verbs: named });
    }
    if (named.length === 0) {
      throw new SwitchyardError('invalid_request', 'GET /api/dispatch needs one of: key=<KEY> [&format=markdown], ask=<question or key>, build=1, registry=1, map=1 | map=<SYSTEM> [&format=markdown], confirm=<inv_id>, receipt=<inv_id or dlv_id>, explain=1, invoke=<KEY>&body=…, self_scope=1&keys=…', {
        queries: [...QUERY_VERBS],
      });
    }
    return named[0]!;
  };
  const moves = Object.fromEntries(QUERY_VERBS.map((name) => [name, verbs[name].move])) as Record<QueryVerb, string | null>;
  const objectOf = async (req: Request, name: QueryVerb) => verbs[name].object?.(single(req, name)!);

  router.get('/api/dispatch', ctx.access.requireVerb(moves, verbOf, objectOf, {
    receipt: { why: 'a delivery\'s receipt (dlv_…) opens a webhook\'s traffic: deliveries:read', moveOf: (id) => (DELIVERY_ENTRY_ID.test(id) ? OWNER_MOVES.readDeliveries : undefined) },
  }), async (req, res) => {
    const name = verbOf(req);
    await verbs[name].handle(req, res, single(req, name)!, runCredential(res), res.locals['object'] as InvocationObject | undefined);
  });

  return router;
}
