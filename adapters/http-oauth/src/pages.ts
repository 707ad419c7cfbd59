// The OAuth pages of the dashboard: the consent page an MCP client sends the owner to (who is
// asking, where the answer goes, which tools, with a box per tool to narrow), and the list of
// clients and their grants with a Revoke button each.
import type { AuthorizationRequest, ClientWithGrants, ConsentCaution, ConsentChoice, OAuthGrant } from '@switchyard/core';
import { html, type Html } from '@switchyard/http-kit';

/** The authorization request's own parameters, carried through the form so the POST checks them again. */
export const CARRIED_PARAMS = ['response_type', 'client_id', 'redirect_uri', 'state', 'code_challenge', 'code_challenge_method', 'resource', 'scope'] as const;

/**
 * Where an answer goes when it is not a web site: a loopback address or an app's own scheme.
 * Any program on the owner's computer can listen there or claim the scheme, so the name proves
 * nothing (the MCP spec asks consent pages to warn about such redirects).
 */
function localRedirect(uri: string): string | null {
  const url = new URL(uri);
  if (url.protocol === 'https:') return null;
  return url.protocol === 'http:' ? url.host : url.protocol;
}

const CAUTION_WORDS: Record<ConsentCaution, string> = {
  destructive: 'may change or delete things',
  high_risk: 'high risk',
  approval: 'each run waits for your approval',
};

/** One tool's box: its readable title, its key and description, and its cautions, ticked only when it has none. */
const choiceBox = (c: ConsentChoice) =>
  html`<label class="consent-key${c.cautions.length ? ' caution' : ''}" data-key="${c.key}"><input type="checkbox" name="key" value="${c.key}"${c.ticked ? html` checked` : ''}> <span class="consent-title">${c.title}</span> <code>${c.key}</code>${
    c.cautions.length ? html` <span class="consent-cautions off" data-cautions="${c.cautions.join(' ')}">${c.cautions.map((k) => CAUTION_WORDS[k]).join(' · ')}</span>` : ''
  }<span class="muted consent-description">${c.description}</span></label>`;

export function consentBody(request: AuthorizationRequest, choices: ConsentChoice[], params: Record<string, string>, csrf: string): Html {
  const c = request.client;
  return html`<h1>Allow ${c.name} to use Switchyard?</h1>
<dl class="contract" id="consent-client">
  <dt>Client</dt><dd id="client-name">${c.name}</dd>
  <dt>Client id</dt><dd><code>${c.id}</code>${c.kind === 'metadata_document' ? html` <span class="muted">(its metadata document)</span>` : ''}</dd>
  <dt>Answer goes to</dt><dd id="redirect-uri"><code>${request.redirect_uri}</code></dd>
  <dt>For the MCP server</dt><dd id="resource"><code>${request.resource}</code></dd>
</dl>
${localRedirect(request.redirect_uri) ? html`<p class="message" id="local-redirect-warning">The answer goes to a program on this computer (<code>${localRedirect(request.redirect_uri)!}</code>), not to a web site: any program here could have started this request under the name ${c.name}. Allow only if you have just started it from that application.</p>` : ''}
<p class="muted">It will run the tools you tick below, as itself (its client id is the actor of every run in the ledger), until you revoke this grant on the OAuth page. Only tools it asked for are listed; those that may change or delete things, are high risk or need your approval per run start unticked: tick them only if it needs them.</p>
<form method="post" action="/dashboard/oauth/authorize" id="consent-form">
  <input type="hidden" name="csrf" value="${csrf}">
  ${CARRIED_PARAMS.filter((p) => params[p] !== undefined).map((p) => html`<input type="hidden" name="${p}" value="${params[p]!}">`)}
  <fieldset id="consent-keys"><legend>Tools (${choices.length})</legend>
  ${choices.map(choiceBox)}
  </fieldset>
  <p><button type="submit" name="decision" value="allow" class="approve">Allow</button> <button type="submit" name="decision" value="deny" class="deny">Deny</button></p>
</form>`;
}

/** An authorization request that cannot go back to a client (unknown client, mismatched redirect URI…). */
export function authorizationErrorBody(error: string, description: string): Html {
  return html`<h1>This authorization request cannot be answered</h1>
<p class="message"><code id="oauth-error">${error}</code>: ${description}</p>
<p>Nothing was granted, and you are not sent back to the application: the request did not prove where to. <a href="/dashboard">Back to the dashboard</a></p>`;
}

const grantRow = (g: OAuthGrant, csrf: string) => html`<tr data-grant="${g.id}">
  <td><code>${g.id}</code></td><td><code>${g.resource}</code></td><td>${g.keys.join(', ')}</td><td>${g.created_at}</td>
  <td>${g.revoked_at ? html`<span class="off">revoked ${g.revoked_at} (${g.revoked_reason ?? ''})</span>` : html`<form method="post" action="/dashboard/oauth/grants/${g.id}/revoke" class="inline"><input type="hidden" name="csrf" value="${csrf}"><button type="submit" class="deny">Revoke</button></form>`}</td>
</tr>`;

export function oauthClientsBody(list: ClientWithGrants[], csrf: string): Html {
  return html`<h1>OAuth clients</h1>
<p class="muted">MCP clients that registered here or sent you to consent, and each grant you gave. Revoking a grant refuses its tokens from the next request on, on every process.</p>
${list.length === 0 ? html`<p id="no-clients">No client has registered yet.</p>` : ''}
${list.map(
  ({ client, grants }) => html`<section class="oauth-client" data-client="${client.id}">
  <h2>${client.name} <span class="muted"><code>${client.id}</code></span></h2>
  <p class="muted">${client.kind === 'registered' ? 'registered' : 'metadata document'} ${client.created_at} · ${client.auth_method === 'none' ? 'public client' : `confidential (${client.auth_method})`} · redirect ${client.redirect_uris.join(', ')}</p>
  ${grants.length === 0
    ? html`<p>No grant.</p>`
    : html`<table><thead><tr><th>Grant</th><th>Resource</th><th>Tools</th><th>Given</th><th></th></tr></thead><tbody>${grants.map((g) => grantRow(g, csrf))}</tbody></table>`}
</section>`,
)}`;
}
