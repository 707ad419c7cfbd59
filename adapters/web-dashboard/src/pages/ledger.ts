// The ledger: invocations by key with their lineage (repairs, replays), and one invocation with
// its whole lineage and a proof the browser verifies against the published verifier key.
import { actorLabel, binaryBytes, blobRefOf, type ContentBlock, type StoredInvocation, type SystemNode } from '@switchyard/core';
import { html, type Html } from '@switchyard/http-kit';

const statusCell = (i: StoredInvocation) => html`<td data-label="Status" class="words ${i.ok ? 'on' : 'off'}">${i.status}${i.error ? html` <span class="muted">${i.error.code}</span>` : ''}</td>`;
const invLink = (id: string | null) => (id ? html`<a href="/dashboard/invocations/${id}">${id}</a>` : '—');

export function ledgerIndexBody(systems: SystemNode[]): Html {
  return html`<h1>Ledger</h1>
<p>Invocations are appended, never changed. Choose a capability:</p>
<ul>${systems.flatMap((s) => s.capabilities).map((c) => html`<li><a href="/dashboard/ledger?key=${encodeURIComponent(c.key)}">${c.key}</a></li>`)}</ul>`;
}

export function invocationsBody(key: string, items: StoredInvocation[], next: string | null): Html {
  return html`<p><a href="/dashboard/ledger">Ledger</a> · <a href="/dashboard/capabilities/${key}">${key}</a></p>
<h1>Invocations of ${key}</h1>
<p class="muted">Newest first.</p>
<table class="rows">
  <thead><tr><th>#</th><th>Invocation</th><th>When</th><th>Actor</th><th>Status</th><th>Repairs</th><th>Repaired by</th><th>Replays</th></tr></thead>
  <tbody>${items.map((i) => html`<tr>
    <td data-label="#">${i.seq}</td><td data-label="Invocation" class="token">${invLink(i.id)}</td><td data-label="When" class="token">${i.created_at}</td><td data-label="Actor">${actorLabel(i)}</td>${statusCell(i)}
    <td data-label="Repairs" class="token">${invLink(i.repairs)}</td><td data-label="Repaired by">${i.repaired_by.length ? i.repaired_by.map((r, n) => html`${n ? ', ' : ''}${invLink(r)}`) : '—'}</td><td data-label="Replays" class="token">${invLink(i.replays)}</td>
  </tr>`)}</tbody>
</table>
${next ? html`<p><a href="/dashboard/ledger?key=${encodeURIComponent(key)}&before=${next}">Older runs follow →</a></p>` : ''}`;
}

/** One content block of a tool's answer, in a line: its kind and what identifies it (bytes are never printed). */
function contentLine(block: ContentBlock): Html {
  const ref = blobRefOf(block);
  const resource = (block['resource'] ?? {}) as Record<string, unknown>;
  switch (block.type) {
    case 'text':
      return html`text: ${String(block['text'] ?? '').slice(0, 200)}`;
    case 'image':
    case 'audio':
    case 'resource':
      return html`${block.type}${block.type === 'resource' ? html` ${String(resource['uri'] ?? '')}` : ''} <span class="muted">${String(block['mimeType'] ?? resource['mimeType'] ?? '')} · ${binaryBytes([block])} bytes</span>${ref ? html` <span class="muted token">blob ${ref.sha256.slice(0, 12)}…</span>` : ''}`;
    case 'resource_link':
      return html`resource link ${String(block['uri'] ?? '')}`;
    default:
      return html`${block.type}`;
  }
}

/** What an upstream MCP tool said beyond its result: its content blocks and its log lines. */
function toolOutput(inv: StoredInvocation): Html {
  return html`${inv.content ? html`<h2>Content</h2>
<ol class="content">${inv.content.map((b) => html`<li>${contentLine(b)}</li>`)}</ol>` : ''}${inv.logs ? html`<h2>Upstream log</h2>
<pre>${inv.logs.map((l) => `${l.level}${l.logger ? ` ${l.logger}` : ''}: ${typeof l.data === 'string' ? l.data : JSON.stringify(l.data)}`).join('\n')}</pre>` : ''}`;
}

