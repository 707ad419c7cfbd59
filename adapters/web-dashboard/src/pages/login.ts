// Sign-in: the owner's API key, exchanged for a dashboard session cookie.
import { html, type Html } from '@switchyard/http-kit';

export function loginBody(next: string, failed: boolean): Html {
  return html`<h1>Sign in</h1>
<p>Webhooks and the ledger are the owner's. Paste the API key (it stays in this form; the dashboard keeps only a signed session cookie).</p>
${failed ? html`<p class="off" role="alert">That is not a valid API key.</p>` : ''}
<form method="post" action="/dashboard/login">
  <input type="hidden" name="next" value="${next}">
  <label for="api_key">API key</label>
  <input id="api_key" name="api_key" type="password" autocomplete="off" required>
  <button type="submit">Sign in</button>
</form>`;
}
