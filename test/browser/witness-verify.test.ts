// The dashboard's "Verify proof" with a witness policy, in Chromium: the owner pastes the keys of
// the witnesses they trust and how many must have cosigned; the browser checks the cosignatures on
// the checkpoint itself (Ed25519 cosignature/v1 through WebCrypto). Two honest witnesses and one
// that lies: 2 of 3 verifies, 3 of 3 turns red and names the liar.
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { NoteError, openWitnessedNote } from '@switchyard/verifier';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';
import { launchChromium, signInThroughForm } from '../support/browser.js';
import { startTestWitness, type TestWitness } from '../support/witness.js';

const EDGE = 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER';

for (const engine of engines()) {
  describe(`dashboard: verify a proof against a witness policy, in Chromium (${engine})`, function () {
    this.timeout(60_000);
    let svc: ListeningService;
    let browser: Browser;
    let page: Page;
    let witnesses: TestWitness[];
    let id: string;

    before(async function () {
      browser = await launchChromium(this);
      witnesses = await Promise.all([startTestWitness('witness.test/w1'), startTestWitness('witness.test/w2'), startTestWitness('witness.test/liar', { lie: true })]);
      svc = await startListeningService(engine, { ledger: { integrateIntervalMs: 50, witnesses: witnesses.map((w) => ({ name: w.name, vkey: w.vkey, url: w.url })) } });
      const vkey = (await (await fetch(`${svc.url}/api/proven-work/key?format=text`)).text()).trim();
      for (const w of witnesses) w.trust('switchyard.local/ledger', vkey);
      const res = await fetch(`${svc.url}/api/dispatch`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-sheets-key': TEST_API_KEY }, body: JSON.stringify({ key: EDGE, body: JSON.stringify({ workerId: '0123456789abcdef0123456789abcdef' }) }) });
      id = ((await res.json()) as { invocation: { id: string } }).invocation.id;
      // Until the run's confirmation carries both honest cosignatures.
      for (let i = 0; ; i++) {
        const c = (await (await fetch(`${svc.url}/api/dispatch?confirm=${id}`)).json()) as { status: string; checkpoint?: string };
        try {
          if (c.status === 'integrated' && openWitnessedNote(c.checkpoint!, vkey, { witnesses: [witnesses[0]!.vkey, witnesses[1]!.vkey], needed: 2 })) break;
        } catch (e) {
          if (!(e instanceof NoteError)) throw e;
        }
        if (i > 200) throw new Error('never cosigned');
        await new Promise((r) => setTimeout(r, 50));
      }
      page = await browser.newPage();
      await signInThroughForm(page, svc.url, `/dashboard/invocations/${id}`);
    });
    after(async () => {
      await browser?.close();
      await svc?.close();
      await Promise.all((witnesses ?? []).map((w) => w.close()));
    });

    const verifyWith = async (keys: string[], needed: string) => {
      await page.click('.witness-policy summary');
      await page.fill('#witness-keys', keys.join('\n'));
      await page.fill('#witnesses-needed', needed);
      await page.click('#verify-proof');
      await page.waitForFunction(() => !document.getElementById('proof-status')!.textContent!.startsWith('Checking'));
      return { status: (await page.textContent('#proof-status'))!, cls: (await page.getAttribute('#proof-status', 'class'))! };
    };

    it('verifies when 2 of the 3 trusted witnesses cosigned, and shows who', async () => {
      const { status, cls } = await verifyWith(witnesses.map((w) => w.vkey), '2');
      expect(cls, status).to.contain('verified');
      expect(status).to.match(new RegExp(`^Verified: ${id} is leaf \\d+ of switchyard.local/ledger at size \\d+, cosigned by 2 of 3 witnesses\\.$`));
      expect(await page.textContent('#proof-steps')).to.contain('cosigned by witness.test/w1, witness.test/w2 (2 of 3, 2 needed)');
    });

    it('turns red when the policy asks for all 3: the liar\'s cosignature is not there, and a bad key is refused', async () => {
      await page.reload();
      const all = await verifyWith(witnesses.map((w) => w.vkey), '3');
      expect(all.cls).to.contain('failed');
      expect(all.status).to.equal('Not verified: cosigned by 2 of the 3 trusted witnesses, 3 needed');
      await page.reload();
      const bad = await verifyWith([witnesses[0]!.vkey.replace(/\+[0-9a-f]{8}\+/, '+00000000+')], '1');
      expect(bad.cls).to.contain('failed');
      expect(bad.status).to.match(/witness key hash does not match/);
    });
  });
}
