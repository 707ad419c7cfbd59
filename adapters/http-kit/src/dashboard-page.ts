// The dashboard's page layout, on the shared escaping template (../html.ts).
import { html, htmlDocument, type Html } from './html.js';

export { html, type Html } from './html.js';

export interface PageOptions {
  title: string;
  /** Which top-level section is current, for the navigation. */
  section: 'capabilities' | 'webhooks' | 'approvals' | 'ledger' | 'oauth' | 'upstreams' | 'login';
  signedIn: boolean;
  csrf?: string;
  scripts?: string[];
}

const NAV: Array<[PageOptions['section'], string, string]> = [
  ['capabilities', '/dashboard', 'Capabilities'],
  ['webhooks', '/dashboard/webhooks', 'Webhooks'],
  ['approvals', '/dashboard/approvals', 'Approvals'],
  ['ledger', '/dashboard/ledger', 'Ledger'],
  ['oauth', '/dashboard/oauth', 'OAuth'],
  ['upstreams', '/dashboard/upstreams', 'Upstreams'],
];

export function page(options: PageOptions, body: Html): string {
  return htmlDocument({
    title: options.title,
    head: html`<link rel="stylesheet" href="/dashboard/assets/dashboard.css">
${(options.scripts ?? []).map((s) => html`<script src="/dashboard/assets/${s}" defer></script>`)}`,
    header: html`
  <a class="brand" href="/dashboard">Switchyard</a>
  <nav>${NAV.map(([id, href, label]) => html`<a href="${href}"${id === options.section ? html` aria-current="page"` : ''}>${label}</a>`)}</nav>
  ${options.signedIn
    ? html`<form method="post" action="/dashboard/logout" class="inline"><input type="hidden" name="csrf" value="${options.csrf ?? ''}"><button type="submit">Sign out</button></form>`
    : html`<a href="/dashboard/login">Sign in</a>`}
`,
    body,
  });
}
