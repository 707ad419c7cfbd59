// Held tools: each imported tool whose definition changed upstream, that is new on a known server or
// that its server no longer lists, with what changed (JSON Pointer paths, before and after) and an
// Approve button for the listed definition (a form with the session's CSRF token and the exact hash
// reviewed, so an approval never pins a definition the owner did not see).
import type { HeldToolChanges } from '@switchyard/core';
import { html, type Html } from '@switchyard/http-kit';

const REASON: Record<HeldToolChanges['reason'], string> = {
  changed: 'its definition changed upstream',
  new: 'new on a server already imported',
  removed: 'its server no longer lists it',
};

const shown = (v: unknown) => JSON.stringify(v, null, 2);

const approveForm = (key: string, hash: string, csrf: string) =>
  html`<form method="post" action="/dashboard/tools/${key}/approve" class="inline"><input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="hash" value="${hash}"><button type="submit" class="approve">Approve this definition</button></form>`;

function heldItem(c: HeldToolChanges, csrf: string): Html {
  return html`<li class="held-tool" data-key="${c.key}" data-reason="${c.reason}">
  <h2>${c.key} <span class="muted">(${c.server} · ${c.tool})</span></h2>
  <p>Held since ${c.held_since}: ${REASON[c.reason]}. Nothing runs under this key until it is approved; it is in no tools/list.</p>
  <dl class="contract">
    <dt>Pinned</dt><dd><code>${c.pinned?.definition_hash ?? 'none'}</code>${c.pinned ? html` <span class="muted">(${c.pinned.pinned_at})</span>` : ''}</dd>
    <dt>Listed now</dt><dd><code>${c.listed?.definition_hash ?? 'none'}</code></dd>
  </dl>
  ${c.diff.length === 0 ? '' : html`<table class="diff"><thead><tr><th>Where</th><th>Change</th><th>Before</th><th>After</th></tr></thead><tbody>${c.diff.map(
    (d) => html`<tr class="${d.change}"><td><code>${d.path || '(whole)'}</code></td><td>${d.change}</td><td><pre>${d.before === undefined ? '' : shown(d.before)}</pre></td><td><pre>${d.after === undefined ? '' : shown(d.after)}</pre></td></tr>`,
  )}</tbody></table>`}
  ${c.flapping ? html`<p class="off">Flapping: its definition changed on each of the last ${c.changes_in_a_row} refreshes. Approve it once it holds still.</p>` : ''}
  ${c.listed && !c.flapping ? html`<div class="decide">${approveForm(c.key, c.listed.definition_hash, csrf)}</div>` : ''}
</li>`;
}

export function heldToolsBody(held: HeldToolChanges[], omitted: number, csrf: string, approved: string | null): Html {
  return html`<h1>Held tools</h1>
${approved ? html`<p class="notice on" role="status" id="approved-notice">Approved ${approved}: its definition is pinned in the ledger and it is served again.</p>` : ''}
<p class="muted">An imported tool whose definition changes (description, schemas, annotations, _meta) waits here for the owner: agents are never served a definition nobody approved. Approving pins its hash as a ledger entry.</p>
${held.length === 0 ? html`<p id="no-held-tools">No tool is held.</p>` : ''}
${omitted > 0 ? html`<p class="off">${omitted} more held, past the bound of the list.</p>` : ''}
<ul class="held-tools">${held.map((c) => heldItem(c, csrf))}</ul>`;
}
