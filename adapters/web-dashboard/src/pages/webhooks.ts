// Webhooks: the list with on/off switches, one webhook's deliveries with its switch (new ones
// arrive live over server-sent events) and one delivery whole: every header as received and the
// body (a link to the raw body instead when it is over the inline threshold).
import { counted, deliveryOutcomeWord, type AllowView, type CircuitView, type Destination, type EventTypeCounts, type ForwardingView, type StoredDelivery, type Webhook } from '@switchyard/core';
import { html, type Html } from '@switchyard/http-kit';
import { destinationValues, type DestinationFormValues } from '../form-fields.js';
import { allowlistSection, answerLine, destinationForm, destinationSwitch, rotateForm, webhookForm, type FormAnswer } from './webhook-forms.js';

/** The one vocabulary (accepted, duplicate, refused), a refusal with its reason. */
const outcomeText = (d: StoredDelivery): string => (d.refusal ? `refused: ${d.refusal.code}` : deliveryOutcomeWord(d));

/** Where a delivery went on to, by destination name: "Warehouse: delivered · Audit: dead". */
export const forwardingText = (views: ForwardingView[], names: ReadonlyMap<string, string>): string =>
  views.length === 0 ? '—' : views.map((f) => `${names.get(f.destination) ?? f.destination}: ${f.state}`).join(' · ');

const deliveryRow = (d: StoredDelivery, forwarding: string | null) =>
  html`<tr data-entry="${d.id}"><td data-label="Entry" class="token"><a href="/dashboard/deliveries/${d.id}">${d.id}</a></td><td data-label="Received" class="token">${d.received_at}</td><td data-label="Method">${d.method}</td><td data-label="Event type">${d.event_type ?? '—'}</td><td data-label="Delivery id">${d.delivery_id ?? '—'}</td><td data-label="Outcome" class="words">${outcomeText(d)}</td><td data-label="Bytes">${d.body_size}</td>${forwarding !== null ? html`<td data-label="Forwarding" class="words">${forwarding}</td>` : ''}</tr>`;

/** The on/off switch: a form with the session's CSRF token, back to the page it is on. */
const switchForm = (h: Webhook, csrf: string, from: 'list' | 'webhook') =>
  html`<form method="post" action="/dashboard/webhooks/${h.id}/switch" class="inline switch">
      <input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="on" value="${h.on ? 'false' : 'true'}"><input type="hidden" name="from" value="${from}">
      <button type="submit">Turn ${h.on ? 'off' : 'on'}</button></form>`;

export function webhooksBody(hooks: Webhook[], baseUrl: string, csrf: string, answer: FormAnswer | null = null, allow: AllowView[] = []): Html {
  return html`<h1>Webhooks</h1>
${answerLine(answer)}
${hooks.length === 0 ? html`<p>No webhooks yet. Create one below, with <code>switchyard hook create NAME</code> or with <code>POST /api/objects/webhook</code>.</p>` : ''}
<table class="rows">
  <thead><tr><th>Name</th><th>Address</th><th>State</th><th></th></tr></thead>
  <tbody>${hooks.map((h) => html`<tr>
    <td data-label="Name"><a href="/dashboard/webhooks/${h.id}">${h.name}</a></td>
    <td data-label="Address" class="token"><code>${baseUrl}/hook/${h.id}</code></td>
    <td data-label="State" class="token ${h.on ? 'on' : 'off'}">${h.on ? 'on' : 'off'}</td>
    <td data-label="">${switchForm(h, csrf, 'list')}</td>
  </tr>`)}</tbody>
</table>
<details class="form-box"${answer?.kind === 'refused' ? ' open' : ''}><summary>New webhook</summary>${webhookForm(csrf, null)}</details>
${allowlistSection(allow, csrf)}`;
}

/** A form that re-forwards a destination's dead letters (all, or one delivery's), back to `back`. */
const retryForm = (hookId: string, dst: string, csrf: string, back: string, entry: string | null, label: string) =>
  html`<form method="post" action="/dashboard/webhooks/${hookId}/destinations/${dst}/retry" class="inline retry">
      <input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="back" value="${back}">${entry ? html`<input type="hidden" name="entry" value="${entry}">` : ''}
      <button type="submit">${label}</button></form>`;

