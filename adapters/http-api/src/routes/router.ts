// POST /api/route {text}: runs the router tags ([KEY]args[/KEY]) in a model's text, in order, each
// with the caller's credential and through the same dispatch as POST /api/dispatch. One tag's
// failure is reported in its place and does not stop the others; text without tags runs nothing.
import { Router, json, type Request } from 'express';
import { SwitchyardError, parseRouterTags, type ErrorCode, type RouterTag } from '@switchyard/core';
import { baseUrlOf } from '@switchyard/http-kit';
import type { Needs } from '@switchyard/http-kit';
import { linkToken, runCredential, type Credential } from '@switchyard/http-kit';
import { runAnswer, unknownKeyLinks } from '../presenters.js';

/** What this module uses of the HTTP context: it receives nothing else. */
type Ctx = Needs<'access' | 'apiKeys' | 'bodyLimitBytes' | 'dispatch' | 'publicBaseUrl' | 'registry' | 'tokenUses' | 'tokens'>;

/** What running tags is called in its refusals. */
const RUNNING = 'running router tags';

/** More tags than this in one text is refused whole: a runaway model must not fan out unbounded runs. */
export const MAX_TAGS_PER_TEXT = 20;

/**
 * A text whose runs were not all ok answers ok:false, and like every ok:false answer carries a
 * top-level error: the first failed run's code, and where each failed run is (its own error stays in place).
 */
function notAllOk(runs: Array<{ ok: boolean; at: number; key: string; error?: { code: ErrorCode; message: string } | null }>): { error?: Record<string, unknown> } {
  const failed = runs.filter((r) => !r.ok);
  if (failed.length === 0) return {};
  const first = failed[0]!;
  return {
    error: {
      code: first.error?.code ?? 'internal_error',
      message: `${failed.length} of ${runs.length} router tag(s) did not run ok; the first, ${first.key} at ${first.at}: ${first.error?.message ?? 'no message'}`,
      failed: failed.map((r) => ({ key: r.key, at: r.at, code: r.error?.code ?? 'internal_error' })),
    },
  };
}

export function routerRoutes(ctx: Ctx): Router {
  const router = Router();

  const runTag = async (req: Request, credential: Credential, tag: RouterTag, baseUrl: string) => {
    const where = { key: tag.key, at: tag.start, ...(tag.writtenAs ? { written_as: tag.writtenAs } : {}) };
    if (!ctx.registry.has(tag.key)) {
      // Not a run: nothing is ledgered for a key that does not exist.
      const error = new SwitchyardError('unknown_capability', `no capability with key ${tag.key}`, { key: tag.key, ...unknownKeyLinks(tag.key, ctx.registry.suggest(tag.key), baseUrl) });
      return { ...where, ok: false, error: error.toJSON() };
    }
    try {
      const { caller } = await ctx.access.admitRun(req, credential, RUNNING, { key: tag.key });
      const outcome = await ctx.dispatch.dispatch({ key: tag.key, body: tag.body, source: 'router' }, caller);
      return { ...where, ...runAnswer(outcome, baseUrl, linkToken(credential)) };
    } catch (err) {
      if (!(err instanceof SwitchyardError)) throw err;
      return { ...where, ok: false, error: err.toJSON() };
    }
  };

  router.post(
    '/api/route',
    (req, _res, next) => {
      if (!req.is('application/json')) throw new SwitchyardError('unsupported_media_type', 'send {"text": "…"} as application/json');
      next();
    },
    // A bad key or token is refused before the body is read; running needs some credential.
    ctx.access.requireRun(RUNNING, { atTheDoor: true }),
    json({ limit: ctx.bodyLimitBytes }),
    async (req, res) => {
      const text = (req.body as { text?: unknown } | undefined)?.text;
      const extra = Object.keys((req.body as object) ?? {}).filter((k) => k !== 'text');
      if (typeof text !== 'string' || extra.length) throw new SwitchyardError('invalid_request', 'send {"text": "…"}: model text holding [KEY]args[/KEY] tags', extra.length ? { fields: extra } : {});
      const parsed = parseRouterTags(text);
      if (parsed.tags.length > MAX_TAGS_PER_TEXT) throw new SwitchyardError('invalid_request', `at most ${MAX_TAGS_PER_TEXT} router tags per text; this one has ${parsed.tags.length}`, { tags: parsed.tags.length, max: MAX_TAGS_PER_TEXT });
      const baseUrl = baseUrlOf(req, ctx.publicBaseUrl);
      const runs = [];
      for (const tag of parsed.tags) runs.push(await runTag(req, runCredential(res)!, tag, baseUrl));
      res.json({ ok: runs.every((r) => r.ok), ...notAllOk(runs), count: runs.length, runs, problems: parsed.problems });
    },
  );

  return router;
}
