// The forms that create and change webhooks and their destinations, and the line that answers each
// one: what it did, or the complete message of what it refused (nothing stored then).
import { DEFAULT_GRACE_S, SIGNATURE_SCHEMES, type AllowView, type Destination, type Webhook } from '@switchyard/core';
import { html, type Html } from '@switchyard/http-kit';
import type { DestinationFormValues } from '../form-fields.js';

/** What a form did (a notice) or refused (an error with its code and whole message). */
export type FormAnswer = { kind: 'done'; text: string } | { kind: 'refused'; code: string; message: string };

export const answerLine = (answer: FormAnswer | null): Html =>
  answer === null
    ? html``
    : answer.kind === 'done'
      ? html`<p class="notice" id="form-answer" role="status">${answer.text}</p>`
      : html`<div class="notice refused" id="form-answer" role="alert"><strong>${answer.code}</strong><pre class="message">${answer.message}</pre><p>Nothing was changed.</p></div>`;

const hidden = (csrf: string) => html`<input type="hidden" name="csrf" value="${csrf}">`;

/** Name and signature check: a new webhook (current null) or a change to one. */
export function webhookForm(csrf: string, current: Webhook | null): Html {
  const sig = current?.signature ?? null;
  return html`<form method="post" action="${current ? `/dashboard/webhooks/${current.id}/edit` : '/dashboard/webhooks'}" class="settings" id="${current ? 'webhook-edit' : 'webhook-create'}">
  ${hidden(csrf)}
  <label for="hook-name">Name</label><input id="hook-name" name="name" required maxlength="200" value="${current?.name ?? ''}">
  <label for="hook-scheme">Signature check</label>
  <select id="hook-scheme" name="signature_scheme"><option value=""${sig ? '' : ' selected'}>none</option>${SIGNATURE_SCHEMES.map((s) => html`<option value="${s}"${sig?.scheme === s ? ' selected' : ''}>${s}</option>`)}</select>
  <label for="hook-secret">Signing secret${sig ? html` <span class="muted">(empty keeps the one it has)</span>` : ''}</label><input id="hook-secret" name="signature_secret" type="password" autocomplete="off">
  <label class="check"><input type="checkbox" name="signature_require"${sig?.require ? ' checked' : ''}> Refuse deliveries without a valid signature</label>
  <button type="submit">${current ? 'Save webhook' : 'Create webhook'}</button>
</form>`;
}

/** A destination's settings: a new one (dst null) or a change to one, filled with `values`. */
export function destinationForm(hookId: string, csrf: string, dst: Destination | null, values: DestinationFormValues): Html {
  const v = (k: keyof DestinationFormValues) => values[k] ?? '';
  const id = dst ? `dst-${dst.id}` : 'dst-new';
  return html`<form method="post" action="/dashboard/webhooks/${hookId}/destinations${dst ? `/${dst.id}/edit` : ''}" class="settings destination-form" id="${dst ? `edit-${dst.id}` : 'destination-create'}">
  ${hidden(csrf)}
  <label for="${id}-name">Name</label><input id="${id}-name" name="name" maxlength="200" value="${v('name')}" placeholder="the URL's host">
  <label for="${id}-url">URL</label><input id="${id}-url" name="url" required maxlength="2000" value="${v('url')}" placeholder="https://example.com/hooks">
  <label for="${id}-attempts">Attempts</label><input id="${id}-attempts" name="max_attempts" inputmode="numeric" value="${v('max_attempts')}" placeholder="8">
  <label for="${id}-initial">First retry after (ms)</label><input id="${id}-initial" name="initial_ms" inputmode="numeric" value="${v('initial_ms')}" placeholder="5000">
  <label for="${id}-filter">Filter <span class="muted">(an expression over headers and body, e.g. body.type == "paid"; empty forwards every delivery)</span></label><textarea id="${id}-filter" name="filter" rows="2">${v('filter')}</textarea>
  <label for="${id}-transform">Transform <span class="muted">(JSONata on a JSON body; empty sends it as received)</span></label><textarea id="${id}-transform" name="transform" rows="3">${v('transform')}</textarea>
  <label for="${id}-headers">Forward headers <span class="muted">(all, none, or names separated by commas)</span></label><input id="${id}-headers" name="forward_headers" value="${v('forward_headers')}" placeholder="all">
  <label for="${id}-extra">Headers sent with every attempt <span class="muted">(Name: value, one a line)</span></label><textarea id="${id}-extra" name="headers" rows="2">${v('headers')}</textarea>
  <button type="submit">${dst ? 'Save destination' : 'Add destination'}</button>
</form>`;
}

/** A destination's on/off switch. */
export const destinationSwitch = (hookId: string, d: Destination, csrf: string): Html =>
  html`<form method="post" action="/dashboard/webhooks/${hookId}/destinations/${d.id}/switch" class="inline switch">
      ${hidden(csrf)}<input type="hidden" name="on" value="${d.on ? 'false' : 'true'}"><button type="submit">Turn ${d.on ? 'off' : 'on'}</button></form>`;

/** A new signing secret for a destination; the old one signs too for the grace (seconds). */
export const rotateForm = (hookId: string, d: Destination, csrf: string): Html =>
  html`<form method="post" action="/dashboard/webhooks/${hookId}/destinations/${d.id}/rotate-secret" class="settings" id="rotate-${d.id}">
  ${hidden(csrf)}
  <label for="rotate-${d.id}-grace">Old secret also signs for (seconds)</label><input id="rotate-${d.id}-grace" name="grace_s" inputmode="numeric" placeholder="${DEFAULT_GRACE_S}">
  <button type="submit">Rotate secret</button>
</form>`;

/** The forwarding allowlist: the configuration's hosts (changed there only) and those added here or by the API, each removable. */
export const allowlistSection = (allow: AllowView[], csrf: string): Html =>
  html`<h2>Forwarding allowlist</h2>
<p class="muted">Private and loopback addresses take destinations only when listed here.</p>
${allow.length === 0 ? html`<p id="no-allowlist">No hosts are admitted beyond public addresses.</p>` : html`<table class="rows" id="allowlist">
  <thead><tr><th>Host</th><th>From</th><th></th></tr></thead>
  <tbody>${allow.map((a) => html`<tr data-host="${a.host}"><td data-label="Host" class="token"><code>${a.host}</code></td><td data-label="From" class="words">${a.source === 'config' ? 'the configuration' : `added ${a.created_at ?? ''}`}</td>
    <td data-label="">${a.source === 'database' ? html`<form method="post" action="/dashboard/forwarding/disallow" class="inline">${hidden(csrf)}<input type="hidden" name="host" value="${a.host}"><button type="submit">Remove</button></form>` : ''}</td></tr>`)}</tbody>
</table>`}
<form method="post" action="/dashboard/forwarding/allow" class="filter" id="allow-form">${hidden(csrf)}<label for="allow-host">Admit host[:port]</label><input id="allow-host" name="host" required maxlength="300" placeholder="10.0.0.5:8080"><button type="submit">Admit</button></form>`;