/** A destination and its circuit in the process that answers the page. */
export type DestinationWithCircuit = Destination & { circuit: CircuitView };

const circuitText = (c: CircuitView): string => (c.state === 'open' ? `open until ${c.until}` : c.state === 'probing' ? 'probing' : 'closed');

/** What a webhook's page shows besides its rows: the answer to a form, values typed into a refused form, which destinations hold dead letters. */
export interface HookPageExtras {
  answer: FormAnswer | null;
  /** A refused form's values, by the destination it was for ('new' for the add form). */
  typed: { form: string; values: DestinationFormValues } | null;
  /** Destinations with at least one dead letter: only they get a retry button. */
  withDeadLetters: ReadonlySet<string>;
  /** Each listed delivery's forwarding, as forwardingText says it (none when the webhook has no destinations). */
  forwarding: ReadonlyMap<string, string> | null;
}

const NO_EXTRAS: HookPageExtras = { answer: null, typed: null, withDeadLetters: new Set(), forwarding: null };

function destinationsSection(hook: Webhook, destinations: DestinationWithCircuit[], csrf: string, extras: HookPageExtras): Html {
  const valuesFor = (form: string, fallback: DestinationFormValues) => (extras.typed?.form === form ? extras.typed.values : fallback);
  return html`<h2>Destinations</h2>
${destinations.length === 0
  ? html`<p class="muted">Deliveries are kept here only. Forward them with the form below, <code>switchyard hook destinations ${hook.id} add URL</code> or <code>POST /api/objects/webhook/${hook.id}/destinations</code>.</p>`
  : html`<table class="rows" id="destinations">
  <thead><tr><th>Name</th><th>URL</th><th>State</th><th>Circuit</th><th>Retry</th><th>Filter</th><th>Transform</th><th>Headers</th><th></th></tr></thead>
  <tbody>${destinations.map((d) => html`<tr data-destination="${d.id}">
    <td data-label="Name" class="words">${d.name}</td>
    <td data-label="URL" class="token"><code>${d.url}</code></td>
    <td data-label="State" class="token ${d.on ? 'on' : 'off'}">${d.on ? 'on' : 'off'}${d.ordered ? ' · ordered' : ''}${d.rate_per_s ? ` · ${d.rate_per_s}/s` : ''}</td>
    <td data-label="Circuit" class="token circuit-${d.circuit.state}" title="${d.circuit.failures} failures in a row">${circuitText(d.circuit)}</td>
    <td data-label="Retry" class="words">${d.retry.max_attempts} attempts from ${d.retry.initial_ms} ms</td>
    <td data-label="Filter">${d.filter ? html`<code>${d.filter}</code>` : '—'}</td>
    <td data-label="Transform">${d.transform ? html`<code>${d.transform}</code>` : '—'}</td>
    <td data-label="Headers">${Array.isArray(d.forward_headers) ? d.forward_headers.join(', ') : d.forward_headers}</td>
    <td data-label="" class="actions">${destinationSwitch(hook.id, d, csrf)}${extras.withDeadLetters.has(d.id) ? retryForm(hook.id, d.id, csrf, `/dashboard/webhooks/${hook.id}`, null, 'Retry dead letters') : ''}
      <details class="form-box"${extras.typed?.form === d.id ? ' open' : ''}><summary>Edit</summary>${destinationForm(hook.id, csrf, d, valuesFor(d.id, destinationValues(d)))}</details>
      <details class="form-box"${extras.typed?.form === `rotate-${d.id}` ? ' open' : ''}><summary>Rotate secret</summary>${rotateForm(hook.id, d, csrf)}</details></td>
  </tr>`)}</tbody>
</table>`}
<details class="form-box"${extras.typed?.form === 'new' ? ' open' : ''}><summary>Add a destination</summary>${destinationForm(hook.id, csrf, null, valuesFor('new', {}))}</details>`;
}

