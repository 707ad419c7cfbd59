// Publishing an article: POST /api/articles with the owner's API key (no token carries the move).
// The body is { markdown } (front matter + body) or the fields themselves, of which title, tags and
// body are enough (slug, date and summary are derived); "replace": true swaps an article with the
// same slug, otherwise a taken slug is 409 article_exists. Checked before stored.
import { Router, json } from 'express';
import { SwitchyardError, checkArticleMeta, parseArticle, withDerivedFields, type Article } from '@switchyard/core';
import { baseUrlOf } from '@switchyard/http-kit';
import type { Needs } from '@switchyard/http-kit';
import { OWNER_MOVES } from '@switchyard/http-kit';
import { pageUrls } from '../pages/urls.js';

/** What this module uses of the HTTP context: it receives nothing else. */
type Ctx = Needs<'access' | 'apiKeys' | 'articles' | 'clock' | 'publicBaseUrl' | 'tokenUses' | 'tokens'>;

const FIELDS = ['slug', 'title', 'tags', 'date', 'summary'];
const ALLOWED = new Set(['markdown', 'body', 'replace', ...FIELDS]);

function articleOf(input: unknown, now: Date): { article: Article; replace: boolean } {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new SwitchyardError('invalid_request', 'send a JSON object: { "markdown": "---\\n…front matter…\\n---\\nbody" } or the fields title, tags and body (slug, date and summary are optional)');
  const body = input as Record<string, unknown>;
  const unknown = Object.keys(body).filter((k) => !ALLOWED.has(k));
  if (unknown.length) throw new SwitchyardError('invalid_request', `unknown field(s): ${unknown.join(', ')}`, { allowed: [...ALLOWED] });
  if (body['replace'] !== undefined && typeof body['replace'] !== 'boolean') throw new SwitchyardError('invalid_request', 'replace must be true or false');
  const replace = body['replace'] === true;
  if (body['markdown'] !== undefined) {
    if (typeof body['markdown'] !== 'string') throw new SwitchyardError('invalid_request', 'markdown must be a string');
    if (Object.keys(body).some((k) => k !== 'markdown' && k !== 'replace')) throw new SwitchyardError('invalid_request', 'send either markdown or the separate fields, not both');
    return { article: parseArticle(body['markdown']), replace };
  }
  if (typeof body['body'] !== 'string') throw new SwitchyardError('invalid_article', 'body (the markdown after the front matter) must be a string', { errors: [{ path: '/body', message: '/body must be string' }] });
  const fields = withDerivedFields(Object.fromEntries([...FIELDS, 'body'].map((f) => [f, body[f]])), now);
  const meta = checkArticleMeta(Object.fromEntries(FIELDS.filter((f) => fields[f] !== undefined).map((f) => [f, fields[f]])));
  return { article: { ...meta, body: body['body'] }, replace };
}

export function articleRoutes(ctx: Ctx): Router {
  const router = Router();
  router.post('/api/articles', ctx.access.requireMove(OWNER_MOVES.publishArticles), json({ limit: '1mb' }), async (req, res) => {
    const { article, replace } = articleOf(req.body, ctx.clock.now());
    const { replaced } = await ctx.articles.publish(article, { replace });
    const urls = pageUrls(baseUrlOf(req, ctx.publicBaseUrl));
    const { body: _body, ...meta } = article;
    res.status(replaced ? 200 : 201).json({
      ok: true,
      replaced,
      article: { ...meta, url: urls.article(article.slug), markdown: urls.articleMd(article.slug), tag_pages: article.tags.map(urls.tag) },
    });
  });
  return router;
}
