// The owner's actions in the dashboard, in Chromium: approving and denying runs that wait for
// approval, and the on/off switch on a webhook's own page; each effect checked through the API
// (/api/approvals, /api/invocations, /api/objects/webhook, /hook), and each form refused without
// the session's CSRF token; on each engine.
import { expect } from 'chai';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';
import { SHOTS, launchChromium, signInThroughForm } from '../support/browser.js';

const PAYMENTS = 'PAYMENTS_PROCESSOR_API_SEARCH';

for (const engine of engines()) {
  describe(`dashboard actions in Chromium (${engine})`, function () {
    this.timeout(60_000);
    let svc: ListeningService;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let financeToken: string;

    const api = async (path: string, init: RequestInit = {}) => {
      const res = await fetch(`${svc.url}${path}`, { ...init, headers: { 'content-type': 'application/json', 'x-sheets-key': TEST_API_KEY, ...(init.headers ?? {}) } });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };
    const shot = (name: string) => page.screenshot({ path: join(SHOTS, `actions-${name}-${engine}.png`), fullPage: true });
    /** A run of PAYMENTS by an owner-issued token: it waits for approval. */
    const ask = async (query: string): Promise<string> => {
      const res = await fetch(`${svc.url}/api/dispatch`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${financeToken}` }, body: JSON.stringify({ key: PAYMENTS, body: { query } }) });
      expect(res.status).to.equal(202);
      return ((await res.json()) as { invocation: { id: string } }).invocation.id;
    };
    const pendingIds = async () => ((await api('/api/approvals')).body['items'] as Array<{ invocation: string }>).map((p) => p.invocation);
    const card = (id: string) => page.locator(`li.approval[data-invocation="${id}"]`);
    const sessionCookie = async () => (await context.cookies()).find((c) => c.name === 'sy_dashboard')!.value;

    before(async function () {
      browser = await launchChromium(this);
      svc = await startListeningService(engine, { ledger: { integrateIntervalMs: 50 } });
      financeToken = (await api('/api/tokens', { method: 'POST', body: JSON.stringify({ moves: ['invoke:*'], keys: [PAYMENTS], actor: 'finance-bot' }) })).body['token'];
      context = await browser.newContext();
      page = await context.newPage();
      await signInThroughForm(page, svc.url, '/dashboard/approvals');
    });
    after(async () => {
      await browser?.close();
      await svc?.close();
    });

    it('lists the runs waiting for approval with their arguments, and approves one: it runs once, linked', async () => {
      expect(await page.textContent('#no-approvals')).to.equal('Nothing waits for approval.');
      const refund = await ask('refund a charge');
      const payouts = await ask('search payouts');
      await page.click('nav a:has-text("Approvals")');
      expect(await page.locator('li.approval').count()).to.equal(2);
      expect(await card(refund).textContent()).to.contain(PAYMENTS).and.contain('finance-bot').and.contain('refund a charge');
      await shot('01-approvals');

      await Promise.all([page.waitForURL(/approved=/), card(refund).locator('button:has-text("Approve")').click()]);
      const notice = await page.textContent('#decision-notice');
      expect(notice).to.match(new RegExp(`^Approved ${refund}; it ran as inv_\\w+ \\(ok\\)\\.$`));
      expect(await card(refund).count()).to.equal(0);
      expect(await card(payouts).count()).to.equal(1);
      await shot('02-approved');

      // Through the API: no longer pending; the run is a new invocation of the same arguments, made for the approval.
      expect(await pendingIds()).to.deep.equal([payouts]);
      const runId = /it ran as (inv_\w+)/.exec(notice!)![1]!;
      const run = (await api(`/api/invocations/${runId}`)).body['invocation'];
      expect(run).to.include({ ok: true, key: PAYMENTS, actor: 'finance-bot' });
      expect(run.source).to.match(/^approval:apr_/);
      expect(run.args).to.deep.include({ query: 'refund a charge' });
      // A second decision on it is refused, as by the API.
      expect((await api(`/api/approvals/${refund}`, { method: 'POST', body: JSON.stringify({ decision: 'deny' }) })).body['error'].code).to.equal('already_decided');
    });

    it('denies one: nothing runs, and a decision already taken answers 409 as a page', async () => {
      const payouts = (await pendingIds())[0]!;
      await page.goto(`${svc.url}/dashboard/approvals`);
      await Promise.all([page.waitForURL(/denied=/), card(payouts).locator('button:has-text("Deny")').click()]);
      expect(await page.textContent('#decision-notice')).to.equal(`Denied ${payouts}; nothing ran.`);
      expect(await page.textContent('#no-approvals')).to.equal('Nothing waits for approval.');
      expect(await pendingIds()).to.deep.equal([]);
      const again = await api(`/api/approvals/${payouts}`, { method: 'POST', body: JSON.stringify({ decision: 'approve' }) });
      expect(again.status).to.equal(409);
      expect(again.body['error'].message).to.contain('denied');
      // Nothing ran: the only invocations of the key are the two that waited and the one approved run.
      const runs = (await api(`/api/invocations?object_id=${PAYMENTS}`)).body['items'] as Array<{ status: string }>;
      expect(runs.map((r) => r.status).sort()).to.deep.equal(['awaiting_approval', 'awaiting_approval', 'ok']);

      // A form from a page opened before the decision: the dashboard answers with the API's code.
      const late = await ask('late decision');
      await page.goto(`${svc.url}/dashboard/approvals`);
      await api(`/api/approvals/${late}`, { method: 'POST', body: JSON.stringify({ decision: 'deny' }) });
      const [res] = await Promise.all([page.waitForResponse((r) => r.url().endsWith(`/dashboard/approvals/${late}`)), card(late).locator('button:has-text("Approve")').click()]);
      expect(res.status()).to.equal(409);
      expect(await page.textContent('main h1')).to.equal('already_decided');
      expect(await page.textContent('main .message')).to.equal(`invocation ${late} was already denied`);
      expect(await page.getAttribute('main a:has-text("Back to the approvals")', 'href')).to.equal('/dashboard/approvals');
      await shot('03-already-decided');
    });

    it('refuses a decision without the session\'s CSRF token, deciding nothing', async () => {
      const waiting = await ask('forged approval');
      const forged = await fetch(`${svc.url}/dashboard/approvals/${waiting}`, {
        method: 'POST',
        headers: { cookie: `sy_dashboard=${await sessionCookie()}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'decision=approve',
        redirect: 'manual',
      });
      expect(forged.status).to.equal(403);
      expect(await pendingIds()).to.include(waiting);
      // Without a session at all: to sign-in, nothing decided.
      const anonymous = await fetch(`${svc.url}/dashboard/approvals/${waiting}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'decision=approve', redirect: 'manual' });
      expect(anonymous.status).to.equal(303);
      expect(await pendingIds()).to.include(waiting);
    });

    it('switches a webhook off and on again from its own page', async () => {
      const hook = (await api('/api/objects/webhook', { method: 'POST', body: JSON.stringify({ name: 'Orders' }) })).body;
      const hookUrl = `${svc.url}/dashboard/webhooks/${hook['id']}`;
      await page.goto(hookUrl);
      expect(await page.textContent('#hook-state strong')).to.equal('on');
      await Promise.all([page.waitForURL(hookUrl), page.click('#hook-state button:has-text("Turn off")')]);
      expect(await page.textContent('#hook-state strong')).to.equal('off');
      await shot('04-webhook-off');
      expect((await api(`/api/objects/webhook/${hook['id']}`)).body['on']).to.equal(false);
      const refused = await fetch(`${svc.url}/hook/${hook['id']}`, { method: 'POST', body: 'x' });
      expect(refused.status).to.equal(403);
      expect(((await refused.json()) as { error: { code: string } }).error.code).to.equal('webhook_off');

      await Promise.all([page.waitForURL(hookUrl), page.click('#hook-state button:has-text("Turn on")')]);
      expect(await page.textContent('#hook-state strong')).to.equal('on');
      expect((await api(`/api/objects/webhook/${hook['id']}`)).body['on']).to.equal(true);
      expect((await fetch(`${svc.url}/hook/${hook['id']}`, { method: 'POST', body: 'x' })).status).to.equal(200);
      // The switch on the list goes back to the list.
      await page.goto(`${svc.url}/dashboard/webhooks`);
      await Promise.all([page.waitForURL(`${svc.url}/dashboard/webhooks`), page.click('td button:has-text("Turn off")')]);
      expect((await api(`/api/objects/webhook/${hook['id']}`)).body['on']).to.equal(false);

      // Without the CSRF token: refused, the state unchanged.
      const forged = await fetch(`${svc.url}/dashboard/webhooks/${hook['id']}/switch`, {
        method: 'POST',
        headers: { cookie: `sy_dashboard=${await sessionCookie()}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'on=true&from=webhook',
        redirect: 'manual',
      });
      expect(forged.status).to.equal(403);
      expect((await api(`/api/objects/webhook/${hook['id']}`)).body['on']).to.equal(false);
    });
  });
}