/** Choosing one event type: each with its count, most frequent first, and "all". */
function eventTypeFilter(hook: Webhook, counts: EventTypeCounts, chosen: string | null): Html {
  const named = counts.items.filter((c) => c.event_type !== null);
  // A chosen type always stays in the list, even one not among the counted (or none yet).
  const options = chosen !== null && !named.some((c) => c.event_type === chosen) ? [...named, { event_type: chosen, count: 0 }] : named;
  return html`<form method="get" action="/dashboard/webhooks/${hook.id}" class="filter" id="event-type-filter">
  <label for="event-type">Event type</label>
  <select name="event_type" id="event-type">
    <option value=""${chosen === null ? ' selected' : ''}>All</option>
    ${options.map((c) => html`<option value="${c.event_type!}"${c.event_type === chosen ? ' selected' : ''}>${c.event_type!} (${c.count})</option>`)}
  </select>
  <button type="submit">Show</button>${counts.more ? html` <span class="muted">(the ${named.length} most frequent types)</span>` : ''}
</form>`;
}

export function deliveriesBody(
  hook: Webhook,
  deliveries: StoredDelivery[],
  baseUrl: string,
  csrf: string,
  destinations: DestinationWithCircuit[] = [],
  eventTypes: { counts: EventTypeCounts; chosen: string | null } = { counts: { items: [], more: false }, chosen: null },
  extras: HookPageExtras = NO_EXTRAS,
): Html {
  const newest = deliveries[0]?.seq ?? 0;
  const chosen = eventTypes.chosen;
  return html`<p><a href="/dashboard/webhooks">Webhooks</a></p>
<h1>${hook.name}</h1>
${answerLine(extras.answer)}
<p><code>${baseUrl}/hook/${hook.id}</code></p>
<div id="hook-state" class="state">State: <strong class="${hook.on ? 'on' : 'off'}">${hook.on ? 'on' : 'off'}</strong> ${switchForm(hook, csrf, 'webhook')}
  <span class="muted">${hook.on ? 'Deliveries are taken.' : 'Deliveries are refused with 403 webhook_off.'}</span></div>
<p>Signature check: ${hook.signature ? html`<strong id="hook-signature">${hook.signature.scheme}${hook.signature.require ? ', required' : ', marked only'}</strong>` : html`<strong id="hook-signature">none</strong>`}</p>
<details class="form-box"${extras.answer?.kind === 'refused' && extras.typed === null ? ' open' : ''}><summary>Edit webhook</summary>${webhookForm(csrf, hook)}</details>
${destinationsSection(hook, destinations, csrf, extras)}
<h2>Deliveries${chosen !== null ? html` of type <code>${chosen}</code>` : ''}</h2>
${eventTypeFilter(hook, eventTypes.counts, chosen)}
<p class="muted" id="live-status" role="status">Newest first. New deliveries appear as they arrive.</p>
<table class="rows">
  <thead><tr><th>Entry</th><th>Received</th><th>Method</th><th>Event type</th><th>Delivery id</th><th>Outcome</th><th>Bytes</th>${extras.forwarding ? html`<th>Forwarding</th>` : ''}</tr></thead>
  <tbody id="deliveries" data-forwarding="${extras.forwarding ? 'shown' : 'none'}" data-live="/dashboard/webhooks/${hook.id}/live?after=${newest}${chosen !== null ? `&event_type=${encodeURIComponent(chosen)}` : ''}">${deliveries.map((d) => deliveryRow(d, extras.forwarding ? (extras.forwarding.get(d.id) ?? '—') : null))}</tbody>
</table>`;
}

function forwardingSection(d: StoredDelivery, forwarding: ForwardingView[], csrf: string, names: ReadonlyMap<string, string>): Html {
  if (forwarding.length === 0) return html``;
  return html`<h2>Forwarding</h2>
<table class="rows" id="forwarding">
  <thead><tr><th>Destination</th><th>State</th><th>Attempts</th><th>Last status</th><th>Next attempt</th><th>Attempts in the ledger</th><th></th></tr></thead>
  <tbody>${forwarding.map((f) => html`<tr data-destination="${f.destination}" data-state="${f.state}">
    <td data-label="Destination">${names.get(f.destination) ?? f.destination}</td>
    <td data-label="State">${f.state}</td>
    <td data-label="Attempts">${f.attempts}</td>
    <td data-label="Last status">${f.last_status ?? '—'}</td>
    <td data-label="Next attempt" class="token">${f.next_attempt_at ?? '—'}</td>
    <td data-label="Attempts in the ledger">${f.invocations.map((id) => html`<a href="/dashboard/invocations/${id}">${id}</a> `)}</td>
    <td data-label="">${f.state === 'dead' ? retryForm(d.hook_id, f.destination, csrf, `/dashboard/deliveries/${d.id}`, d.id, 'Retry') : ''}</td>
  </tr>`)}</tbody>
</table>`;
}

