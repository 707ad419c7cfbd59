// The dashboard's layout in Chromium at 400 and 1400 px wide: with long data present (a delivery
// with a long unbroken body, a binary one, a long error message, long names, arguments, actor and
// question), no page scrolls sideways and long text wraps inside its box. Screenshots of every page
// at both widths go to test-artifacts/screenshots/layout-*.png; on each engine.
import { expect } from 'chai';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';
import { SHOTS, launchChromium, signInThroughForm } from '../support/browser.js';

const WIDTHS = [400, 1400];
const GROUP = 'MESSAGING_UPDATE_GROUP';
const PAYMENTS = 'PAYMENTS_PROCESSOR_API_SEARCH';

for (const engine of engines()) {
  describe(`dashboard layout in Chromium (${engine})`, function () {
    this.timeout(120_000);
    let svc: ListeningService;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    /** Every dashboard page, with a piece of the long data it must show. */
    const pages: Array<{ name: string; path: string; shows: string }> = [];

    const api = async (path: string, init: RequestInit = {}) => {
      const res = await fetch(`${svc.url}${path}`, { ...init, headers: { 'content-type': 'application/json', 'x-sheets-key': TEST_API_KEY, ...(init.headers ?? {}) } });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };

    before(async function () {
      browser = await launchChromium(this);
      svc = await startListeningService(engine, { ledger: { integrateIntervalMs: 50 } });

      const longName = `Orders-${'N'.repeat(193)}`; // names are at most 200 characters
      const hook = (await api('/api/objects/webhook', { method: 'POST', body: JSON.stringify({ name: longName }) })).body;
      const longBody = `{"payload":"${'b'.repeat(6000)}"}`;
      const unbroken = await fetch(`${svc.url}/hook/${hook['id']}?${'q'.repeat(400)}=1`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-long-header': 'h'.repeat(1500), 'x-github-event': `event-${'T'.repeat(194)}` }, body: longBody });
      expect(unbroken.status).to.equal(200);
      const binary = await fetch(`${svc.url}/hook/${hook['id']}`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: Buffer.alloc(3000, 0xff) });
      expect(binary.status).to.equal(200);
      const longDelivery = ((await unbroken.json()) as { entry: string }).entry;
      const binaryDelivery = ((await binary.json()) as { entry: string }).entry;

      // A failed run whose error message names a 600-character property.
      const longProperty = `p${'X'.repeat(599)}`;
      const failed = (await api('/api/dispatch', { method: 'POST', body: JSON.stringify({ key: GROUP, body: { group_id: 'grp_4f7c2a9d1e', name: 'x', [longProperty]: 1 } }) })).body;
      expect(failed['invocation'].error.message).to.contain(longProperty);
      // A run waiting for approval, asked by a token with a 200-character actor and a long query.
      const actor = `finance-${'a'.repeat(192)}`;
      const token = (await api('/api/tokens', { method: 'POST', body: JSON.stringify({ moves: ['invoke:*'], keys: [PAYMENTS], actor }) })).body['token'];
      const query = `refund-${'r'.repeat(150)}`;
      const asked = await fetch(`${svc.url}/api/dispatch`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ key: PAYMENTS, body: { query } }) });
      expect(asked.status).to.equal(202);
      const waiting = { body: (await asked.json()) as Record<string, any> };

      const question = 'w'.repeat(500);
      pages.push(
        { name: 'tree', path: '/dashboard', shows: 'WEB_FETCH' },
        { name: 'ask', path: `/dashboard?q=${question}`, shows: question },
        { name: 'capability', path: '/dashboard/capabilities/MESSAGING_BATCH_LOOKUP_PHONE_NUMBERS', shows: 'MESSAGING_BATCH_LOOKUP_PHONE_NUMBERS' },
        { name: 'unknown-capability', path: `/dashboard/capabilities/${'K'.repeat(300)}`, shows: 'K'.repeat(300) },
        { name: 'login', path: '/dashboard/login', shows: 'API key' },
        { name: 'webhooks', path: '/dashboard/webhooks', shows: longName },
        { name: 'webhook', path: `/dashboard/webhooks/${hook['id']}`, shows: longDelivery },
        { name: 'delivery-long-body', path: `/dashboard/deliveries/${longDelivery}`, shows: longBody },
        { name: 'delivery-binary', path: `/dashboard/deliveries/${binaryDelivery}`, shows: Buffer.alloc(3000, 0xff).toString('base64') },
        { name: 'approvals', path: '/dashboard/approvals', shows: actor },
        { name: 'ledger', path: '/dashboard/ledger', shows: PAYMENTS },
        { name: 'ledger-key', path: `/dashboard/ledger?key=${GROUP}`, shows: failed['invocation'].id },
        { name: 'ledger-long-actor', path: `/dashboard/ledger?key=${PAYMENTS}`, shows: actor },
        { name: 'invocation-long-error', path: `/dashboard/invocations/${failed['invocation'].id}`, shows: failed['invocation'].error.message },
        { name: 'invocation-waiting', path: `/dashboard/invocations/${waiting.body['invocation'].id}`, shows: query },
        { name: 'not-found', path: `/dashboard/deliveries/dlv_${'z'.repeat(400)}`, shows: `no delivery dlv_${'z'.repeat(400)}` },
      );

      context = await browser.newContext();
      page = await context.newPage();
      await signInThroughForm(page, svc.url);
    });
    after(async () => {
      await browser?.close();
      await svc?.close();
    });

    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

    it('labels the cells of a delivery arriving live like the rows drawn by the server, at 400 px', async () => {
      await page.setViewportSize({ width: 400, height: 900 });
      const hook = pages.find((p) => p.name === 'webhook')!;
      await page.goto(`${svc.url}${hook.path}`);
      await page.waitForFunction(() => document.getElementById('live-status')!.textContent!.startsWith('Live'));
      const served = await page.locator('#deliveries tr').first().locator('td').evaluateAll((tds) => tds.map((td) => (td as HTMLElement).dataset['label']));
      await fetch(`${svc.url}${hook.path.replace('/dashboard/webhooks/', '/hook/')}`, { method: 'POST', body: `live-${'L'.repeat(3000)}` });
      await page.waitForSelector('#deliveries tr.fresh');
      const live = await page.locator('#deliveries tr.fresh td').evaluateAll((tds) => tds.map((td) => (td as HTMLElement).dataset['label']));
      expect(live).to.deep.equal(served).and.deep.equal(['Entry', 'Received', 'Method', 'Event type', 'Delivery id', 'Outcome', 'Bytes']);
      expect(await overflow()).to.be.at.most(0);
      await page.screenshot({ path: join(SHOTS, `layout-webhook-live-400-${engine}.png`), fullPage: true });
    });

    for (const width of WIDTHS) {
      it(`shows every page without sideways scrolling at ${width} px, long text wrapped`, async () => {
        await page.setViewportSize({ width, height: 900 });
        for (const p of pages) {
          await page.goto(`${svc.url}${p.path}`);
          expect(await page.evaluate(() => document.body.innerText), p.name).to.contain(p.shows);
          const widths = await page.evaluate(() => ({
            scroll: document.documentElement.scrollWidth,
            client: document.documentElement.clientWidth,
            // Boxes that would scroll on their own: a <pre> or a table cell wider than its content box.
            boxes: Array.from(document.querySelectorAll('main pre, main td, main dd, main code, main h1, main h2, main p'))
              .filter((e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).display !== 'inline')
              .map((e) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}: ${e.scrollWidth} > ${e.clientWidth}`),
          }));
          await page.screenshot({ path: join(SHOTS, `layout-${p.name}-${width}-${engine}.png`), fullPage: true });
          expect(widths.client, p.name).to.equal(width);
          expect(widths.scroll, `${p.name} at ${width} px scrolls sideways`).to.be.at.most(widths.client);
          expect(widths.boxes, `${p.name} at ${width} px`).to.deep.equal([]);
        }
      });
    }
  });
}
