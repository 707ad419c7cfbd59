// Retention (`retention.privateDays`) in the real service, on each engine: a run or a delivery older than
// that has its payload erased by the background sweep, one erasure entry each with the retention reason,
// while a newer run keeps its own; the erased run still verifies (as erased) with the real CLI.
// A webhook's own retention_private_days overrides it for its deliveries: with the global setting
// unset, a webhook of a few seconds loses its old delivery while another's equally old one stays.
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { retentionReason, webhookRetentionReason } from '@switchyard/core';
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
      // A webhook keeping its deliveries a year: its own setting overrides the global few seconds.
      const keeper = await call('/api/objects/webhook', { method: 'POST', body: JSON.stringify({ name: 'kept a year', retention_private_days: 365 }) });
      const keptEntry = ((await (await fetch(`${svc.url}/hook/${keeper['id']}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":"kept@example.org"}' })).json()) as { entry: string }).entry;
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
      // As old as those, but its webhook keeps a year: whole.
      const kept = await call(`/api/dispatch?receipt=${keptEntry}`);
      expect(kept['erased'], 'kept by its webhook’s own days').to.equal(undefined);
      expect(kept['delivery'].body_sha256).to.equal(createHash('sha256').update('{"email":"kept@example.org"}').digest('hex'));
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

for (const engine of engines()) {
  describe(`a webhook's retention_private_days (${engine})`, function () {
    this.timeout(60_000);
    let svc: ListeningService;

    const call = async (path: string, init: RequestInit = {}) => {
      const res = await fetch(`${svc.url}${path}`, { ...init, headers: { 'content-type': 'application/json', 'x-sheets-key': TEST_API_KEY } });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };
    const deliver = async (hook: string) =>
      ((await (await fetch(`${svc.url}/hook/${hook}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":"someone@example.org"}' })).json()) as { entry: string }).entry;

    before(async () => {
      // No retention.privateDays: only the webhook's own setting erases anything.
      svc = await startListeningService(engine, { ledger: { integrateIntervalMs: 50 }, retention: { intervalMs: 200 } });
    });
    after(async () => svc?.close());

    it('is validated, shown in the webhook, and refused input changes nothing', async () => {
      const hook = (await call('/api/objects/webhook', { method: 'POST', body: JSON.stringify({ name: 'kept', retention_private_days: 30 }) })).body;
      expect(hook['retention_private_days']).to.equal(30);
      for (const bad of [0, -1, 'seven', 36_501, true]) {
        const r = await call(`/api/objects/webhook/${hook['id']}`, { method: 'PATCH', body: JSON.stringify({ retention_private_days: bad }) });
        expect(r.status, JSON.stringify(bad)).to.equal(400);
        expect(r.body['error']).to.include({ code: 'invalid_request' });
        expect(r.body['error'].message).to.contain('retention_private_days');
      }
      const refusedCreate = await call('/api/objects/webhook', { method: 'POST', body: JSON.stringify({ name: 'never', retention_private_days: 0 }) });
      expect(refusedCreate.status).to.equal(400);
      const all = (await call('/api/objects/webhook')).body['items'] as Array<Record<string, any>>;
      expect(all.map((w) => w['name'])).to.not.include('never');
      expect((await call(`/api/objects/webhook/${hook['id']}`)).body['retention_private_days'], 'unchanged by the refusals').to.equal(30);
      const cleared = await call(`/api/objects/webhook/${hook['id']}`, { method: 'PATCH', body: JSON.stringify({ retention_private_days: null }) });
      expect(cleared.body['retention_private_days']).to.equal(null);

      // The CLI's `hook create --retention-days` (the real bin): set, or refused with the server's message.
      const env = { ...process.env, SWITCHYARD_URL: svc.url, SWITCHYARD_API_KEY: TEST_API_KEY };
      const { stdout } = await run(process.execPath, [BIN, 'hook', 'create', 'by-cli', '--retention-days', '2.5', '--json'], { env });
      expect((JSON.parse(stdout) as Record<string, any>)['retention_private_days']).to.equal(2.5);
      const refused = await run(process.execPath, [BIN, 'hook', 'create', 'by-cli-bad', '--retention-days', 'soon'], { env }).then(() => null, (e: { code: number; stderr: string }) => e);
      expect(refused, 'exits non-zero').to.not.equal(null);
      expect(refused!.stderr).to.contain('invalid_request').and.contain('retention_private_days');
      const names = ((await call('/api/objects/webhook')).body['items'] as Array<Record<string, any>>).map((w) => w['name']);
      expect(names).to.include('by-cli').and.not.include('by-cli-bad');
    });

    it("erases its old deliveries by its own days while another webhook's equally old one stays", async () => {
      const short = (await call('/api/objects/webhook', { method: 'POST', body: JSON.stringify({ name: 'short-lived', retention_private_days: PRIVATE_DAYS }) })).body['id'] as string;
      const other = (await call('/api/objects/webhook', { method: 'POST', body: JSON.stringify({ name: 'global' }) })).body['id'] as string;
      const longer = (await call('/api/objects/webhook', { method: 'POST', body: JSON.stringify({ name: 'long-lived', retention_private_days: 365 }) })).body['id'] as string;
      const [gone, stays, staysLonger] = [await deliver(short), await deliver(other), await deliver(longer)];
      let receipt: Record<string, any> = {};
      for (let i = 0; i < 200 && !receipt['erased']; i++) {
        await new Promise((r) => setTimeout(r, 100));
        receipt = (await call(`/api/dispatch?receipt=${gone}`)).body;
      }
      expect(receipt['erased'], 'erased by its webhook’s retention within 20 s').to.not.equal(undefined);
      expect(receipt['erased'].fields).to.deep.equal(['body_sha256', 'headers', 'query']);
      expect(receipt['erased'].reason_sha256).to.equal(`sha256:${createHash('sha256').update(webhookRetentionReason(PRIVATE_DAYS)).digest('hex')}`);
      expect(receipt['delivery']).to.include({ body_sha256: null, query: '' });
      // Another sweep or two, then the others, as old as the erased one, are whole.
      await new Promise((r) => setTimeout(r, 600));
      for (const kept of [stays, staysLonger]) {
        const k = (await call(`/api/dispatch?receipt=${kept}`)).body;
        expect(k['erased'], kept).to.equal(undefined);
        expect(k['delivery'].body_sha256, 'its body kept').to.equal(createHash('sha256').update('{"email":"someone@example.org"}').digest('hex'));
      }

      const verifierKey = (await call('/api/proven-work/key')).body['verifier_key'] as string;
      for (let i = 0; i < 100 && receipt['erased'].proof.status !== 'integrated'; i++) {
        await new Promise((r) => setTimeout(r, 100));
        receipt = (await call(`/api/dispatch?receipt=${gone}`)).body;
      }
      const { stdout } = await run(process.execPath, [BIN, 'verify', gone], { env: { ...process.env, SWITCHYARD_URL: svc.url, SWITCHYARD_API_KEY: TEST_API_KEY, SWITCHYARD_VERIFIER_KEY: verifierKey } });
      expect(stdout).to.contain(`delivery ${gone} is leaf`).and.contain('erased at');
    });
  });
}
