// Running webhooks and forwarding from the dashboard, in Chromium: creating and changing a webhook
// (name, signature check) and its destinations (name, url, retry, filter, transform, forward
// headers), switching a destination, each form answering with what it did; a bad filter or
// transform answers with the API's whole message and stores nothing; "Retry dead letters" shows only
// where there are some and says how many it re-sent. Every effect checked through the API; each engine.
import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';
import { SHOTS, launchChromium, signInThroughForm } from '../support/browser.js';

for (const engine of engines()) {
  describe(`dashboard webhook and destination forms in Chromium (${engine})`, function () {
    this.timeout(60_000);
    let svc: ListeningService;
    let browser: Browser;
    let page: Page;
    let receiver: Server;
    let receiverUrl: string;
    let hookId: string;
    /** What the receiver answers: 500 makes dead letters of single-attempt destinations. */
    let receiverStatus = 500;
    const received: string[] = [];
    /** Each forward's webhook-signature header, and what it signs (id, timestamp, body). */
    const signatures: string[] = [];
    const signed: Array<[string, string, string]> = [];

    const api = async (path: string, init: RequestInit = {}) => {
      const res = await fetch(`${svc.url}${path}`, { ...init, headers: { 'content-type': 'application/json', 'x-sheets-key': TEST_API_KEY, ...(init.headers ?? {}) } });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };
    const destinations = async () => (await api(`/api/objects/webhook/${hookId}/destinations`)).body['items'] as Array<Record<string, any>>;
    const shot = (name: string) => page.screenshot({ path: join(SHOTS, `webhook-forms-${name}-${engine}.png`), fullPage: true });
    const answer = () => page.textContent('#form-answer');
    /** Unfolds a form (a refused one is open already, with what was typed). */
    const unfold = async (summary: string) => {
      const details = page.locator(`details:has(> summary:has-text("${summary}"))`).first();
      if ((await details.getAttribute('open')) === null) await details.locator('summary').click();
    };

    before(async function () {
      browser = await launchChromium(this);
      receiver = createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          received.push(body);
          signatures.push(String(req.headers['webhook-signature']));
          signed.push([String(req.headers['webhook-id']), String(req.headers['webhook-timestamp']), body]);
          res.writeHead(receiverStatus).end();
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      const port = (receiver.address() as AddressInfo).port;
      receiverUrl = `http://127.0.0.1:${port}/in`;
      svc = await startListeningService(engine, { webhooks: { forwarding: { allow: [`127.0.0.1:${port}`], pollMs: 20 } } });
      page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
      await signInThroughForm(page, svc.url, '/dashboard/webhooks');
    });
    after(async () => {
      await browser?.close();
      await svc?.close();
      await new Promise((resolve) => receiver?.close(resolve));
    });

    it('creates a webhook with a signature check and changes its name, each form saying what it did', async () => {
      await page.click('summary:has-text("New webhook")');
      await page.fill('#webhook-create #hook-name', 'Shop orders');
      await page.selectOption('#webhook-create #hook-scheme', 'github');
      await page.fill('#webhook-create #hook-secret', 'shop-secret-1');
      await page.check('#webhook-create input[name=signature_require]');
      await Promise.all([page.waitForURL(/\/dashboard\/webhooks\/\w+\?did=created$/), page.click('#webhook-create button')]);
      hookId = /webhooks\/(\w+)\?/.exec(page.url())![1]!;
      expect(await answer()).to.equal('Webhook Shop orders created. Its address is below.');
      expect(await page.textContent('#hook-signature')).to.equal('github, required');
      const stored = (await api(`/api/objects/webhook/${hookId}`)).body;
      expect(stored).to.include({ name: 'Shop orders', on: true });
      expect(stored['signature']).to.include({ scheme: 'github', require: true });
      // Required and checked: an unsigned delivery is refused.
      expect((await fetch(`${svc.url}/hook/${hookId}`, { method: 'POST', body: '{}' })).status).to.equal(401);

      // Renamed and the check removed: the empty secret would have kept the old one, "none" drops it.
      await page.click('summary:has-text("Edit webhook")');
      await page.fill('#webhook-edit #hook-name', 'Shop orders (EU)');
      await page.selectOption('#webhook-edit #hook-scheme', '');
      await Promise.all([page.waitForURL(/\?did=saved$/), page.click('#webhook-edit button')]);
      expect(await answer()).to.equal('Webhook Shop orders (EU) saved.');
      expect(await page.textContent('#hook-signature')).to.equal('none');
      const changed = (await api(`/api/objects/webhook/${hookId}`)).body;
      expect(changed['name']).to.equal('Shop orders (EU)');
      expect(changed['signature']).to.equal(null);

      // A scheme without a secret is refused with the API's message; the webhook is unchanged.
      await page.click('summary:has-text("Edit webhook")');
      await page.selectOption('#webhook-edit #hook-scheme', 'stripe');
      const [res] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/edit')), page.click('#webhook-edit button')]);
      expect(res.status()).to.equal(400);
      const viaApi = await api(`/api/objects/webhook/${hookId}`, { method: 'PATCH', body: JSON.stringify({ signature: { scheme: 'stripe', secret: '', require: false } }) });
      expect(await page.textContent('#form-answer pre.message')).to.equal(viaApi.body['error'].message);
      expect((await api(`/api/objects/webhook/${hookId}`)).body['signature']).to.equal(null);
    });

    it('shows the whole message of a bad filter or transform and stores nothing, keeping what was typed', async () => {
      await page.goto(`${svc.url}/dashboard/webhooks/${hookId}`);
      for (const [field, expression] of [['filter', 'body.amount >'], ['transform', '{"total": $sum(body.items.price'], ['transform', '$undefinedFunction(']] as const) {
        await unfold('Add a destination');
        await page.fill('#dst-new-url', receiverUrl);
        await page.fill('#dst-new-filter', '');
        await page.fill('#dst-new-transform', '');
        await page.fill(`#dst-new-${field}`, expression);
        const [res] = await Promise.all([page.waitForResponse((r) => r.url().endsWith(`/webhooks/${hookId}/destinations`)), page.click('#destination-create button')]);
        expect(res.status()).to.equal(400);
        // Word for word what the API answers for the same setting.
        const viaApi = await api(`/api/objects/webhook/${hookId}/destinations`, { method: 'POST', body: JSON.stringify({ url: receiverUrl, [field]: expression }) });
        expect(viaApi.status).to.equal(400);
        expect(await page.textContent('#form-answer strong')).to.equal('invalid_request');
        expect(await page.textContent('#form-answer pre.message')).to.equal(viaApi.body['error'].message);
        expect(viaApi.body['error'].message).to.match(new RegExp(`^${field}: does not parse: `));
        // The parser's whole message, not its first line (filtrex's spans lines: where, then what it expected).
        if (field === 'filter') expect(await page.textContent('#form-answer pre.message')).to.contain('-------------^').and.contain('Expecting');
        // The form stays open with what was typed.
        expect(await page.inputValue(`#dst-new-${field}`)).to.equal(expression);
        expect(await page.inputValue('#dst-new-url')).to.equal(receiverUrl);
        expect(await destinations()).to.deep.equal([]);
      }
      await shot('01-bad-transform');
    });

    it('adds a destination with every setting, shows its secret once, edits and switches it', async () => {
      await page.goto(`${svc.url}/dashboard/webhooks/${hookId}`);
      await page.click('summary:has-text("Add a destination")');
      await page.fill('#dst-new-name', 'Warehouse');
      await page.fill('#dst-new-url', receiverUrl);
      await page.fill('#dst-new-attempts', '1');
      await page.fill('#dst-new-initial', '200');
      await page.fill('#dst-new-filter', 'body.kind == "order"');
      await page.fill('#dst-new-transform', '{"order": id}');
      await page.fill('#dst-new-headers', 'X-Shop, x-trace');
      await page.fill('#dst-new-extra', 'X-Tenant: acme\nX-Env: prod');
      const [res] = await Promise.all([page.waitForResponse((r) => r.url().endsWith(`/webhooks/${hookId}/destinations`)), page.click('#destination-create button')]);
      expect(await page.textContent('#form-answer')).to.match(/^Destination/);
      expect(res.status()).to.equal(201);
      const notice = (await answer())!;
      expect(notice).to.match(/^Destination Warehouse added\. Its signing secret, shown this once: whsec_\S+$/);
      const [dst] = await destinations();
      expect(dst).to.deep.include({ name: 'Warehouse', url: receiverUrl, filter: 'body.kind == "order"', transform: '{"order": id}', forward_headers: ['x-shop', 'x-trace'], on: true });
      expect(dst!['headers']).to.deep.equal({ 'X-Tenant': 'acme', 'X-Env': 'prod' });
      expect(dst!['retry']).to.include({ max_attempts: 1, initial_ms: 200 });
      // Listed by name, with its settings; no retry button while it has no dead letters.
      const row = page.locator(`tr[data-destination="${dst!['id']}"]`);
      expect(await row.locator('td[data-label="Name"]').textContent()).to.equal('Warehouse');
      expect(await row.locator('td[data-label="Transform"]').textContent()).to.equal('{"order": id}');
      expect(await row.locator('button:has-text("Retry dead letters")').count()).to.equal(0);
      await shot('02-destination-added');

      // Edited: an emptied filter removes it, a new name and headers "none".
      await row.locator('summary:has-text("Edit")').click();
      const edit = page.locator(`#edit-${dst!['id']}`);
      expect(await edit.locator('input[name=max_attempts]').inputValue()).to.equal('1');
      await edit.locator('input[name=name]').fill('Warehouse EU');
      await edit.locator('textarea[name=filter]').fill('');
      await edit.locator('input[name=forward_headers]').fill('none');
      expect(await edit.locator('textarea[name=headers]').inputValue()).to.equal('X-Tenant: acme\nX-Env: prod');
      // A header line without a colon: refused naming the line, nothing changed.
      await edit.locator('textarea[name=headers]').fill('X-Tenant acme');
      const [refusedHeaders] = await Promise.all([page.waitForResponse((r) => r.url().endsWith(`/destinations/${dst!['id']}/edit`)), edit.locator('button').click()]);
      expect(refusedHeaders.status()).to.equal(400);
      expect(await page.content()).to.contain('headers: line 1 is not "Name: value"');
      expect((await destinations())[0]!['headers']).to.deep.equal({ 'X-Tenant': 'acme', 'X-Env': 'prod' });
      const again = page.locator(`#edit-${dst!['id']}`);
      await again.locator('input[name=name]').fill('Warehouse EU');
      await again.locator('textarea[name=filter]').fill('');
      await again.locator('input[name=forward_headers]').fill('none');
      await again.locator('textarea[name=headers]').fill('X-Tenant: globex');
      await Promise.all([page.waitForURL(/did=dst-saved/), again.locator('button').click()]);
      expect(await answer()).to.equal('Destination Warehouse EU saved.');
      expect((await destinations())[0]).to.deep.include({ name: 'Warehouse EU', filter: null, forward_headers: 'none', transform: '{"order": id}' });
      expect((await destinations())[0]!['headers']).to.deep.equal({ 'X-Tenant': 'globex' });

      // A bad transform on the edit form: the whole message, nothing changed.
      await page.locator(`tr[data-destination="${dst!['id']}"] summary:has-text("Edit")`).click();
      await page.locator(`#edit-${dst!['id']} textarea[name=transform]`).fill('{"a": ');
      const [bad] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/edit')), page.locator(`#edit-${dst!['id']} button`).click()]);
      expect(bad.status()).to.equal(400);
      const viaApi = await api(`/api/objects/webhook/${hookId}/destinations/${dst!['id']}`, { method: 'PATCH', body: JSON.stringify({ transform: '{"a": ' }) });
      expect(await page.textContent('#form-answer pre.message')).to.equal(viaApi.body['error'].message);
      expect(await page.inputValue(`#edit-${dst!['id']} textarea[name=transform]`)).to.equal('{"a": ');
      expect((await destinations())[0]!['transform']).to.equal('{"order": id}');

      // Off and on again.
      await page.goto(`${svc.url}/dashboard/webhooks/${hookId}`);
      await Promise.all([page.waitForURL(/did=dst-off/), page.locator(`tr[data-destination="${dst!['id']}"] button:has-text("Turn off")`).click()]);
      expect(await answer()).to.equal('Destination Warehouse EU turned off: nothing more is forwarded to it.');
      expect((await destinations())[0]!['on']).to.equal(false);
      await Promise.all([page.waitForURL(/did=dst-on/), page.locator(`tr[data-destination="${dst!['id']}"] button:has-text("Turn on")`).click()]);
      expect(await answer()).to.equal('Destination Warehouse EU turned on: new deliveries are forwarded to it.');
      expect((await destinations())[0]!['on']).to.equal(true);
    });

    it('"Retry dead letters" shows only where there are some and says how many it re-sent', async () => {
      const [dst] = await destinations();
      for (const id of ['o1', 'o2', 'o3']) expect((await fetch(`${svc.url}/hook/${hookId}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id }) })).status).to.equal(200);
      // One attempt each, answered 500: three dead letters.
      for (let i = 0; i < 200; i++) {
        if (((await api(`/api/objects/webhook/${hookId}/destinations/${dst!['id']}/dead`)).body['items'] as unknown[]).length === 3) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(((await api(`/api/objects/webhook/${hookId}/destinations/${dst!['id']}/dead`)).body['items'] as unknown[]).length).to.equal(3);
      receiverStatus = 200;
      await page.goto(`${svc.url}/dashboard/webhooks/${hookId}`);
      // Each delivery's forwarding in the list, by destination name.
      const forwardingCells = () => page.locator('#deliveries tr[data-entry] td[data-label="Forwarding"]').allTextContents();
      expect((await forwardingCells()).slice(0, 3)).to.deep.equal(['Warehouse EU: dead', 'Warehouse EU: dead', 'Warehouse EU: dead']);
      await Promise.all([page.waitForURL(/requeued=3/), page.locator(`tr[data-destination="${dst!['id']}"] button:has-text("Retry dead letters")`).click()]);
      expect(await answer()).to.equal('3 dead letters re-sent to Warehouse EU.');
      await shot('03-retried');
      for (let i = 0; i < 200 && received.filter((b) => b.includes('"order"')).length < 6; i++) await new Promise((r) => setTimeout(r, 50));
      expect(received.filter((b) => b === '{"order":"o1"}').length).to.equal(2);
      expect(((await api(`/api/objects/webhook/${hookId}/destinations/${dst!['id']}/dead`)).body['items'] as unknown[]).length).to.equal(0);
      await page.goto(`${svc.url}/dashboard/webhooks/${hookId}`);
      expect((await forwardingCells()).slice(0, 3)).to.deep.equal(['Warehouse EU: delivered', 'Warehouse EU: delivered', 'Warehouse EU: delivered']);
      // No dead letters left: no retry button.
      expect(await page.locator(`tr[data-destination="${dst!['id']}"] button:has-text("Retry dead letters")`).count()).to.equal(0);
      // At 1400 px no word of the destinations or deliveries tables is broken across lines.
      const broken = await page.evaluate(() => {
        const out: string[] = [];
        for (const td of Array.from(document.querySelectorAll('#destinations td, #deliveries td'))) {
          const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            if (node.parentElement?.closest('details, form')) continue;
            const text = node.textContent ?? '';
            for (const m of text.matchAll(/\S+/g)) {
              const range = document.createRange();
              range.setStart(node, m.index!);
              range.setEnd(node, m.index! + m[0].length);
              const lines = new Set(Array.from(range.getClientRects()).filter((r) => r.width > 0).map((r) => Math.round(r.top)));
              if (lines.size > 1) out.push(m[0]);
            }
          }
        }
        return out;
      });
      expect(broken).to.deep.equal([]);
      // A delivery that arrives while the page is open comes with its forwarding.
      expect((await fetch(`${svc.url}/hook/${hookId}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'o4' }) })).status).to.equal(200);
      await page.locator('#deliveries tr.fresh').first().waitFor();
      expect(await page.locator('#deliveries tr.fresh td[data-label="Forwarding"]').first().textContent()).to.match(/^Warehouse EU: (pending|retrying|delivered)$/);
      // A delivery's own page names the destination too.
      await page.locator('#deliveries tr[data-entry]:not(.fresh) a').first().click();
      expect(await page.textContent('#forwarding td[data-label="Destination"]')).to.equal('Warehouse EU');
      expect(await page.textContent('#forwarding td[data-label="State"]')).to.equal('delivered');
    });

    it('rotates a destination\'s secret, showing the new one once and how long the old one signs; a bad grace changes nothing', async () => {
      const [dst] = await destinations();
      const row = () => page.locator(`tr[data-destination="${dst!['id']}"]`);
      await page.goto(`${svc.url}/dashboard/webhooks/${hookId}`);
      await row().locator('summary:has-text("Rotate secret")').click();
      await page.fill(`#rotate-${dst!['id']}-grace`, 'soon');
      const [bad] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/rotate-secret')), page.click(`#rotate-${dst!['id']} button`)]);
      expect(bad.status()).to.equal(400);
      const viaApi = await api(`/api/objects/webhook/${hookId}/destinations/${dst!['id']}/rotate-secret`, { method: 'POST', body: JSON.stringify({ grace_s: 'soon' }) });
      expect(await page.textContent('#form-answer pre.message')).to.equal(viaApi.body['error'].message);
      expect((await destinations())[0]!['previous_secret_until']).to.equal(null);

      await page.fill(`#rotate-${dst!['id']}-grace`, '60');
      const [ok] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/rotate-secret')), page.click(`#rotate-${dst!['id']} button`)]);
      expect(ok.status()).to.equal(200);
      const notice = (await answer())!;
      const m = /^Destination Warehouse EU has a new signing secret, shown this once: (whsec_\S+) \(the old one also signs until (\S+)\)\.$/.exec(notice);
      expect(m, notice).to.not.equal(null);
      const until = (await destinations())[0]!['previous_secret_until'] as string;
      expect(until).to.equal(m![2]);
      expect(Date.parse(until) - Date.now()).to.be.within(50_000, 61_000);
      // What is forwarded now is signed with the new secret (and, for the grace, the old one too).
      const before = received.length;
      expect((await fetch(`${svc.url}/hook/${hookId}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'o5' }) })).status).to.equal(200);
      for (let i = 0; i < 200 && received.length === before; i++) await new Promise((r) => setTimeout(r, 50));
      const [id, ts, body] = signed.at(-1)!;
      const expected = `v1,${createHmac('sha256', Buffer.from(m![1]!.slice('whsec_'.length), 'base64')).update(`${id}.${ts}.${body}`).digest('base64')}`;
      expect(signatures.at(-1)!.split(' ')).to.have.length(2).and.include(expected);
    });

    it('admits and removes allowlist hosts from the webhook list; a configured host has no Remove, a bad host is refused', async () => {
      const hosts = async () => ((await api('/api/forwarding/allow')).body['items'] as Array<{ host: string; source: string }>).map((a) => `${a.host} ${a.source}`);
      await page.goto(`${svc.url}/dashboard/webhooks`);
      const configured = new URL(receiverUrl).host;
      expect(await page.locator(`#allowlist tr[data-host="${configured}"] button`).count()).to.equal(0);
      await page.fill('#allow-host', '10.9.8.7:8443');
      await Promise.all([page.waitForResponse((r) => r.url().endsWith('/dashboard/forwarding/allow')), page.click('#allow-form button')]);
      expect(await answer()).to.equal('10.9.8.7:8443 admitted: destinations there may be added and are forwarded to.');
      expect(await hosts()).to.include('10.9.8.7:8443 database');
      await page.fill('#allow-host', 'not a host/');
      const [bad] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/dashboard/forwarding/allow')), page.click('#allow-form button')]);
      expect(bad.status()).to.equal(400);
      const viaApi = await api('/api/forwarding/allow', { method: 'POST', body: JSON.stringify({ host: 'not a host/' }) });
      expect(await page.textContent('#form-answer pre.message')).to.equal(viaApi.body['error'].message);
      expect(await hosts()).to.have.length(2);
      await page.locator('#allowlist tr[data-host="10.9.8.7:8443"] button:has-text("Remove")').click();
      await page.waitForSelector('#form-answer:has-text("removed")');
      expect(await answer()).to.equal('10.9.8.7:8443 removed: attempts to it are refused again.');
      expect(await hosts()).to.deep.equal([`${configured} config`]);
    });

    it('refuses each new form without the session\'s CSRF token, storing nothing', async () => {
      const cookie = (await page.context().cookies()).find((c) => c.name === 'sy_dashboard')!.value;
      const post = (path: string, body: string) =>
        fetch(`${svc.url}${path}`, { method: 'POST', headers: { cookie: `sy_dashboard=${cookie}`, 'content-type': 'application/x-www-form-urlencoded' }, body, redirect: 'manual' });
      const [dst] = await destinations();
      expect((await post('/dashboard/webhooks', 'name=Forged')).status).to.equal(403);
      expect((await post('/dashboard/forwarding/allow', 'host=10.1.1.1')).status).to.equal(403);
      expect((await post(`/dashboard/webhooks/${hookId}/edit`, 'name=Forged')).status).to.equal(403);
      expect((await post(`/dashboard/webhooks/${hookId}/destinations`, `url=${encodeURIComponent(receiverUrl)}`)).status).to.equal(403);
      expect((await post(`/dashboard/webhooks/${hookId}/destinations/${dst!['id']}/edit`, 'name=Forged')).status).to.equal(403);
      expect((await post(`/dashboard/webhooks/${hookId}/destinations/${dst!['id']}/switch`, 'on=false')).status).to.equal(403);
      const secretBefore = (await destinations())[0]!['previous_secret_until'];
      expect((await post(`/dashboard/webhooks/${hookId}/destinations/${dst!['id']}/rotate-secret`, 'grace_s=0')).status).to.equal(403);
      expect((await destinations())[0]!['previous_secret_until']).to.equal(secretBefore);
      const hooks = (await api('/api/objects/webhook')).body['items'] as Array<{ name: string }>;
      expect(hooks.map((h) => h.name)).to.not.include('Forged');
      expect(((await api('/api/forwarding/allow')).body['items'] as unknown[]).length).to.equal(1);
      expect(await destinations()).to.have.length(1);
      expect((await destinations())[0]).to.include({ name: 'Warehouse EU', on: true });
    });
  });
}
