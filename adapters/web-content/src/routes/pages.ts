// The content pages: articles, tag pages ("Everything tagged <tag>") and their downloads, system
// pages from the registry, and /llms.txt. Public reads: no credential is resolved, so a page is the
// same for every reader. Security headers (a self-only CSP) go on these routes only.
import { Router, type Request, type RequestHandler, type Response } from 'express';
import helmet from 'helmet';
import { SLUG_PATTERN, SwitchyardError, articleSource, systemArticleMarkdown, type TagIndex } from '@switchyard/core';
import { baseUrlOf, publicRoute } from '@switchyard/http-kit';
import type { Needs } from '@switchyard/http-kit';
import { PAGES_CSS } from '../pages/css.js';
import { llmsTxt, notFoundMarkdown, tagAllMarkdown, tagManifest, tagMarkdown } from '../pages/texts.js';
import { pageUrls } from '../pages/urls.js';
import { articlePage, homePage, notFoundPage, systemPage, tagPage, tagsPage } from '../pages/views.js';
import { RenderMemo, rendered, type Rendered } from '../pages/memo.js';
import { sendZip, writeZip, type ZipEntry } from '../pages/zip.js';

/** What this module uses of the HTTP context: it receives nothing else. */
type Ctx = Needs<'articles' | 'publicBaseUrl' | 'registry' | 'workspaces'>;

// Pages load nothing but their own stylesheet: no script at all, no inline style, no framing.
/** The content site is public: pages, downloads and llms.txt are for anyone and any reader. */
const open = publicRoute('the public content site');

const secured: RequestHandler = helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'none'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'"],
      baseUri: ["'none'"],
      formAction: ["'none'"],
      frameAncestors: ["'none'"],
    },
  },
});

const NAME = /^([a-z0-9-]+?)(?:\.(md|zip|json))?$/;
// The format a path asks for, read from its ending even when the name before it is not valid.
const FORMAT = /\.(md|zip|json)$/;
const SYSTEM_NAME = /^([A-Z][A-Z0-9_]*?)(?:\.(md))?$/;

// A Rendered body carries its ETag: Express then skips hashing and answers 304 when it matches.
const send = (res: Response, body: string | Rendered) => (typeof body === 'string' ? res.send(body) : res.set('etag', body.etag).send(body.body));
const markdown = (res: Response, body: string | Rendered) => send(res.type('text/markdown; charset=utf-8'), body);
const page = (res: Response, body: string | Rendered, status = 200) => send(res.status(status).type('html'), body);

