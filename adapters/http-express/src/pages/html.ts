// The content pages' layout, on the shared escaping template (../html.ts).
import { html, type Html } from '../html.js';

export { Html, escapeHtml, html } from '../html.js';

/** A whole page; the stylesheet is served from this origin, so the CSP needs no inline style. */
export const layout = (title: string, body: Html): string =>
  html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Switchyard</title>
<link rel="stylesheet" href="/assets/pages.css">
<link rel="alternate" type="text/plain" href="/llms.txt" title="llms.txt">
</head>
<body>
<header><a href="/">Switchyard</a> · <a href="/tags">Tags</a> · <a href="/llms.txt">llms.txt</a></header>
<main>
${body}
</main>
</body>
</html>
`.value;
