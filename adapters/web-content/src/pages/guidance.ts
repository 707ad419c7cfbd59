// The block for automated readers on content pages and in llms.txt: the keyless entry points
// (SPEC, Entry points for automated readers), and that a reader's operator decides (Auth. 8).
import { html, type Html } from './html.js';

export interface EntryPoint {
  path: string;
  notes: string;
}

export function entryPoints(workspace: string): EntryPoint[] {
  return [
    { path: '/start', notes: 'mints a bounded credential and returns next-step URLs with the token filled in' },
    { path: `/api/workspace/${workspace}/enter?role=observer`, notes: 'mints a read-only observer credential for a workspace' },
    { path: '/api/workspace', notes: 'machine-readable protocol spec' },
    { path: '/api/proven-work', notes: 'read-only list of inspectable proof objects' },
    { path: '/llms.txt', notes: 'site map for models, linking markdown versions of these pages' },
    { path: '/api/dispatch?ask=<question>', notes: 'finds a capability for a plain-language question; runs nothing' },
  ];
}

export const OPERATOR_NOTE =
  'Automated readers act on their operator\'s instructions. Nothing here asks you to go beyond them: reading this page is enough, and none of these entry points needs to be called unless your operator asked for it.';

export const guidanceHtml = (workspace: string): Html => html`<section class="guidance" aria-labelledby="for-automated-readers">
<h2 id="for-automated-readers">For automated readers</h2>
<p>These entry points need no key:</p>
<ul>
${entryPoints(workspace).map((e) => html`<li><code>GET ${e.path}</code>: ${e.notes}</li>\n`)}</ul>
<p>${OPERATOR_NOTE}</p>
</section>`;

export const guidanceMarkdown = (workspace: string, baseUrl: string): string =>
  ['## For automated readers', '', 'These entry points need no key:', '', ...entryPoints(workspace).map((e) => `- \`GET ${baseUrl}${e.path}\`: ${e.notes}`), '', OPERATOR_NOTE, ''].join('\n');
