// The dashboard in a real browser: Debian's Chromium driven by playwright-core against a real
// service on loopback. A click path through every page, a delivery sent with curl arriving live,
// a proof turning green, pages that work without script, escaping, CSRF; on each engine.
// Screenshots are saved to test-artifacts/screenshots/, named by engine. CI installs Chromium and
// sets SWITCHYARD_TEST_BROWSER=required, so these tests can never be skipped there; elsewhere they
// run when /usr/bin/chromium exists.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { PROJECT_ROOT } from '@switchyard/app';
import knexFactory from 'knex';
import { dialectFor, knexConfig } from '@switchyard/storage-knex';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';

const CHROMIUM = '/usr/bin/chromium';
const SHOTS = join(PROJECT_ROOT, 'test-artifacts', 'screenshots');
const GROUP = 'MESSAGING_UPDATE_GROUP';
const run = promisify(execFile);

for (const engine of engines()) {
  describe(`dashboard in Chromium (${engine})`, function () {
    this.timeout(60_000);
    let svc: ListeningService;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;

    const api = async (path: string, init: RequestInit = {}) => {
      const res = await fetch(`${svc.url}${path}`, { ...init, headers: { 'content-type': 'application/json', 'x-sheets-key': TEST_API_KEY, ...(init.headers ?? {}) } });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };
    const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}-${engine}.png`), fullPage: true });
    const signIn = async () => {
      await page.fill('#api_key', TEST_API_KEY);
      await Promise.all([page.waitForURL(/\/dashboard/), page.click('button[type=submit]:has-text("Sign in")')]);
    };

    before(async function () {
      if (!existsSync(CHROMIUM)) {
        if (process.env['SWITCHYARD_TEST_BROWSER'] === 'required') throw new Error(`${CHROMIUM} is missing; install Debian's chromium (apt-get install chromium)`);
        this.skip();
      }
      mkdirSync(SHOTS, { recursive: true });
      svc = await startListeningService(engine, { ledger: { integrateIntervalMs: 50 } });
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
      context = await browser.newContext();
      page = await context.newPage();
    });
    after(async () => {
      await browser?.close();
      await svc?.close();
    });

    it('shows the capability tree and finds a capability by asking, then runs it with a pasted token', async () => {
      await page.goto(`${svc.url}/dashboard`);
      expect(await page.locator('ul.tree a').allTextContents()).to.include.members([GROUP, 'WEB_FETCH']);
      await page.fill('#q', 'rename a group');
      await Promise.all([page.waitForURL(/q=rename/), page.click('form.search button')]);
      await shot('01-tree-ask');
      expect(await page.locator('section.results li a').first().textContent()).to.equal(GROUP);
      await Promise.all([page.waitForURL(/capabilities/), page.locator('section.results li a').first().click()]);

      expect(await page.locator('h1').textContent()).to.equal(GROUP);
      const token = (await (await fetch(`${svc.url}/start`)).json()) as { token: string };
      await page.fill('#credential', token.token);
      await page.fill('#body', '{"group_id":"grp_4f7c2a9d1e","name":"Night owls"}');
      await page.click('#try-it button');
      await page.waitForSelector('#try-invocation-link');
      expect(await page.textContent('#try-status')).to.equal('200 ok');
      expect(await page.textContent('#try-result')).to.contain('Night owls');
      await shot('02-capability-try-it');
    });

    it('asks an owner page for sign-in, then shows the invocation and verifies its proof in the browser', async () => {
      const invocation = (await page.textContent('#try-invocation-link'))!;
      // More entries after it, so the proof climbs a tree of several levels.
      for (let i = 0; i < 9; i++) await api('/api/dispatch', { method: 'POST', body: JSON.stringify({ key: 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER', body: { workerId: '0123456789abcdef0123456789abcdef' } }) });
      await Promise.all([page.waitForURL(/\/dashboard\/login/), page.click('#try-invocation-link')]);
      await shot('03-sign-in');
      await signIn();
      expect(page.url()).to.equal(`${svc.url}/dashboard/invocations/${invocation}`);
      expect(await page.textContent('h1')).to.equal(invocation);
      // Integration runs every 50 ms; a pending entry says so, and a second click verifies.
      for (let i = 0; i < 20; i++) {
        await page.click('#verify-proof');
        await page.waitForFunction(() => !document.getElementById('proof-status')!.textContent!.startsWith('Checking'));
        if ((await page.getAttribute('#proof-status', 'class'))!.includes('verified')) break;
        await page.waitForTimeout(100);
      }
      expect(await page.getAttribute('#proof-status', 'class')).to.contain('verified');
      expect(await page.textContent('#proof-status')).to.match(new RegExp(`^Verified: ${invocation} is leaf \\d+ of switchyard.local/ledger`));
      expect(await page.locator('#proof-steps li.ok').count()).to.equal(5);
      expect(await page.textContent('#proof-steps')).to.match(/inclusion proof \([2-9] hashes\)/).and.match(/the record shown opens its leaf \(\d+ fields\)/);
      expect(await page.evaluate(() => getComputedStyle(document.getElementById('proof-status')!).color)).to.equal('rgb(26, 127, 55)');
      await shot('04-proof-verified');
    });

    it('turns a tampered proof red: a changed proof hash, a forged checkpoint signature, a changed leaf', async () => {
      const tamper = async (change: (confirm: Record<string, any>) => void, expected: RegExp) => {
        await page.route('**/api/dispatch?confirm=*', async (route) => {
          const res = await route.fetch();
          const body = (await res.json()) as Record<string, any>;
          change(body);
          await route.fulfill({ response: res, json: body });
        });
        await page.click('#verify-proof');
        await page.waitForFunction(() => !document.getElementById('proof-status')!.textContent!.startsWith('Checking'));
        await page.unroute('**/api/dispatch?confirm=*');
        expect(await page.getAttribute('#proof-status', 'class')).to.contain('failed');
        expect(await page.textContent('#proof-status')).to.match(expected);
      };
      await tamper((c) => {
        const first = Buffer.from(c['inclusion_proof'][0], 'base64');
        first[0] = first[0]! ^ 1;
        c['inclusion_proof'][0] = first.toString('base64');
      }, /^Not verified: inclusion proof does not lead to the signed root/);
      await tamper((c) => {
        c['checkpoint'] = c['checkpoint'].replace(/\n\n— (\S+) (\S+)\n/, (_m: string, name: string, sig: string) => {
          const bytes = Buffer.from(sig, 'base64');
          bytes[10] = bytes[10]! ^ 1;
          return `\n\n— ${name} ${bytes.toString('base64')}\n`;
        });
      }, /^Not verified: checkpoint signature is invalid/);
      await tamper((c) => {
        c['leaf_text'] = c['leaf_text'].replace('"ok"', '"failed"');
      }, /^Not verified: leaf hash does not match the leaf/);
      await shot('04b-proof-tampered');
    });

    it('names the field of a record edited in the database: the page shows it, and the leaf does not open', async () => {
      const id = (await api('/api/dispatch', { method: 'POST', body: JSON.stringify({ key: GROUP, body: { group_id: 'grp_4f7c2a9d1e', name: 'Audited' } }) })).body['invocation'].id as string;
      const db = knexFactory(knexConfig(svc.db.url));
      try {
        const verifyPage = async () => {
          await page.goto(`${svc.url}/dashboard/invocations/${id}`);
          for (let i = 0; i < 20; i++) {
            await page.click('#verify-proof');
            await page.waitForFunction(() => !document.getElementById('proof-status')!.textContent!.startsWith('Checking'));
            if (!(await page.textContent('#proof-status'))!.startsWith('Recorded')) break;
            await page.waitForTimeout(100);
          }
          return { cls: (await page.getAttribute('#proof-status', 'class'))!, text: (await page.textContent('#proof-status'))! };
        };
        expect((await verifyPage()).cls).to.contain('verified');
        for (const sql of dialectFor(db).dropAppendOnly('invocations')) await db.raw(sql);
        const row = (await db('invocations').where({ id }).first()) as { record: string };
        const record = JSON.parse(row.record) as Record<string, any>;
        await db('invocations').where({ id }).update({ record: JSON.stringify({ ...record, result: JSON.parse(JSON.stringify(record['result']).replace('Audited', 'Audited!')) }) });
        const edited = await verifyPage();
        expect(edited.cls).to.contain('failed');
        expect(edited.text).to.equal('Not verified: the record shown differs from its leaf in result');
        expect(await page.content()).to.contain('Audited!');
        await shot('04c-proof-record-edited');
        await db('invocations').where({ id }).update({ record: row.record });
        expect((await verifyPage()).cls).to.contain('verified');
      } finally {
        await db.destroy();
      }
    });

    it('erases a run with its form, then verifies it as erased: its erasure proven, the erased fields let go, the others still opening', async () => {
      const id = (await api('/api/dispatch', { method: 'POST', body: JSON.stringify({ key: GROUP, body: { group_id: 'grp_4f7c2a9d1e', name: 'Forget me' } }) })).body['invocation'].id as string;
      const verifyPage = async () => {
        await page.goto(`${svc.url}/dashboard/invocations/${id}`);
        for (let i = 0; i < 20; i++) {
          await page.click('#verify-proof');
          await page.waitForFunction(() => !document.getElementById('proof-status')!.textContent!.startsWith('Checking'));
          const text = (await page.textContent('#proof-status'))!;
          if (!text.startsWith('Recorded') && !text.startsWith('Erased;')) break;
          await page.waitForTimeout(100);
        }
        return { cls: (await page.getAttribute('#proof-status', 'class'))!, steps: (await page.textContent('#proof-steps'))! };
      };
      expect((await verifyPage()).cls).to.contain('verified');
      // Erased with the page's form (the session and its CSRF token), which answers with the page again.
      await page.fill('#erase-reason', 'asked to forget');
      await Promise.all([page.waitForURL(`${svc.url}/dashboard/invocations/${id}`), page.click('form.erase button')]);
      expect(await page.textContent('#erased')).to.match(/^Erased at \S+: /);
      expect(await page.locator('form.erase').count()).to.equal(0);
      await shot('04d-run-erased');
      const twice = await api(`/api/ledger/${id}/erase`, { method: 'POST', body: JSON.stringify({ reason: 'again' }) });
      expect(twice.status).to.equal(409);
      const after = await verifyPage();
      expect(after.cls, after.steps).to.contain('verified');
      expect(after.steps).to.match(/erased at \S+: args, body, content, logs, result, structured_content \(the erasure ers_\w+ is leaf \d+\)/).and.contain('every field not erased opens its leaf');
      expect(await page.content()).to.not.contain('Forget me');
      // An erasure proof that does not hold is refused, so an erasure cannot be claimed without the log.
      await page.route('**/api/dispatch?confirm=ers_*', async (route) => {
        const res = await route.fetch();
        const body = (await res.json()) as Record<string, any>;
        // The erasure's leaf made to name other fields: it no longer hashes into the signed tree.
        await route.fulfill({ response: res, json: { ...body, leaf_text: (body['leaf_text'] as string).replace('"args",', '') } });
      });
      await page.click('#verify-proof');
      await page.waitForFunction(() => !document.getElementById('proof-status')!.textContent!.startsWith('Checking'));
      await page.unroute('**/api/dispatch?confirm=ers_*');
      expect(await page.getAttribute('#proof-status', 'class')).to.contain('failed');
      expect(await page.textContent('#proof-status')).to.match(/erasure's inclusion proof does not lead to the signed root/);
    });

    it('shows the ledger of a key with the lineage of a repair', async () => {
      const failed = (await api('/api/dispatch', { method: 'POST', body: JSON.stringify({ key: GROUP, body: { groupId: 'grp_4f7c2a9d1e', name: 'x' } }) })).body;
      const repair = (await api('/api/dispatch', { method: 'POST', body: JSON.stringify({ key: GROUP, body: { group_id: 'grp_4f7c2a9d1e', name: 'Fixed' }, repairs: failed['invocation'].id }) })).body;
      await page.goto(`${svc.url}/dashboard/ledger`);
      await Promise.all([page.waitForURL(/key=/), page.click(`a:has-text("${GROUP}")`)]);
      // The failed run's own row (its id in the Invocation column); newest first, the repair's row comes above it.
      const row = page.locator('tr', { has: page.locator(`td:nth-child(2) a:has-text("${failed['invocation'].id}")`) });
      const ids = await page.locator('tbody tr td:nth-child(2)').allTextContents();
      expect(ids.indexOf(repair['invocation'].id)).to.be.below(ids.indexOf(failed['invocation'].id));
      expect(await row.textContent()).to.contain(repair['invocation'].id).and.contain('failed');
      await shot('05-ledger');
      await Promise.all([page.waitForURL(/invocations/), page.click(`a:has-text("${repair['invocation'].id}") >> nth=0`)]);
      expect(await page.locator('ol.lineage li').allTextContents()).to.deep.equal([`${failed['invocation'].id} failed`, `${repair['invocation'].id} ok`]);
    });

    it('shows a delivery sent with curl arriving live, whole, and switches the webhook off', async () => {
      const hook = (await api('/api/objects/webhook', { method: 'POST', body: JSON.stringify({ name: 'Orders <b>live</b>' }) })).body;
      await page.goto(`${svc.url}/dashboard/webhooks`);
      expect(await page.locator('td a', { hasText: 'Orders <b>live</b>' }).count()).to.equal(1); // shown as text, not markup
      await Promise.all([page.waitForURL(new RegExp(`/webhooks/${hook['id']}$`)), page.click('td a:has-text("Orders")')]);
      await page.waitForFunction(() => document.getElementById('live-status')!.textContent!.startsWith('Live'));
      expect(await page.locator('#deliveries tr').count()).to.equal(0);

      await run('curl', ['-s', '-X', 'POST', `${svc.url}/hook/${hook['id']}`, '-H', 'content-type: application/json', '-H', 'X-GitHub-Delivery: gh-42', '-H', 'X-Custom: Kept-As-Sent', '--data-binary', '{"action":"opened","n":1}']);
      await page.waitForSelector('#deliveries tr.fresh', { timeout: 5000 });
      expect(await page.locator('#deliveries tr').first().textContent()).to.contain('gh-42').and.contain('accepted');
      await shot('06-delivery-live');
      await Promise.all([page.waitForURL(/deliveries\/dlv_/), page.locator('#deliveries tr a').first().click()]);
      expect(await page.textContent('#delivery-body')).to.equal('{"action":"opened","n":1}');
      expect(await page.locator('th', { hasText: 'X-Custom' }).count()).to.equal(1);
      expect(await page.locator('td', { hasText: 'Kept-As-Sent' }).count()).to.equal(1);
      await shot('07-delivery');

      // One vocabulary: a retry is a duplicate, an action refused for its arguments a refusal with its reason.
      await fetch(`${svc.url}/hook/${hook['id']}`, { method: 'POST', headers: { 'content-type': 'application/json', 'X-GitHub-Delivery': 'gh-42' }, body: '{"action":"opened","n":1}' });
      const refusedAction = await fetch(`${svc.url}/hook/${hook['id']}/MESSAGING_BATCH_LOOKUP_PHONE_NUMBERS`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"numbers":"none"}' });
      expect(refusedAction.status).to.equal(422);
      await page.goto(`${svc.url}/dashboard/webhooks/${hook['id']}`);
      const outcomes = await page.locator('#deliveries tr td[data-label="Outcome"]').allTextContents();
      expect(outcomes).to.deep.equal(['refused: invalid_arguments', 'duplicate', 'accepted']);

      await page.goto(`${svc.url}/dashboard/webhooks`);
      await Promise.all([page.waitForURL(/\/dashboard\/webhooks$/), page.click('button:has-text("Turn off")')]);
      expect(await page.locator('td.off').count()).to.equal(1);
      const refused = await fetch(`${svc.url}/hook/${hook['id']}`, { method: 'POST', body: 'x' });
      expect(refused.status).to.equal(403);
      expect(((await refused.json()) as { error: { code: string } }).error.code).to.equal('webhook_off');
    });

    it('shows each delivery’s event type and filters a webhook’s deliveries by one, live rows included', async () => {
      const hook = (await api('/api/objects/webhook', { method: 'POST', body: JSON.stringify({ name: 'Shop events' }) })).body;
      const deliver = (topic: string, n: number) =>
        fetch(`${svc.url}/hook/${hook['id']}`, { method: 'POST', headers: { 'content-type': 'application/json', 'X-Shopify-Topic': topic }, body: JSON.stringify({ n }) });
      for (const [topic, n] of [['orders/create', 1], ['orders/paid', 2], ['orders/create', 3], ['<b>odd</b>', 4]] as const) expect((await deliver(topic, n)).status).to.equal(200);

      await page.goto(`${svc.url}/dashboard/webhooks/${hook['id']}`);
      expect(await page.locator('#deliveries td[data-label="Event type"]').allTextContents()).to.deep.equal(['<b>odd</b>', 'orders/create', 'orders/paid', 'orders/create']);
      expect(await page.locator('#event-type option').allTextContents()).to.deep.equal(['All', 'orders/create (2)', '<b>odd</b> (1)', 'orders/paid (1)']);
      await page.selectOption('#event-type', 'orders/paid');
      await Promise.all([page.waitForURL(/event_type=orders%2Fpaid/), page.click('#event-type-filter button')]);
      expect(await page.locator('h2', { hasText: 'Deliveries of type' }).textContent()).to.contain('orders/paid');
      expect(await page.locator('#deliveries td[data-label="Event type"]').allTextContents()).to.deep.equal(['orders/paid']);
      expect(await page.locator('#event-type').inputValue()).to.equal('orders/paid');

      // Live: only new deliveries of the chosen type join the table.
      await page.waitForFunction(() => document.getElementById('live-status')!.textContent!.startsWith('Live'));
      await deliver('orders/create', 5);
      await deliver('orders/paid', 6);
      await page.waitForSelector('#deliveries tr.fresh', { timeout: 5000 });
      await new Promise((r) => setTimeout(r, 600)); // two more polls: nothing else may arrive
      expect(await page.locator('#deliveries td[data-label="Event type"]').allTextContents()).to.deep.equal(['orders/paid', 'orders/paid']);
      await shot('08-event-type-filter');

      await Promise.all([page.waitForURL(/deliveries\/dlv_/), page.locator('#deliveries tr a').first().click()]);
      expect(await page.textContent('#delivery-event-type')).to.contain('orders/paid').and.contain('(header:x-shopify-topic)');
      await page.goto(`${svc.url}/dashboard/webhooks/${hook['id']}?event_type=`);
      expect(await page.locator('#deliveries tr').count(), 'an empty choice is all').to.equal(6);
      const tooLong = await page.goto(`${svc.url}/dashboard/webhooks/${hook['id']}?event_type=${'x'.repeat(201)}`);
      expect(tooLong!.status()).to.equal(400);
    });

    it('verifies a delivery on its page, then names its body and its headers when their rows are edited behind the service', async () => {
      const hook = (await api('/api/objects/webhook', { method: 'POST', body: JSON.stringify({ name: 'Proven deliveries' }) })).body;
      const sent = await fetch(`${svc.url}/hook/${hook['id']}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-trace': 'one' }, body: '{"order":42,"paid":true}' });
      const id = ((await sent.json()) as { entry: string }).entry;
      const db = knexFactory(knexConfig(svc.db.url));
      try {
        const verifyPage = async () => {
          await page.goto(`${svc.url}/dashboard/deliveries/${id}`);
          if ((await page.locator('#api_key').count()) > 0) {
            await signIn();
            await page.goto(`${svc.url}/dashboard/deliveries/${id}`);
          }
          for (let i = 0; i < 20; i++) {
            await page.click('#verify-proof');
            await page.waitForFunction(() => !document.getElementById('proof-status')!.textContent!.startsWith('Checking'));
            if (!(await page.textContent('#proof-status'))!.startsWith('Recorded')) break;
            await page.waitForTimeout(100);
          }
          return { cls: (await page.getAttribute('#proof-status', 'class'))!, text: (await page.textContent('#proof-status'))! };
        };
        const untouched = await verifyPage();
        expect(untouched.cls, untouched.text).to.contain('verified');
        expect(untouched.text).to.match(new RegExp(`^Verified: ${id} is leaf \\d+ of `));
        expect(await page.locator('#proof-steps li', { hasText: 'the stored body hashes to' }).count()).to.equal(1);
        await shot('07b-delivery-proof-verified');

        for (const sql of dialectFor(db).dropAppendOnly('deliveries')) await db.raw(sql);
        const row = (await db('deliveries').where({ id }).first()) as Record<string, any>;
        const original = Buffer.from(row['body'] as Uint8Array);
        const flipped = Buffer.from(original);
        flipped[10] = flipped[10]! ^ 1;
        // One byte of the body, with and without its recorded SHA-256 edited to match.
        for (const edit of [{ body: flipped }, { body: flipped, body_sha256: createHash('sha256').update(flipped).digest('hex') }]) {
          await db('deliveries').where({ id }).update(edit);
          const edited = await verifyPage();
          expect(edited.cls).to.contain('failed');
          expect(edited.text).to.equal('Not verified: the record shown differs from its leaf in body');
          await db('deliveries').where({ id }).update({ body: original, body_sha256: row['body_sha256'] });
        }
        await db('deliveries').where({ id }).update({ headers: String(row['headers']).replace('"one"', '"two"') });
        const edited = await verifyPage();
        expect(edited.cls).to.contain('failed');
        expect(edited.text).to.equal('Not verified: the record shown differs from its leaf in headers');
        expect(await page.locator('td', { hasText: /^two$/ }).count()).to.equal(1); // the page shows the edited header it refuses
        await shot('07c-delivery-proof-edited');
        await db('deliveries').where({ id }).update({ headers: row['headers'] });
        expect((await verifyPage()).cls).to.contain('verified');
      } finally {
        await db.destroy();
      }
    });

    it('serves data pages without script, with security headers and escaping', async () => {
      const noScript = await browser.newContext({ javaScriptEnabled: false });
      try {
        const p = await noScript.newPage();
        const res = await p.goto(`${svc.url}/dashboard?q=${encodeURIComponent('<script>alert(1)</script> phone numbers')}`);
        expect(res!.headers()['content-security-policy']).to.contain("script-src 'self'").and.contain("frame-ancestors 'none'");
        expect(res!.headers()['x-content-type-options']).to.equal('nosniff');
        expect(await p.locator('section.results li a').first().textContent()).to.equal('MESSAGING_BATCH_LOOKUP_PHONE_NUMBERS');
        expect(await p.locator('main script').count()).to.equal(0);
        expect(await p.textContent('section.results h2')).to.contain('<script>alert(1)</script>');
        await p.goto(`${svc.url}/dashboard/login`);
        await p.fill('#api_key', 'sy_wrong_key');
        await p.click('button[type=submit]:has-text("Sign in")');
        expect(await p.textContent('[role=alert]')).to.contain('not a valid API key');
        await p.fill('#api_key', TEST_API_KEY);
        await Promise.all([p.waitForURL(/\/dashboard$/), p.click('button[type=submit]:has-text("Sign in")')]);
        await p.goto(`${svc.url}/dashboard/webhooks`);
        expect(await p.locator('td a', { hasText: 'Orders' }).count()).to.equal(1);
      } finally {
        await noScript.close();
      }
    });

    it('refuses a state change without the session\'s CSRF token, and owner pages without a session', async () => {
      const hooks = (await api('/api/objects/webhook')).body['items'] as Array<{ id: string; on: boolean }>;
      const cookie = (await context.cookies()).find((c) => c.name === 'sy_dashboard')!;
      const forged = await fetch(`${svc.url}/dashboard/webhooks/${hooks[0]!.id}/switch`, {
        method: 'POST',
        headers: { cookie: `sy_dashboard=${cookie.value}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'on=true',
        redirect: 'manual',
      });
      expect(forged.status).to.equal(403);
      expect((await api('/api/objects/webhook')).body['items'].find((h: { id: string }) => h.id === hooks[0]!.id).on).to.equal(hooks[0]!.on);
      const anonymous = await fetch(`${svc.url}/dashboard/ledger`, { redirect: 'manual' });
      expect(anonymous.status).to.equal(303);
      expect(anonymous.headers.get('location')).to.equal('/dashboard/login?next=%2Fdashboard%2Fledger');
      // The session cookie is a dashboard credential only: the API does not take it.
      const viaApi = await fetch(`${svc.url}/api/objects/webhook`, { headers: { cookie: `sy_dashboard=${cookie.value}` } });
      expect(viaApi.status).to.equal(401);
      expect(cookie).to.include({ httpOnly: true, sameSite: 'Strict', path: '/dashboard' });
    });
  });
}
