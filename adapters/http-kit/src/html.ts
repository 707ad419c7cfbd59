// The one escaping rule for every HTML page (content pages and the dashboard): each interpolated
// value is escaped unless it is already Html, built by this same template tag or by the markdown
// renderer. Nothing else writes markup.
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Markup that is already safe. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

type Part = Html | string | number | boolean | null | undefined | readonly Part[];

const render = (part: Part): string =>
  part === null || part === undefined || part === false
    ? ''
    : part instanceof Html
      ? part.value
      : Array.isArray(part)
        ? part.map(render).join('')
        : escapeHtml(String(part));

/** Tagged template: html`<h1>${title}</h1>` escapes `title`; nested html`` and arrays pass through. */
export const html = (strings: TemplateStringsArray, ...values: Part[]): Html =>
  new Html(strings.reduce((out, s, i) => out + s + (i < values.length ? render(values[i]!) : ''), ''));

/** The document every page shares: its title, what else goes in <head>, the header and the body. */
export const htmlDocument = (parts: { title: string; head: Html; header: Html; body: Html }): string =>
  html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${parts.title} · Switchyard</title>
${parts.head}
</head>
<body>
<header>${parts.header}</header>
<main>
${parts.body}
</main>
</body>
</html>
`.value;
