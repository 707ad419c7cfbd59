// The content pages' layout, on the shared escaping template (../html.ts).
import { html, htmlDocument, type Html } from '@switchyard/http-kit';

export { Html, escapeHtml, html } from '@switchyard/http-kit';

/** A whole page; the stylesheet is served from this origin, so the CSP needs no inline style. */
export const layout = (title: string, body: Html): string =>
  htmlDocument({
    title,
    head: html`<link rel="stylesheet" href="/assets/pages.css">
<link rel="alternate" type="text/plain" href="/llms.txt" title="llms.txt">`,
    header: html`<a href="/">Switchyard</a> · <a href="/tags">Tags</a> · <a href="/llms.txt">llms.txt</a>`,
    body,
  });
