// `switchyard verify` as a user runs it: the real bin in a child process, against a real service
// (SQLite) for fetching, and offline against saved files. The verifier key is always pinned.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '@switchyard/app';
import { TEST_API_KEY, startListeningService, type ListeningService } from '../../../test/support/app.js';

const BIN = join(PROJECT_ROOT, 'adapters', 'cli', 'bin', 'switchyard.js');
const run = promisify(execFile);
const EDGE = 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER';

describe('adapter cli: switchyard verify', function () {
  this.timeout(60_000);
  let svc: ListeningService;
  let url: string;
  let key: string;
  let dir: string;

  const cli = async (args: string[], env: Record<string, string> = {}) => {
    try {
      const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { env: { ...process.env, SWITCHYARD_URL: url, SWITCHYARD_API_KEY: '', SWITCHYARD_VERIFIER_KEY: key, ...env } });
      return { code: 0, stdout, stderr };
    } catch (err) {
      const e = err as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };
  const api = async (path: string, init: RequestInit = {}) => (await fetch(`${url}${path}`, init)).json() as Promise<Record<string, any>>;
  const runEdge = async () =>
    (await api('/api/dispatch', { method: 'POST', headers: { 'content-type': 'application/json', 'x-sheets-key': TEST_API_KEY }, body: JSON.stringify({ key: EDGE, body: JSON.stringify({ workerId: '0123456789abcdef0123456789abcdef' }) }) })).invocation.id as string;
  const integrated = async (id: string) => {
    for (let i = 0; i < 100; i++) {
      const c = await api(`/api/dispatch?confirm=${id}`);
      if (c['status'] === 'integrated') return c;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('never integrated');
  };

  before(async function () {
    svc = await startListeningService('sqlite', { ledger: { integrateIntervalMs: 50 } });
    url = svc.url;
    key = (await api('/api/proven-work/key'))['verifier_key'];
    dir = mkdtempSync(join(tmpdir(), 'switchyard-verify-'));
  });
  after(async () => {
    await svc?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('verifies an invocation by id (fetching its public confirmation) with no API key', async function () {
    const id = await runEdge();
    await integrated(id);
    const out = await cli(['verify', id, '--json']);
    expect(out.code, out.stderr).to.equal(0);
    expect(JSON.parse(out.stdout)).to.include({ ok: true, id, kind: 'invocation', commitment_opened: false });
  });

  it('verifies a saved receipt offline, opening its commitment, and refuses a doctored one', async function () {
    const id = await runEdge();
    await integrated(id);
    const receipt = await api(`/api/dispatch?receipt=${id}`, { headers: { 'x-sheets-key': TEST_API_KEY } });
    const file = join(dir, 'receipt.json');
    writeFileSync(file, JSON.stringify(receipt));
    // Offline: a server URL that answers nothing.
    const ok = await cli(['verify', file], { SWITCHYARD_URL: 'http://127.0.0.1:9' });
    expect(ok.code, ok.stderr).to.equal(0);
    expect(ok.stdout).to.contain(`invocation ${id} is leaf`).and.contain('opens its commitment');

    const doctored = structuredClone(receipt);
    doctored['invocation'].result = { active_worker_id: 'someone else' };
    doctored['opening'].private.result = { active_worker_id: 'someone else' };
    writeFileSync(join(dir, 'doctored.json'), JSON.stringify(doctored));
    const bad = await cli(['verify', join(dir, 'doctored.json')], { SWITCHYARD_URL: 'http://127.0.0.1:9' });
    expect(bad.code).to.equal(1);
    expect(bad.stderr).to.match(/proof_invalid: receipt: the record as served differs from its leaf in result /);

    const proofFile = join(dir, 'entry.tlog-proof');
    writeFileSync(proofFile, receipt['proof'].tlog_proof);
    expect((await cli(['verify', proofFile], { SWITCHYARD_URL: 'http://127.0.0.1:9' })).code).to.equal(0);
  });

  it('refuses a proof under another key, and asks for a pinned key', async function () {
    const id = await runEdge();
    await integrated(id);
    const other = await cli(['verify', id], { SWITCHYARD_VERIFIER_KEY: 'example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k' });
    expect(other.code).to.equal(1);
    expect(other.stderr).to.contain('proof_invalid');
    const none = await cli(['verify', id], { SWITCHYARD_VERIFIER_KEY: '' });
    expect(none.code).to.equal(2);
    expect(none.stderr).to.contain('verifier_key_required');
  });

  it('checks that the log only grew between two saved checkpoints', async function () {
    await integrated(await runEdge());
    const older = join(dir, 'older.checkpoint');
    writeFileSync(older, (await api('/api/proven-work?limit=1'))['checkpoint'].note);
    await integrated(await runEdge());
    const newer = join(dir, 'newer.checkpoint');
    writeFileSync(newer, (await api('/api/proven-work?limit=1'))['checkpoint'].note);
    const out = await cli(['verify', '--consistency', older, newer]);
    expect(out.code, out.stderr).to.equal(0);
    expect(out.stdout).to.match(/extends its checkpoint at size \d+/);
    const swapped = await cli(['verify', '--consistency', newer, older]);
    expect(swapped.code).to.not.equal(0);
  });
});

describe('adapter cli: switchyard token narrow', function () {
  this.timeout(60_000);
  let svc: ListeningService;
  let url: string;
  before(async function () {
    svc = await startListeningService('sqlite');
    url = svc.url;
  });
  after(async () => svc?.close());
  const cli = async (args: string[]) => {
    try {
      const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { env: { ...process.env, SWITCHYARD_URL: 'http://127.0.0.1:9' } });
      return { code: 0, stdout, stderr };
    } catch (err) {
      const e = err as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };

  it('narrows offline; the server then allows only the narrower scope', async function () {
    const start = (await (await fetch(`${url}/start`)).json()) as { token: string };
    const out = await cli(['token', 'narrow', start.token, '--keys', 'WEB_FETCH', '--uses', '2', '--expires-in', '300']);
    expect(out.code, out.stderr).to.equal(0);
    const narrowed = out.stdout.trim();
    expect(narrowed).to.match(/^sy1\./).and.not.equal(start.token);
    const explained = (await (await fetch(`${url}/api/dispatch?explain=1&share=${encodeURIComponent(narrowed)}`)).json()) as { keys: string[]; uses: number; uses_left: number };
    expect(explained).to.deep.include({ keys: ['WEB_FETCH'], uses: 2 });
    const denied = await fetch(`${url}/api/dispatch?invoke=EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER&body=%7B%7D&share=${encodeURIComponent(narrowed)}`);
    expect(denied.status).to.equal(403);
  });

  it('refuses nonsense with a usage error or token_corrupted', async function () {
    expect((await cli(['token', 'narrow', 'sy1.bad.token', '--keys', 'A'])).code).to.equal(1);
    expect((await cli(['token', 'narrow', 'sy1.x.y'])).code).to.equal(2);
    expect((await cli(['token', 'narrow', 'sy1.x.y', '--uses', '0'])).code).to.equal(2);
    const reserved = await cli(['token', 'narrow', 'sy1.x.y', '--actor', 'owner']);
    expect(reserved.code).to.equal(2);
    expect(reserved.stderr).to.contain('reserved');
  });
});
