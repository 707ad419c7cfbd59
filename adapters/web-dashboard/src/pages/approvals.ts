// Approvals: the runs waiting for the owner's decision, each with its exact arguments and an
// Approve and a Deny button (forms with the session's CSRF token; the decision is the API's).
import type { PendingApproval, StoredInvocation } from '@switchyard/core';
import { html, type Html } from '@switchyard/http-kit';

/** What the page says about the decision just taken (from the redirect after a form). */
export interface DecisionNotice {
  invocation: string;
  decision: 'approved' | 'denied';
  /** The run an approval made, when it is found. */
  run: StoredInvocation | null;
}

const decideForm = (id: string, csrf: string, decision: 'approve' | 'deny', label: string) =>
  html`<form method="post" action="/dashboard/approvals/${id}" class="inline"><input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="decision" value="${decision}"><button type="submit" class="${decision}">${label}</button></form>`;

const notice = (n: DecisionNotice) =>
  html`<p class="notice ${n.decision === 'approved' ? 'on' : 'off'}" role="status" id="decision-notice">${n.decision === 'approved' ? 'Approved' : 'Denied'} <a href="/dashboard/invocations/${n.invocation}">${n.invocation}</a>${
    n.run ? html`; it ran as <a href="/dashboard/invocations/${n.run.id}">${n.run.id}</a> (${n.run.status})` : n.decision === 'denied' ? '; nothing ran' : ''
  }.</p>`;

export function approvalsBody(pending: PendingApproval[], csrf: string, decided: DecisionNotice | null): Html {
  return html`<h1>Approvals</h1>
${decided ? notice(decided) : ''}
<p class="muted">Runs of capabilities that need the owner's approval wait here, bound to their exact arguments. Approving runs them once as a new invocation; denying runs nothing. Each decision is a ledger entry.</p>
${pending.length === 0 ? html`<p id="no-approvals">Nothing waits for approval.</p>` : ''}
<ul class="approvals">${pending.map(
    (p) => html`<li class="approval" data-invocation="${p.invocation.id}">
  <h2><a href="/dashboard/capabilities/${p.invocation.key}">${p.invocation.key}</a></h2>
  <dl class="contract">
    <dt>Invocation</dt><dd><a href="/dashboard/invocations/${p.invocation.id}">${p.invocation.id}</a></dd>
    <dt>Asked by</dt><dd>${p.invocation.actor}${p.invocation.fingerprint ? html` <span class="muted">(${p.invocation.fingerprint})</span>` : ''}</dd>
    <dt>Asked at</dt><dd>${p.invocation.created_at} · source ${p.invocation.source}</dd>
    <dt>Expires</dt><dd class="${p.expired ? 'off' : ''}">${p.expires_at}${p.expired ? ' · expired: run it again to ask anew' : ''}</dd>
    <dt>Arguments hash</dt><dd><code>${p.args_hash}</code></dd>
  </dl>
  <pre class="args">${JSON.stringify(p.invocation.args, null, 2)}</pre>
  ${p.expired ? '' : html`<div class="decide">${decideForm(p.invocation.id, csrf, 'approve', 'Approve')} ${decideForm(p.invocation.id, csrf, 'deny', 'Deny')}</div>`}
</li>`,
  )}</ul>`;
}
