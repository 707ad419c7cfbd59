// Server-rendered HTML with one escaping rule: every interpolated value is escaped unless it is
// already markup built by this same template tag. Nothing else writes HTML in the dashboard.

export class Markup {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (value: unknown): string => String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]!);

const render = (value: unknown): string => {
  if (value instanceof Markup) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(value);
};

/** html`<p>${text}</p>`: values are escaped; arrays and nested html`` fragments are joined as markup. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Markup {
  let out = strings[0]!;
  values.forEach((v, i) => {
    out += render(v) + strings[i + 1]!;
  });
  return new Markup(out);
}

export interface PageOptions {
  title: string;
  /** Which top-level section is current, for the navigation. */
  section: 'capabilities' | 'webhooks' | 'ledger' | 'login';
  signedIn: boolean;
  csrf?: string;
  scripts?: string[];
}

const NAV: Array<[PageOptions['section'], string, string]> = [
  ['capabilities', '/dashboard', 'Capabilities'],
  ['webhooks', '/dashboard/webhooks', 'Webhooks'],
  ['ledger', '/dashboard/ledger', 'Ledger'],
];

export function page(options: PageOptions, body: Markup): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · Switchyard</title>
<link rel="stylesheet" href="/dashboard/assets/dashboard.css">
${(options.scripts ?? []).map((s) => html`<script src="/dashboard/assets/${s}" defer></script>`)}
</head>
<body>
<header>
  <a class="brand" href="/dashboard">Switchyard</a>
  <nav>${NAV.map(([id, href, label]) => html`<a href="${href}"${id === options.section ? html` aria-current="page"` : ''}>${label}</a>`)}</nav>
  ${options.signedIn
    ? html`<form method="post" action="/dashboard/logout" class="inline"><input type="hidden" name="csrf" value="${options.csrf ?? ''}"><button type="submit">Sign out</button></form>`
    : html`<a href="/dashboard/login">Sign in</a>`}
</header>
<main>
${body}
</main>
</body>
</html>
`.text;
}
