// Retention (`retention.privateDays`) in the real service, on each engine: a run or a delivery older than
// that has its payload erased by the background sweep, one erasure entry each with the retention reason,
// while a newer run keeps its own; the erased run still verifies (as erased) with the real CLI.
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { retentionReason } from '@switchyard/core';
import { PROJECT_ROOT } from '@switchyard/app';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';

const BIN = join(PROJECT_ROOT, 'adapters', 'cli', 'bin', 'switchyard.js');
const run = promisify(execFile);
const EDGE = 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER';
const WORKER = '0123456789abcdef0123456789abcdef';
// About 5 seconds: long enough that a run made just now is not due, short enough for a test.
const PRIVATE_DAYS = 0.00006;

for (const engine of engines()) {
  describe(`retention.privateDays (${engine})`, function () {
    this.timeout(60_000);
    let svc: ListeningService;

    const call = async (path: string, init: RequestInit = {}) => (await fetch(`${svc.url}${path}`, { ...init, headers: { 'content-type': 'application/json', 'x-sheets-key': TEST_API_KEY } })).json() as Promise<Record<string, any>>;
    const dispatch = async () => (await call('/api/dispatch', { method: 'POST', body: JSON.stringify({ key: EDGE, body: { workerId: WORKER } }) }))['invocation'].id as string;

    before(async () => {
      svc = await startListeningService(engine, { ledger: { integrateIntervalMs: 50 }, retention: { privateDays: PRIVATE_DAYS, intervalMs: 200 } });
    });
    after(async () => svc?.close());

    it('erases the payload of runs older than privateDays, and only theirs; the erased run verifies as erased', async () => {
      const hook = await call('/api/objects/webhook', { method: 'POST', body: JSON.stringify({ name: 'retained' }) });
      const sent = await fetch(`${svc.url}/hook/${hook['id']}?who=someone`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":"someone@example.org"}' });
      const delivery = ((await sent.json()) as { entry: string }).entry;
      const old = await dispatch();
      let receipt: Record<string, any> = {};
      for (let i = 0; i < 200 && !receipt['erased']; i++) {
        await new Promise((r) => setTimeout(r, 100));
        receipt = await call(`/api/dispatch?receipt=${old}`);
      }
      expect(receipt['erased'], 'erased by retention within 20 s').to.not.equal(undefined);
      const fresh = await dispatch();
      expect(receipt['erased'].reason_sha256).to.equal(`sha256:${createHash('sha256').update(retentionReason(PRIVATE_DAYS)).digest('hex')}`);
      expect((await call(`/api/invocations/${old}`))['invocation'].args).to.equal(null);
      // The delivery, older still, went the same way: body, headers and query gone.
      const d = await call(`/api/dispatch?receipt=${delivery}`);
      expect(d['erased']?.fields).to.deep.equal(['body_sha256', 'headers', 'query']);
      expect(d['delivery']).to.include({ body_sha256: null, query: '' });
      // Made after the sweep erased the old one: not yet due, its payload whole.
      expect((await call(`/api/invocations/${fresh}`))['invocation'].args).to.deep.equal({ workerId: WORKER });

      const verifierKey = (await call('/api/proven-work/key'))['verifier_key'] as string;
      for (let i = 0; i < 100 && receipt['erased'].proof.status !== 'integrated'; i++) {
        await new Promise((r) => setTimeout(r, 100));
        receipt = await call(`/api/dispatch?receipt=${old}`);
      }
      const { stdout } = await run(process.execPath, [BIN, 'verify', old], { env: { ...process.env, SWITCHYARD_URL: svc.url, SWITCHYARD_API_KEY: TEST_API_KEY, SWITCHYARD_VERIFIER_KEY: verifierKey } });
      expect(stdout).to.contain(`invocation ${old} is leaf`).and.contain('erased at');
    });
  });
}
