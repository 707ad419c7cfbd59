// The capability tree (with the ask search, server-side: works without script) and one
// capability's page: its contract and a try-it form that dispatches with a pasted credential.
import { authRisk, exampleBody, pathText, type AskAnswer, type Capability, type SystemNode } from '@switchyard/core';
import { html, type Html } from '@switchyard/http-kit';

export function treeBody(systems: SystemNode[], question: string, answer: AskAnswer | null): Html {
  return html`<h1>Capabilities</h1>
<form method="get" action="/dashboard" class="search" role="search">
  <label for="q">Ask</label>
  <input id="q" name="q" type="search" value="${question}" placeholder="rename a group, check phone numbers…" maxlength="500">
  <button type="submit">Search</button>
</form>
${answer
  ? html`<section class="results" aria-label="Matches">
  <h2>Matches for “${question}”</h2>
  ${answer.hits.length === 0 ? html`<p>No capability matches.</p>` : ''}
  <ol>${answer.hits.map((h) => html`<li><a href="/dashboard/capabilities/${h.key}">${h.key}</a> <span class="muted">${h.path.join(' > ')}</span><br>${h.description}</li>`)}</ol>
  ${answer.didYouMean.length ? html`<p>Did you mean ${answer.didYouMean.map((k, i) => html`${i ? ', ' : ''}<a href="/dashboard/capabilities/${k}">${k}</a>`)}?</p>` : ''}
</section>`
  : ''}
<section aria-label="Tree">
<ul class="tree">
  <li>OIP
    <ul>${systems.map((s) => html`<li>${s.system}
      <ul>${s.capabilities.map((c) => html`<li><a href="/dashboard/capabilities/${c.key}">${c.key}</a> <span class="muted">${authRisk(c)}</span></li>`)}</ul>
    </li>`)}</ul>
  </li>
</ul>
</section>`;
}

export function capabilityBody(c: Capability, baseUrl: string): Html {
  return html`<p class="muted">${pathText(c)}</p>
<h1>${c.key}</h1>
<p>${c.description}</p>
<dl class="contract">
  <dt>type · runner</dt><dd>${c.type} · ${c.runner}</dd>
  <dt>auth · risk</dt><dd>${authRisk(c)}</dd>
  ${c.upstreamUrl ? html`<dt>tool server</dt><dd>${c.upstreamUrl}</dd>` : ''}
  <dt>Example call</dt><dd><code>[${c.key}]${exampleBody(c)}[/${c.key}]</code></dd>
  <dt>Contract</dt><dd><a href="${baseUrl}/api/dispatch?key=${encodeURIComponent(c.key)}&format=markdown">markdown</a> · <a href="/dashboard/ledger?key=${encodeURIComponent(c.key)}">invocations</a></dd>
</dl>
<h2>inputs</h2>
<pre>${JSON.stringify(c.inputs, null, 2)}</pre>
<h2>Try it</h2>
<form id="try-it" data-key="${c.key}">
  <label for="credential">Share token or API key</label>
  <input id="credential" name="credential" type="password" autocomplete="off" placeholder="sy1.… (GET /start mints one)" required>
  <label for="body">Arguments</label>
  <textarea id="body" name="body" rows="5">${exampleBody(c)}</textarea>
  <button type="submit">Run</button>
</form>
<p id="try-status" role="status"></p>
<pre id="try-result" hidden></pre>
<p id="try-invocation" hidden></p>`;
}
