// /api/dispatch: POST runs a capability; GET answers the public read queries (contract, registry, map).
import { Router, json, type Request, type RequestHandler, type Response } from 'express';
import { INVOCATION_ID, ROOT, SwitchyardError, contractMarkdown, runDenial, describe, rootMapMarkdown, systemArticleMarkdown, type DispatchRequest, type StoredInvocation } from '@switchyard/core';
import { authorize, callerOf, credentialOf, linkToken, requireUnspent } from '../credentials.js';
import { explainAnswer, selfScopeAnswer } from '../token-answers.js';
import { mintLimiter } from '../rate-limit.js';
import { baseUrlOf } from '../base-url.js';
import type { HttpContext } from '../context.js';
import { statusFor } from '../status.js';
import { writeJson } from '../write-json.js';
import { contractJson, runAnswer, withKeyLinks } from '../presenters.js';
import { confirmation, receipt } from '../proofs.js';
import { askJson, askLimit, askMarkdown, buildJson, buildMarkdown, checkQuestion } from '../discovery-answers.js';

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

export function dispatchRoutes(ctx: HttpContext): Router {
  const router = Router();

  // Content type and credential are checked before the body is read.
  const jsonOnly: RequestHandler = (req, _res, next) => {
    const type = req.is('application/json');
    // type-is answers null for a request that announces no body, whatever its content type says.
    if (type === null || req.headers['content-length'] === '0') throw new SwitchyardError('invalid_request', 'the request has no body: send {"key": …, "body": …} as application/json');
    if (!type) throw new SwitchyardError('unsupported_media_type', 'send the dispatch request as application/json');
    next();
  };
  // A bad API key or token is refused before the body is read.
  const credential: RequestHandler = async (req, _res, next) => {
    await credentialOf(req, ctx);
    next();
  };

  /** Runs a dispatch request for the request's credential: invoke:<KEY> must be allowed. */
  const run = async (req: Request, res: Response, request: DispatchRequest): Promise<void> => {
    const baseUrl = baseUrlOf(req, ctx.publicBaseUrl);
    // The key to authorize: the request's, or for a replay the original's. Unknown keys are left to
    // dispatch, whose 404 carries did_you_mean (the registry is public anyway). A replayed or repaired
    // invocation must be the caller's own (the policy decides, before any use is spent).
    let key = 'key' in request ? request.key : undefined;
    let object: { id: string; invocation: StoredInvocation | undefined } | undefined;
    if ('replay' in request) {
      const original = typeof request.replay === 'string' && INVOCATION_ID.test(request.replay) ? await ctx.invocations.get(request.replay) : undefined;
      if (!original) throw new SwitchyardError('invocation_not_found', `no invocation ${String(request.replay)} to replay`);
      key = original.key;
      object = { id: original.id, invocation: original };
    } else if (typeof request.repairs === 'string' && INVOCATION_ID.test(request.repairs)) {
      const target = await ctx.invocations.get(request.repairs);
      if (target) object = { id: target.id, invocation: target };
    }
    const cred = key !== undefined && ctx.registry.has(key) ? await authorize(req, ctx, `invoke:${key}`, object) : await credentialOf(req, ctx);
    const noCredential = runDenial(cred, 'running a capability', `${baseUrl}/start`);
    if (noCredential) throw noCredential;
    try {
      const outcome = await ctx.dispatch.dispatch(request, callerOf(cred));
      const error = outcome.invocation.error;
      if (error) ctx.logger.info('run failed', { key: outcome.capability.key, invocation: outcome.invocation.id, code: error.code });
      // A run waiting for the owner's approval is accepted, not refused: 202.
      const status = outcome.invocation.status === 'awaiting_approval' ? 202 : error ? statusFor(error.code) : 200;
      writeJson(res, status, runAnswer(outcome, baseUrl, linkToken(cred)));
    } catch (err) {
      throw withKeyLinks(err, baseUrl);
    }
  };

  router.post('/api/dispatch', jsonOnly, credential, json({ limit: ctx.bodyLimitBytes, strict: false }), async (req, res) => {
    await run(req, res, parseEnvelope(req.body));
  });

  const mintLimit = mintLimiter(ctx);

  router.get('/api/dispatch', async (req, res) => {
    const baseUrl = baseUrlOf(req, ctx.publicBaseUrl);
    const key = single(req, 'key');
    const map = single(req, 'map');
    const confirm = single(req, 'confirm');
    if (confirm !== undefined) {
      // Public: anyone may check that an invocation happened; nothing private is in the answer.
      await authorize(req, ctx, 'confirm:read');
      res.json(await confirmation(ctx, confirm, baseUrl));
      return;
    }
    const receiptOf = single(req, 'receipt');
    if (receiptOf !== undefined) {
      const inv = INVOCATION_ID.test(receiptOf) ? await ctx.invocations.get(receiptOf) : undefined;
      // A receipt opens the private fields: its owner's only; to anyone else it does not exist.
      await authorize(req, ctx, 'receipt:read', { id: receiptOf, invocation: inv });
      res.json(await receipt(ctx, inv!, baseUrl));
      return;
    }
    if (single(req, 'explain') !== undefined) {
      const cred = await authorize(req, ctx, 'explain');
      res.json(await explainAnswer(ctx, cred, baseUrl));
      return;
    }
    const invoke = single(req, 'invoke');
    if (invoke !== undefined) {
      const body = single(req, 'body');
      await run(req, res, { key: invoke, body: body ?? '' });
      return;
    }
    if (single(req, 'self_scope') !== undefined) {
      // A credential sent along must be good, as on every route: a bad one is its error, never ignored.
      const cred = await credentialOf(req, ctx);
      await requireUnspent(ctx, cred, 'self_scope');
      await new Promise<void>((resolve, reject) => mintLimit(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
      res.json(await selfScopeAnswer(ctx, cred, baseUrl, {
        keys: (single(req, 'keys') ?? '').split(',').map((k) => k.trim()).filter(Boolean),
        purpose: single(req, 'purpose') ?? null,
        actor: single(req, 'actor') ?? null,
        narrow: single(req, 'narrow') === '1',
      }));
      return;
    }
    // Everything left reads contracts.
    const cred = await authorize(req, ctx, 'contract:read');
    const token = linkToken(cred);
    if (key !== undefined) {
      let entry;
      try {
        entry = ctx.registry.require(key);
      } catch (err) {
        throw withKeyLinks(err, baseUrl);
      }
      if (wantsMarkdown(req)) return sendMarkdown(res, contractMarkdown(entry.capability, baseUrl, token));
      res.json({ ok: true, contract: contractJson(entry.capability, baseUrl, token) });
      return;
    }
    const ask = single(req, 'ask');
    if (ask !== undefined) {
      const question = checkQuestion(ask);
      const answer = ctx.registry.ask(question, askLimit(single(req, 'limit')));
      if (wantsMarkdown(req)) return sendMarkdown(res, askMarkdown(ctx.registry, question, answer, baseUrl, token));
      res.json(askJson(ctx.registry, question, answer, baseUrl, token));
      return;
    }
    if (single(req, 'build') !== undefined) {
      const build = ctx.registry.build();
      res.set('etag', `"${build.terminalKey}"`);
      if (wantsMarkdown(req)) return sendMarkdown(res, buildMarkdown(build, baseUrl));
      res.json(buildJson(build, baseUrl, token));
      return;
    }
    if (single(req, 'registry') !== undefined) {
      const capabilities = ctx.registry.list().map((c) => ({ key: c.key, ...describe(c, baseUrl, token) }));
      res.json({ ok: true, root: ROOT, count: capabilities.length, capabilities });
      return;
    }
    if (map !== undefined) {
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
      return;
    }
    throw new SwitchyardError('invalid_request', 'GET /api/dispatch needs one of: key=<KEY> [&format=markdown], ask=<question or key>, build=1, registry=1, map=1 | map=<SYSTEM> [&format=markdown], confirm=<inv_id>, receipt=<inv_id>, explain=1, invoke=<KEY>&body=…, self_scope=1&keys=…', {
      queries: ['key', 'ask', 'build', 'registry', 'map', 'confirm', 'receipt', 'explain', 'invoke', 'self_scope'],
    });
  });

  return router;
}