/** The proof links are same-origin paths: the page's CSP allows fetching from its own origin only.
 * `chain` is the invocation's ancestors by repairs, oldest first, ending with the invocation itself. */
export function invocationBody(inv: StoredInvocation, chain: StoredInvocation[], opening: { salt: string; public: Record<string, unknown>; private: Record<string, unknown>; erasure?: string }, erase: { csrf: string; erasedAt: string | null }): Html {
  return html`<p><a href="/dashboard/ledger?key=${encodeURIComponent(inv.key)}">Invocations of ${inv.key}</a></p>
<h1>${inv.id}</h1>
<dl class="contract">
  <dt>Capability</dt><dd><a href="/dashboard/capabilities/${inv.key}">${inv.key}</a> <span class="muted">${inv.path}</span></dd>
  <dt>Status</dt><dd class="${inv.ok ? 'on' : 'off'}">${inv.status}${inv.error ? ` · ${inv.error.code}: ${inv.error.message}` : ''}</dd>
  <dt>Actor</dt><dd>${actorLabel(inv)}</dd>
  <dt>When</dt><dd>${inv.created_at} · ${inv.duration_ms} ms · source ${inv.source}</dd>
  <dt>Replays</dt><dd>${invLink(inv.replays)}</dd>
</dl>
<h2>Lineage</h2>
<ol class="lineage">${chain.map((c) => html`<li>${c.id === inv.id ? html`<strong>${c.id}</strong>` : invLink(c.id)} <span class="${c.ok ? 'on' : 'off'}">${c.status}</span></li>`)}</ol>
${inv.repaired_by.length ? html`<p>Repaired by ${inv.repaired_by.map((r, n) => html`${n ? ', ' : ''}${invLink(r)}`)}</p>` : html`<p class="muted">Not repaired${inv.ok ? ' (it succeeded)' : ''}.</p>`}
<h2>Arguments</h2>
<pre>${JSON.stringify(inv.args, null, 2)}</pre>
<h2>Result</h2>
<pre>${JSON.stringify(inv.result, null, 2)}</pre>
${toolOutput(inv)}
<h2>Proof</h2>
<p>The ledger's public proof for this invocation, checked here in your browser: the leaf hash, the
inclusion proof up to the checkpoint's root, and the checkpoint's Ed25519 signature under the
published verifier key; then the record this page shows, field by field, against the leaf's
commitments (the salt that opens them is yours, as in a receipt); with a witness policy, the
witnesses' cosignatures too.</p>
<details class="witness-policy"><summary>Witness policy (optional)</summary>
<p class="muted">Also require cosignatures by witnesses you trust (c2sp.org/tlog-cosignature): their verifier keys, one per line, and how many of them must have cosigned the checkpoint.</p>
<label for="witness-keys">Witness keys</label>
<textarea id="witness-keys" rows="3" spellcheck="false" placeholder="witness.example/w1+1a2b3c4d+B…"></textarea>
<label for="witnesses-needed">Needed</label>
<input id="witnesses-needed" type="number" min="1" step="1" inputmode="numeric">
</details>
<button type="button" id="verify-proof" data-confirm="/api/dispatch?confirm=${inv.id}" data-key="/api/proven-work/key" data-record="${JSON.stringify(opening)}">Verify proof</button>
<p id="proof-status" class="proof" role="status">Not checked yet.</p>
<ul id="proof-steps"></ul>
<h2>Erasure</h2>
${erase.erasedAt
  ? html`<p id="erased">Erased at ${erase.erasedAt}: the arguments, body, result and content are gone; the leaf and every proof stay valid.</p>`
  : html`<p class="muted">Erase this run's arguments, body, result and content (e.g. a person's data). The erasure is a ledger entry of its own; the leaf and every proof stay valid, and the erased fields no longer open it.</p>
<form method="post" action="/dashboard/invocations/${inv.id}/erase" class="erase"><input type="hidden" name="csrf" value="${erase.csrf}">
<label for="erase-reason">Reason</label> <input id="erase-reason" name="reason" required maxlength="500">
<button type="submit">Erase private fields</button></form>`}`;
}
