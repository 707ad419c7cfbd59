// The owner connects an upstream that signs in with OAuth, in Chromium: Connect on
// /dashboard/upstreams, on to the upstream's authorization server on another site (127.0.0.1 while
// the dashboard is at localhost), consent, and back to the callback. The dashboard's session cookie
// (SameSite=Strict) is not sent on that cross-site return; the state is bound by its own Lax cookie.
// Then a run of the upstream's tool works; on each engine.
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';
import { SHOTS, launchChromium, signInThroughForm } from '../support/browser.js';
import { startOAuthUpstream, type OAuthUpstream } from '../support/oauth-upstream.js';

for (const engine of engines()) {
  describe(`connecting an OAuth upstream in Chromium (${engine})`, function () {
    this.timeout(60_000);
    let svc: ListeningService;
    let upstream: OAuthUpstream;
    let browser: Browser;
    let page: Page;
    let dashboard: string;

    before(async function () {
      browser = await launchChromium(this);
      upstream = await startOAuthUpstream();
      svc = await startListeningService(engine, {
        upstreams: {
          oauthKeys: [{ kid: 'k1', secret: randomBytes(32).toString('base64') }],
          servers: { ac: { system: 'AC', transport: 'streamable-http', url: upstream.url, oauth: { grant: 'authorization_code' }, defaults: { auth: 'none', risk: 'low', approval: false } } },
        },
      });
      // Another site than the authorization server's 127.0.0.1.
      dashboard = svc.url.replace('127.0.0.1', 'localhost');
      page = await (await browser.newContext()).newPage();
      await signInThroughForm(page, dashboard, '/dashboard/upstreams');
    });
    after(async () => {
      await browser?.close();
      await svc?.close();
      await upstream?.close();
    });

    it('lists the upstream as not connected, connects it through the authorization server, and its tool runs', async () => {
      const row = page.locator('tr[data-upstream="ac"]');
      expect(await row.getAttribute('data-state')).to.equal('not_connected');
      await page.screenshot({ path: join(SHOTS, `upstreams-01-not-connected-${engine}.png`), fullPage: true });
      await Promise.all([page.waitForURL(/\/dashboard\/upstreams\/ac\/connect$/), row.locator('button:has-text("Connect")').click()]);
      expect(await page.textContent('#continue')).to.contain(new URL(upstream.issuer).host);
      await Promise.all([page.waitForURL(/\/dashboard\/upstreams\/ac\/callback\?/), page.click('#continue')]);
      expect(await page.textContent('#connect-notice')).to.contain('Switchyard holds ac');
      expect(upstream.authorizeRequests).to.have.length(1);
      expect(upstream.authorizeRequests[0]!['redirect_uri']).to.equal(`${dashboard}/dashboard/upstreams/ac/callback`);
      await Promise.all([page.waitForURL(/\/dashboard\/upstreams\?connected=ac$/), page.click('a:has-text("Back to the upstreams")')]);
      expect(await page.locator('tr[data-upstream="ac"]').getAttribute('data-state')).to.equal('connected');
      await page.screenshot({ path: join(SHOTS, `upstreams-02-connected-${engine}.png`), fullPage: true });
      const run = await fetch(`${svc.url}/api/dispatch`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-sheets-key': TEST_API_KEY }, body: JSON.stringify({ key: 'AC_WHOAMI', body: {} }) });
      expect(run.status).to.equal(200);
      expect(((await run.json()) as { result: { subject: string } }).result.subject).to.equal('owner');
    });
  });
}
