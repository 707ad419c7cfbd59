// The one escaping helper for HTML pages: every interpolated value is escaped unless it is Html.
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Markup that is already safe (built by `html` or by the markdown renderer). */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

type Part = Html | string | number | null | undefined | readonly Part[];

const render = (part: Part): string =>
  part === null || part === undefined ? '' : part instanceof Html ? part.value : Array.isArray(part) ? part.map(render).join('') : escapeHtml(String(part));

/** Tagged template: html`<h1>${title}</h1>` escapes `title`; nested html`` and arrays pass through. */
export const html = (strings: TemplateStringsArray, ...values: Part[]): Html =>
  new Html(strings.reduce((out, s, i) => out + s + (i < values.length ? render(values[i]!) : ''), ''));

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
