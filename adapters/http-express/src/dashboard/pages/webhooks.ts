// Webhooks: the list with on/off switches, one webhook's deliveries (new ones arrive live over
// server-sent events) and one delivery whole: every header as received and the body.
import { deliveryOutcomeWord, type StoredDelivery, type Webhook } from '@switchyard/core';
import { html, type Html } from '../html.js';

/** The one vocabulary (accepted, duplicate, refused), a refusal with its reason. */
const outcomeText = (d: StoredDelivery): string => (d.refusal ? `refused: ${d.refusal.code}` : deliveryOutcomeWord(d));

const deliveryRow = (d: StoredDelivery) =>
  html`<tr data-entry="${d.id}"><td><a href="/dashboard/deliveries/${d.id}">${d.id}</a></td><td>${d.received_at}</td><td>${d.method}</td><td>${d.delivery_id ?? '—'}</td><td>${outcomeText(d)}</td><td>${d.body_size}</td></tr>`;

export function webhooksBody(hooks: Webhook[], baseUrl: string, csrf: string): Html {
  return html`<h1>Webhooks</h1>
${hooks.length === 0 ? html`<p>No webhooks yet. Create one with <code>switchyard hook create NAME</code> or <code>POST /api/objects/webhook</code>.</p>` : ''}
<table>
  <thead><tr><th>Name</th><th>Address</th><th>State</th><th></th></tr></thead>
  <tbody>${hooks.map((h) => html`<tr>
    <td><a href="/dashboard/webhooks/${h.id}">${h.name}</a></td>
    <td><code>${baseUrl}/hook/${h.id}</code></td>
    <td class="${h.on ? 'on' : 'off'}">${h.on ? 'on' : 'off'}</td>
    <td><form method="post" action="/dashboard/webhooks/${h.id}/switch" class="inline">
      <input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="on" value="${h.on ? 'false' : 'true'}">
      <button type="submit">Turn ${h.on ? 'off' : 'on'}</button></form></td>
  </tr>`)}</tbody>
</table>`;
}

export function deliveriesBody(hook: Webhook, deliveries: StoredDelivery[], baseUrl: string): Html {
  const newest = deliveries[0]?.seq ?? 0;
  return html`<p><a href="/dashboard/webhooks">Webhooks</a></p>
<h1>${hook.name}</h1>
<p><code>${baseUrl}/hook/${hook.id}</code> · <span class="${hook.on ? 'on' : 'off'}">${hook.on ? 'on' : 'off'}</span></p>
<p class="muted" id="live-status" role="status">Newest first. New deliveries appear as they arrive.</p>
<table>
  <thead><tr><th>Entry</th><th>Received</th><th>Method</th><th>Delivery id</th><th>Outcome</th><th>Bytes</th></tr></thead>
  <tbody id="deliveries" data-live="/dashboard/webhooks/${hook.id}/live?after=${newest}">${deliveries.map(deliveryRow)}</tbody>
</table>`;
}

export function deliveryBody(d: StoredDelivery, body: { body: string | null; body_encoding: string | null }): Html {
  return html`<p><a href="/dashboard/webhooks/${d.hook_id}">Deliveries</a></p>
<h1>${d.id}</h1>
<dl class="contract">
  <dt>Received</dt><dd>${d.received_at}</dd>
  <dt>Request</dt><dd><code>${d.method} ${d.path}${d.query ? `?${d.query.replace(/^\?/, '')}` : ''}</code> from ${d.client_address ?? '—'}</dd>
  <dt>Delivery id</dt><dd>${d.delivery_id ?? '—'} ${d.delivery_id_rule ? html`<span class="muted">(${d.delivery_id_rule})</span>` : ''}</dd>
  <dt>Outcome</dt><dd>${outcomeText(d)}${d.refusal ? html` <span class="muted">${d.refusal.message}</span>` : ''}${d.duplicate ? html` of <a href="/dashboard/deliveries/${d.duplicate_of}">${d.duplicate_of}</a>` : ''}</dd>
  <dt>Signature</dt><dd>${d.signature ?? '—'}</dd>
  ${d.action_run ? html`<dt>Action</dt><dd>${d.action_run.action} → <a href="/dashboard/invocations/${d.action_run.invocation}">${d.action_run.invocation}</a> (${d.action_run.status})</dd>` : ''}
</dl>
<h2>Headers (as received)</h2>
<table><tbody>${d.headers.map(([n, v]) => html`<tr><th scope="row">${n}</th><td>${v}</td></tr>`)}</tbody></table>
<h2>Body <span class="muted">${d.body_size} bytes${body.body_encoding ? `, ${body.body_encoding}` : ''}</span></h2>
<pre id="delivery-body">${body.body ?? ''}</pre>`;
}

