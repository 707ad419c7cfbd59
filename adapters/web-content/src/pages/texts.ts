// The markdown and JSON forms of the content pages: tag pages, one-file folders, manifests, llms.txt.
import { articleSource, counted, type Article, type SystemNode, type TagIndex, type TagView } from '@switchyard/core';
import { guidanceMarkdown, entryPoints, OPERATOR_NOTE } from './guidance.js';
import { markdownText } from './markdown.js';
import type { PageUrls } from './urls.js';

export const SITE_TITLE = 'Switchyard';
export const SITE_SUMMARY = 'Capability dispatch, ledger and webhook service: one dispatch endpoint runs capabilities, every run lands in an append-only ledger with public proofs, and webhooks store each delivery whole.';

const day = (date: string) => date.slice(0, 10);

export function tagMarkdown(view: TagView, urls: PageUrls, workspace: string, base: string): string {
  return [
    `# Everything tagged ${view.tag}`,
    '',
    `${counted(view.count, 'article')}, newest first.`,
    '',
    ...view.articles.map((a) => `- [${markdownText(a.title)}](${urls.articleMd(a.slug)}) (${day(a.date)}): ${markdownText(a.summary)}`),
    '',
    '## Related tags',
    '',
    ...(view.related.length ? view.related.map((r) => `- [${r.tag}](${urls.tagMd(r.tag)}): ${r.count} shared`) : ['None.']),
    '',
    '## Downloads',
    '',
    `- [${view.tag}.zip](${urls.tagZip(view.tag)}): the folder as a zip`,
    `- [all.md](${urls.tagAll(view.tag)}): the folder as one markdown file`,
    `- [${view.tag}.json](${urls.tagJson(view.tag)}): the folder as a JSON manifest`,
    `- [site.zip](${urls.site}): the whole site`,
    '',
    guidanceMarkdown(workspace, base),
  ].join('\n');
}

/** A line before each article in the one-file form; an HTML comment, so renderers show nothing. */
export const ARTICLE_MARKER = (slug: string) => `<!-- article: ${slug} -->`;

/** A tag's articles as one markdown file: each article's source (front matter too), newest first. */
export const tagAllMarkdown = (view: TagView): string => view.articles.map((a) => `${ARTICLE_MARKER(a.slug)}\n${articleSource(a)}`).join('\n');

export function tagManifest(view: TagView, urls: PageUrls) {
  return {
    ok: true,
    tag: view.tag,
    title: `Everything tagged ${view.tag}`,
    count: view.count,
    articles: view.articles.map((a) => ({ slug: a.slug, title: a.title, date: a.date, summary: a.summary, tags: a.tags, url: urls.article(a.slug), markdown: urls.articleMd(a.slug), zip_entry: `${view.tag}/${a.slug}.md` })),
    related: view.related.map((r) => ({ tag: r.tag, count: r.count, url: urls.tag(r.tag) })),
    downloads: { zip: urls.tagZip(view.tag), markdown: urls.tagAll(view.tag), manifest: urls.tagJson(view.tag), site: urls.site },
  };
}

/** https://llmstxt.org: a title, a summary, then sections of links to markdown versions. */
export function llmsTxt(index: TagIndex, systems: SystemNode[], urls: PageUrls, workspace: string, base: string): string {
  const link = (name: string, url: string, notes: string) => `- [${markdownText(name)}](${url}): ${markdownText(notes)}`;
  return [
    `# ${SITE_TITLE}`,
    '',
    `> ${SITE_SUMMARY}`,
    '',
    'Every link below points at markdown or JSON. Articles are grouped by tag; each tag page lists its articles newest first and links downloads of the folder.',
    '',
    OPERATOR_NOTE,
    '',
    '## Entry points',
    '',
    ...entryPoints(workspace).map((e) => link(`GET ${e.path}`, `${base}${e.path.replace('<question>', 'rename%20a%20group')}`, e.notes)),
    '',
    '## Articles',
    '',
    ...index.articles.map((a) => link(a.title, urls.articleMd(a.slug), a.summary)),
    '',
    '## Tags',
    '',
    ...index.tags().map((t) => link(`Everything tagged ${t.tag}`, urls.tagMd(t.tag), counted(t.count, 'article'))),
    '',
    '## Systems',
    '',
    ...systems.flatMap((s) => [
      link(s.system, urls.systemMd(s.system), `${counted(s.capabilities.length, 'capability', 'capabilities')}, generated from the registry`),
      link(`${s.system} map`, `${base}/api/dispatch?map=${s.system}&format=markdown`, 'the same system from the dispatch endpoint'),
      ...s.capabilities.map((c) => link(c.key, `${base}/api/dispatch?key=${c.key}&format=markdown`, c.description.split('. ')[0]!)),
    ]),
    '',
    '## Optional',
    '',
    link('Whole site', urls.site, 'every article and system page as one zip'),
    link('Root map', `${base}/api/dispatch?map=1&format=markdown`, 'every system and capability'),
    '',
  ].join('\n');
}

export type { Article };

/** A 404 for a markdown address, in markdown: what is missing and where to look instead. */
export const notFoundMarkdown = (what: string, urls: PageUrls): string =>
  ['# Not found', '', markdownText(what), '', `- [All tags](${urls.tags}) · [llms.txt](${urls.llms}): every article, tag and system`, ''].join('\n');
