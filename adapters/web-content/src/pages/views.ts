// The HTML pages. Every value goes through `html`, so titles, tags and summaries arrive escaped.
import { counted, type Article, type SystemNode, type TagCount, type TagIndex, type TagView } from '@switchyard/core';
import { guidanceHtml } from './guidance.js';
import { html, layout, type Html } from './html.js';
import { renderMarkdown } from './markdown.js';
import type { PageUrls } from './urls.js';

const day = (date: string) => date.slice(0, 10);

const articleList = (articles: Article[], urls: PageUrls): Html => html`<ol class="articles">
${articles.map((a) => html`<li><a href="${urls.article(a.slug)}">${a.title}</a> <time datetime="${a.date}">${day(a.date)}</time><br>${a.summary}</li>\n`)}</ol>`;

const tagList = (tags: TagCount[], urls: PageUrls, unit: (n: number) => string): Html => html`<ul class="tags">
${tags.map((t) => html`<li><a href="${urls.tag(t.tag)}" rel="tag">${t.tag}</a> <span class="count">${unit(t.count)}</span></li>\n`)}</ul>`;

export const homePage = (index: TagIndex, systems: SystemNode[], urls: PageUrls, workspace: string): string =>
  layout(
    'Articles',
    html`<h1>Switchyard</h1>
<p>Capability dispatch, ledger and webhook service. ${counted(index.articles.length, 'article')}, newest first.</p>
${articleList(index.articles, urls)}
<h2>Tags</h2>
${tagList(index.tags(), urls, (n) => counted(n, 'article'))}
<h2>Systems</h2>
<ul class="systems">
${systems.map((s) => html`<li><a href="${urls.system(s.system)}">${s.system}</a> <span class="count">${counted(s.capabilities.length, 'capability', 'capabilities')}</span></li>\n`)}</ul>
<p><a href="${urls.site}">Download the whole site (zip)</a></p>
${guidanceHtml(workspace)}`,
  );

export const tagsPage = (index: TagIndex, urls: PageUrls): string =>
  layout('Tags', html`<h1>Tags</h1>
${tagList(index.tags(), urls, (n) => counted(n, 'article'))}`);

export const tagPage = (view: TagView, urls: PageUrls, workspace: string): string =>
  layout(
    `Everything tagged ${view.tag}`,
    html`<h1>Everything tagged ${view.tag}</h1>
<p class="count"><span id="count">${view.count}</span> ${view.count === 1 ? 'article' : 'articles'}, newest first. <a href="${urls.tagMd(view.tag)}">Markdown version</a></p>
${articleList(view.articles, urls)}
<h2>Related tags</h2>
${view.related.length ? tagList(view.related, urls, (n) => `${n} shared`) : html`<p>None.</p>`}
<h2>Downloads</h2>
<ul class="downloads">
<li><a href="${urls.tagZip(view.tag)}" download>${view.tag}.zip</a>: the folder as a zip</li>
<li><a href="${urls.tagAll(view.tag)}">all.md</a>: the folder as one markdown file</li>
<li><a href="${urls.tagJson(view.tag)}">${view.tag}.json</a>: the folder as a JSON manifest</li>
<li><a href="${urls.site}" download>site.zip</a>: the whole site</li>
</ul>
${guidanceHtml(workspace)}`,
  );

export const articlePage = (a: Article, urls: PageUrls): string =>
  layout(
    a.title,
    html`<article>
<h1>${a.title}</h1>
<p class="meta"><time datetime="${a.date}">${day(a.date)}</time> · ${a.tags.map((t, i) => html`${i ? ', ' : ''}<a href="${urls.tag(t)}" rel="tag">${t}</a>`)} · <a href="${urls.articleMd(a.slug)}">Markdown</a></p>
<p class="summary">${a.summary}</p>
${renderMarkdown(a.body)}
</article>`,
  );

export const systemPage = (system: SystemNode, markdown: string, urls: PageUrls): string =>
  layout(system.system, html`<p class="meta">Generated from the registry · <a href="${urls.systemMd(system.system)}">Markdown</a></p>
${renderMarkdown(markdown)}`);

export const notFoundPage = (what: string, urls: PageUrls): string =>
  layout('Not found', html`<h1>Not found</h1>
<p>${what}</p>
<p><a href="${urls.tags}">All tags</a> · <a href="${urls.home}">All articles</a></p>`);
