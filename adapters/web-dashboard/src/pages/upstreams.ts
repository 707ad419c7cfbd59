// Upstreams that sign in with OAuth: each one's grant and state, and for authorization code a
// Connect button (a form with the session's CSRF token). Tokens are never shown, only states.
import type { UpstreamOAuthStatus, UpstreamStatus } from '@switchyard/core';
import { html, type Html } from '@switchyard/http-kit';

const STATE_WORDS: Record<UpstreamOAuthStatus['state'], string> = {
  connected: 'connected',
  not_connected: 'not connected',
  reconnect: 'reconnect: its authorization server refused the stored tokens',
};

const connectForm = (name: string, csrf: string, label: string) =>
  html`<form method="post" action="/dashboard/upstreams/${name}/connect" class="inline"><input type="hidden" name="csrf" value="${csrf}"><button type="submit">${label}</button></form>`;

export function upstreamsBody(oauth: UpstreamOAuthStatus[], imports: UpstreamStatus[], csrf: string, connected: string | null): Html {
  const importOf = (name: string) => imports.find((i) => i.name === name);
  return html`<h1>Upstreams</h1>
${connected ? html`<p class="notice on" role="status" id="connect-notice">Connected ${connected}.</p>` : ''}
<p class="muted">Imported MCP servers that sign in with OAuth. With client credentials Switchyard signs in by itself; with authorization code the owner connects the server once here, and Switchyard keeps its tokens (sealed in the database) and refreshes them.</p>
<p>Tools whose definitions changed upstream wait for review under <a href="/dashboard/tools">Held tools</a>.</p>
${oauth.length === 0 ? html`<p id="no-oauth-upstreams">No imported server signs in with OAuth (config upstreams.servers.&lt;name&gt;.oauth).</p>` : ''}
<table class="upstreams">
<thead><tr><th>Server</th><th>Grant</th><th>Sign-in</th><th>Import</th><th></th></tr></thead>
<tbody>${oauth.map((u) => {
    const imported = importOf(u.name);
    const label = u.state === 'connected' ? 'Connect again' : u.state === 'reconnect' ? 'Reconnect' : 'Connect';
    return html`<tr data-upstream="${u.name}" data-state="${u.state}">
  <td>${u.name}</td>
  <td>${u.grant === 'authorization_code' ? 'authorization code' : 'client credentials'}</td>
  <td class="${u.state === 'connected' ? 'on' : 'off'}">${STATE_WORDS[u.state]}${u.updated_at ? html` <span class="muted">(${u.updated_at})</span>` : ''}</td>
  <td>${imported ? html`${imported.status} · ${imported.tools} tools${imported.last_error ? html` · <span class="off">${imported.last_error.code}</span>` : ''}` : ''}</td>
  <td>${u.grant === 'authorization_code' ? connectForm(u.name, csrf, label) : ''}</td>
</tr>`;
  })}</tbody>
</table>`;
}

/** Between the Connect button and the authorization server: where the owner is about to sign in. */
export function continueBody(name: string, authorizationUrl: string): Html {
  const host = new URL(authorizationUrl).host;
  return html`<h1>Connect ${name}</h1>
<p>Sign in at <strong>${host}</strong> and allow Switchyard to use ${name} for you. You come back here when it is done.</p>
<p><a class="button" id="continue" href="${authorizationUrl}">Continue to ${host}</a></p>
<p><a href="/dashboard/upstreams">Cancel</a></p>`;
}

export function connectedBody(name: string): Html {
  return html`<h1>Connected ${name}</h1>
<p class="notice on" role="status" id="connect-notice">Switchyard holds ${name}'s tokens now, sealed, and refreshes them.</p>
<p><a href="/dashboard/upstreams?connected=${name}">Back to the upstreams</a></p>`;
}

export function refusedBody(name: string, error: string, description: string | null): Html {
  return html`<h1>Not connected: ${name}</h1>
<p class="message">The authorization server answered <code>${error}</code>${description ? html`: ${description}` : ''}.</p>
<p><a href="/dashboard/upstreams">Back to the upstreams</a></p>`;
}