export function pageRoutes(ctx: Ctx): Router {
  const router = Router();
  const workspace = ctx.workspaces[0] ?? 'default';
  // HTML links stay relative (no Host header in the markup); markdown and JSON are read
  // out of context, so their links are absolute, on the configured base where there is one.
  const relative = pageUrls('');
  const absolute = (req: Request) => pageUrls(baseUrlOf(req, ctx.publicBaseUrl));
  // A 404 in the format asked for: markdown for .md, HTML for a page.
  const notFound = (req: Request, res: Response, what: string) =>
    FORMAT.exec(req.path)?.[1] === 'md' ? markdown(res.status(404), notFoundMarkdown(what, absolute(req))) : page(res, notFoundPage(what, relative), 404);
  // Built once per content change (and registry change, for what lists systems).
  const memo = new RenderMemo();

  const articleEntries = (index: TagIndex, prefix: string, slugs = index.articles.map((a) => a.slug)): ZipEntry[] =>
    [...slugs].sort().map((slug) => {
      const a = index.article(slug)!;
      return { name: `${prefix}${a.slug}.md`, text: articleSource(a), mtime: new Date(a.date) };
    });

  router.get('/assets/pages.css', open, secured, (_req, res) => {
    res.type('text/css').set('cache-control', 'public, max-age=3600').send(PAGES_CSS);
  });

  router.get('/', open, secured, async (_req, res) => {
    const index = await ctx.articles.index();
    page(res, memo.get(index, `home ${ctx.registry.version}`, () => rendered(homePage(index, ctx.registry.systems(), relative, workspace))));
  });

  router.get('/tags', open, secured, async (_req, res) => {
    const index = await ctx.articles.index();
    page(res, memo.get(index, 'tags', () => rendered(tagsPage(index, relative))));
  });

  router.get('/tags/:name', open, secured, async (req, res) => {
    const [, tag, ext] = NAME.exec(req.params['name'] as string) ?? [];
    const index = await ctx.articles.index();
    const view = tag && SLUG_PATTERN.test(tag) ? index.tag(tag) : undefined;
    if (!view) {
      const asked = FORMAT.exec(req.params['name'] as string)?.[1];
      if (asked === 'json' || asked === 'zip') throw new SwitchyardError('not_found', `no articles are tagged ${JSON.stringify(tag ?? req.params['name'])}`, { tags: relative.tags });
      return notFound(req, res, `Nothing is tagged ${tag ?? (req.params['name'] as string).replace(FORMAT, '')}.`);
    }
    if (ext === 'md') {
      const base = baseUrlOf(req, ctx.publicBaseUrl);
      return markdown(res, memo.get(index, `tagmd ${view.tag} ${base}`, () => rendered(tagMarkdown(view, pageUrls(base), workspace, base))));
    }
    if (ext === 'json') return res.json(tagManifest(view, absolute(req)));
    if (ext === 'zip') return sendZip(res, `${view.tag}.zip`, memo.get(index, `zip ${view.tag}`, () => writeZip(articleEntries(index, `${view.tag}/`, view.articles.map((a) => a.slug)))));
    page(res, memo.get(index, `tag ${view.tag}`, () => rendered(tagPage(view, relative, workspace))));
  });

  router.get('/tags/:tag/all.md', open, secured, async (req, res) => {
    const tag = req.params['tag'] as string;
    const view = SLUG_PATTERN.test(tag) ? (await ctx.articles.index()).tag(tag) : undefined;
    if (!view) return notFound(req, res, `Nothing is tagged ${tag}.`);
    markdown(res, tagAllMarkdown(view));
  });

  router.get('/articles/:name', open, secured, async (req, res) => {
    const [, slug, ext] = NAME.exec(req.params['name'] as string) ?? [];
    const article = slug && (ext === undefined || ext === 'md') ? (await ctx.articles.index()).article(slug) : undefined;
    if (!article) return notFound(req, res, `No article ${req.params['name']}.`);
    if (ext === 'md') return markdown(res, articleSource(article));
    page(res, articlePage(article, relative));
  });

  router.get('/systems/:name', open, secured, async (req, res) => {
    const [, name, ext] = SYSTEM_NAME.exec(req.params['name'] as string) ?? [];
    const system = ctx.registry.systems().find((s) => s.system === name);
    if (!system) return notFound(req, res, `No system ${req.params['name']}.`);
    const text = systemArticleMarkdown(system, baseUrlOf(req, ctx.publicBaseUrl));
    if (ext === 'md') return markdown(res, text);
    page(res, systemPage(system, text, relative));
  });

  router.get('/site.zip', open, secured, async (req, res) => {
    const index = await ctx.articles.index();
    const base = baseUrlOf(req, ctx.publicBaseUrl);
    const archive = memo.get(index, `site ${ctx.registry.version} ${base}`, () => {
      const built = new Date(index.articles[0]?.date ?? 0);
      const systems = ctx.registry.systems();
      return writeZip([
        { name: 'site/llms.txt', text: llmsTxt(index, systems, pageUrls(base), workspace, base), mtime: built },
        ...articleEntries(index, 'site/articles/'),
        ...systems.map((s) => ({ name: `site/systems/${s.system}.md`, text: systemArticleMarkdown(s, base), mtime: built })),
      ]);
    });
    await sendZip(res, 'site.zip', archive);
  });

  router.get('/llms.txt', open, secured, async (req, res) => {
    const base = baseUrlOf(req, ctx.publicBaseUrl);
    const index = await ctx.articles.index();
    send(res.type('text/plain; charset=utf-8'), memo.get(index, `llms ${ctx.registry.version} ${base}`, () => rendered(llmsTxt(index, ctx.registry.systems(), pageUrls(base), workspace, base))));
  });

  return router;
}
