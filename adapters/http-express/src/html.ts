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