/** The record as the delivery page shows it, opened like a receipt: the browser holds it to the leaf. */
export interface DeliveryOpening {
  salt: string;
  public: Record<string, unknown>;
  private: Record<string, unknown>;
  /** The stored body's bytes: the browser hashes them itself rather than trust the recorded SHA-256. */
  body?: string;
  erasure?: string;
}

/** Same-origin links only: the page's CSP allows fetching from its own origin. */
function proofSection(d: StoredDelivery, opening: DeliveryOpening): Html {
  return html`<h2>Proof</h2>
<p>The ledger's public proof for this delivery, checked here in your browser: the leaf hash, the
inclusion proof up to the checkpoint's root and the checkpoint's Ed25519 signature under the
published verifier key; then the stored body (hashed here from its bytes), the headers and every
other field this page shows against the leaf's commitments.</p>
<button type="button" id="verify-proof" data-confirm="/api/dispatch?confirm=${d.id}" data-key="/api/proven-work/key" data-record="${JSON.stringify(opening)}">Verify proof</button>
<p id="proof-status" class="proof" role="status">Not checked yet.</p>
<ul id="proof-steps"></ul>`;
}

export function deliveryBody(d: StoredDelivery, body: { body: string | null; body_encoding: string | null }, forwarding: ForwardingView[] = [], csrf = '', answer: FormAnswer | null = null, names: ReadonlyMap<string, string> = new Map(), opening: DeliveryOpening | null = null): Html {
  return html`<p><a href="/dashboard/webhooks/${d.hook_id}">Deliveries</a></p>
<h1>${d.id}</h1>
${answerLine(answer)}
<dl class="contract">
  <dt>Received</dt><dd>${d.received_at}</dd>
  <dt>Request</dt><dd><code>${d.method} ${d.path}${d.query ? `?${d.query.replace(/^\?/, '')}` : ''}</code> from ${d.client_address ?? '—'}</dd>
  <dt>Delivery id</dt><dd>${d.delivery_id ?? '—'} ${d.delivery_id_rule ? html`<span class="muted">(${d.delivery_id_rule})</span>` : ''}</dd>
  <dt>Event type</dt><dd id="delivery-event-type">${d.event_type ?? '—'} ${d.event_type_rule ? html`<span class="muted">(${d.event_type_rule})</span>` : ''}</dd>
  <dt>Outcome</dt><dd>${outcomeText(d)}${d.refusal ? html` <span class="muted">${d.refusal.message}</span>` : ''}${d.duplicate ? html` of <a href="/dashboard/deliveries/${d.duplicate_of}">${d.duplicate_of}</a>` : ''}</dd>
  <dt>Signature</dt><dd>${d.signature ?? '—'}</dd>
  ${d.action_run ? html`<dt>Action</dt><dd>${d.action_run.action} → <a href="/dashboard/invocations/${d.action_run.invocation}">${d.action_run.invocation}</a> (${d.action_run.status})</dd>` : ''}
</dl>
${forwardingSection(d, forwarding, csrf, names)}
<h2>Headers (as received)</h2>
<table class="headers"><tbody>${d.headers.map(([n, v]) => html`<tr><th scope="row">${n}</th><td>${v}</td></tr>`)}</tbody></table>
<h2>Body <span class="muted">${counted(d.body_size, 'byte')}${body.body_encoding ? `, ${body.body_encoding}` : ''}</span></h2>
${d.body_omitted
  ? html`<p id="delivery-body-omitted">Too large to show here. SHA-256 <code>${d.body_sha256}</code> · <a href="/dashboard/deliveries/${d.id}/body">the raw body</a> (with its original content type)</p>`
  : html`<pre id="delivery-body">${body.body ?? ''}</pre>`}
${opening ? proofSection(d, opening) : ''}`;
}

