// Erasure through the real service (docs/proofs.md#erasure), on each engine: the owner erases a
// delivery over HTTP and an invocation with `switchyard ledger erase` (the real bin); bad requests are coded and change nothing; the receipt says
// erased and when; the tlog proofs handed out before still verify, as does consistency between the
// checkpoints before and after; and `switchyard verify` (the real bin, a child process) reports the
// entries as erased, not as edited (the erasure's own leaf proven under the pinned key).
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { OWNER_MOVES, narrowToken, noteVerifier, openNote, parseCheckpoint, verifyConsistency, verifyTlogProof } from '@switchyard/core';
import { PROJECT_ROOT } from '@switchyard/app';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';

const OWNER_ONLY: string[] = Object.values(OWNER_MOVES);
const BIN = join(PROJECT_ROOT, 'adapters', 'cli', 'bin', 'switchyard.js');
const run = promisify(execFile);
const EDGE = 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER';
const WORKER = '0123456789abcdef0123456789abcdef';

for (const engine of engines()) {
  describe(`erasure over HTTP and verify (${engine})`, function () {
    this.timeout(60_000);
    let svc: ListeningService;
    let verifierKey: string;

    const cli = async (...args: string[]) => {
      try {
        const { stdout } = await run(process.execPath, [BIN, ...args], { env: { ...process.env, SWITCHYARD_URL: svc.url, SWITCHYARD_API_KEY: TEST_API_KEY, SWITCHYARD_VERIFIER_KEY: verifierKey } });
        return { code: 0, out: stdout };
      } catch (err) {
        const e = err as { code: number; stdout: string; stderr: string };
        return { code: e.code, out: e.stderr };
      }
    };
    const call = async (path: string, init: RequestInit & { key?: string | null } = {}) => {
      const headers: Record<string, string> = { ...((init.headers as Record<string, string>) ?? {}) };
      if (init.key !== null) headers['x-sheets-key'] = init.key ?? TEST_API_KEY;
      const res = await fetch(`${svc.url}${path}`, { ...init, headers });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };
    const erase = (id: string, body: unknown, key?: string | null) => call(`/api/ledger/${id}/erase`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), key });
    const confirmed = async (id: string) => {
      for (let i = 0; i < 200; i++) {
        const c = (await call(`/api/dispatch?confirm=${id}`, { key: null })).body;
        if (c['status'] === 'integrated') return c;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`${id} never integrated`);
    };

    before(async () => {
      svc = await startListeningService(engine, { ledger: { integrateIntervalMs: 50 } });
      verifierKey = (await call('/api/proven-work/key')).body['verifier_key'];
    });
    after(async () => svc?.close());

    it('erases a delivery and an invocation; every earlier proof still verifies; verify says erased', async () => {
      const hook = (await call('/api/objects/webhook', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'erasable' }) })).body;
      const sent = await fetch(`${svc.url}/hook/${hook['id']}?who=someone`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-email': 'someone@example.org' }, body: '{"email":"someone@example.org"}' });
      const delivery = ((await sent.json()) as { entry: string }).entry;
      const invocation = (await call('/api/dispatch', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key: EDGE, body: { workerId: WORKER } }) })).body['invocation'].id as string;
      const kept = (await call('/api/dispatch', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key: EDGE, body: { workerId: WORKER } }) })).body['invocation'].id as string;
      const before = await Promise.all([delivery, invocation, kept].map(confirmed));
      const note1 = (await call('/api/proven-work', { key: null })).body['checkpoint'].note as string;
      const checkpoint1 = parseCheckpoint(openNote(note1, [noteVerifier(verifierKey)]).text);

      const d = await erase(delivery, { reason: 'subject access request 17' });
      expect(d.status, JSON.stringify(d.body)).to.equal(201);
      expect(d.body['erasure']).to.include({ entry: delivery, entry_kind: 'delivery' });
      expect(d.body['erasure']['fields']).to.deep.equal(['body_sha256', 'headers', 'query']);
      expect(JSON.stringify(d.body)).to.not.contain('subject access');
      // The run through the CLI: `switchyard ledger erase` (the real bin, the owner's key).
      const noReason = await cli('ledger', 'erase', invocation);
      expect(noReason.code, noReason.out).to.equal(2);
      expect(noReason.out).to.contain('--reason is required');
      const byCli = await cli('ledger', 'erase', invocation, '--reason', 'subject access request 17');
      expect(byCli.code, byCli.out).to.equal(0);
      expect(byCli.out).to.match(new RegExp(`^erased invocation ${invocation} at \\S+: args, body, content, logs, result, structured_content; the erasure is ers_`));
      const again = await cli('ledger', 'erase', invocation, '--reason', 'again');
      expect(again.code, again.out).to.equal(1);
      expect(again.out).to.contain('already_erased');

      // The payload is gone from what the service serves.
      const served = (await call(`/api/ledger/${delivery}`)).body['entry'];
      expect(JSON.stringify(served)).to.not.contain('someone');
      expect((await call(`/api/invocations/${invocation}`)).body['invocation'].args).to.equal(null);
      const receipt = (await call(`/api/dispatch?receipt=${delivery}`)).body;
      expect(receipt['erased']).to.include({ at: d.body['erasure'].erased_at, erasure: d.body['erasure'].id });

      // The proofs handed out before still verify; the trees before and after are consistent.
      await confirmed(d.body['erasure'].id);
      for (const c of before) expect(verifyTlogProof(c['tlog_proof'], verifierKey).index).to.equal(c['index']);
      const now = (await call(`/api/proven-work?from_size=${checkpoint1.size}`, { key: null })).body;
      const checkpoint2 = parseCheckpoint(openNote(now['consistency'].to_checkpoint, [noteVerifier(verifierKey)]).text);
      expect(checkpoint2.size).to.be.greaterThan(checkpoint1.size);
      expect(now['consistency'].from_checkpoint).to.equal(note1);
      verifyConsistency(checkpoint1.size, checkpoint2.size, (now['consistency'].proof as string[]).map((h) => Buffer.from(h, 'base64')), checkpoint1.root, checkpoint2.root);
      for (const c of before) expect((await confirmed(c['id'])).leaf_hash).to.equal(c['leaf_hash']);

      // verify: erased (with the erasure's own proof), not edited; the kept run opens whole.
      const vd = await cli('verify', delivery);
      expect(vd.code, vd.out).to.equal(0);
      expect(vd.out).to.contain(`erased at ${d.body['erasure'].erased_at}`).and.contain('body, headers, query').and.contain('the receipt opens every other field');
      const vi = await cli('verify', invocation);
      expect(vi.code, vi.out).to.equal(0);
      expect(vi.out).to.contain('erased at').and.contain('args, body, content, logs, result, structured_content');
      const vk = await cli('verify', kept);
      expect(vk.code, vk.out).to.equal(0);
      expect(vk.out).to.contain('the receipt opens its commitment').and.not.contain('erased');
    });

    it('refuses every share token, one that names ledger:erase too (as Bearer or share=); nothing changes', async () => {
      const invocation = (await call('/api/dispatch', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key: EDGE, body: { workerId: WORKER } }) })).body['invocation'].id as string;
      await confirmed(invocation);
      // The owner cannot even mint a token with the owner's move.
      const mint = await call('/api/tokens', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ moves: ['ledger:erase'] }) });
      expect(mint.status, JSON.stringify(mint.body)).to.equal(400);
      expect(mint.body['error'].code).to.equal('invalid_request');
      const started = (await call('/start', { key: null })).body['token'] as string;
      const broadest = (await call('/api/tokens', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ moves: ['invoke:*', 'receipt:read', 'ledger:read', 'explain', 'contract:read', 'confirm:read'] }) })).body['token'] as string;
      // A caveat narrows; naming ledger:erase in one cannot add it.
      const claiming = narrowToken(started, { moves: ['ledger:erase'] });
      // Refused at /api/ledger's door (an owner's move no token carries), or as unusable.
      const tokens: Array<[string, string, number, string]> = [
        ['/start', started, 403, 'scope_denied'],
        ['minted with every move a token may carry', broadest, 403, 'scope_denied'],
        ['narrowed to ledger:erase', claiming, 401, 'token_corrupted'],
      ];
      for (const [what, token, status, code] of tokens) {
        for (const [how, send] of [
          ['Bearer', () => call(`/api/ledger/${invocation}/erase`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ reason: 'by a token' }), key: null })],
          ['share=', () => call(`/api/ledger/${invocation}/erase?share=${encodeURIComponent(token)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ reason: 'by a token' }), key: null })],
        ] as const) {
          const r = await send();
          expect(r.status, `${what} as ${how}: ${JSON.stringify(r.body)}`).to.equal(status);
          expect(r.body['error'].code, `${what} as ${how}`).to.equal(code);
          if (code === 'scope_denied') expect(OWNER_ONLY, r.body['error'].needed).to.include(r.body['error'].needed);
        }
      }
      expect((await call(`/api/invocations/${invocation}`)).body['invocation'].args).to.deep.equal({ workerId: WORKER });
      expect((await call(`/api/dispatch?receipt=${invocation}`)).body['erased']).to.equal(undefined);
      // (The tree may still grow: a token's use is itself recorded, as token_use entries.)
    });

    it('refuses, coded, a second erasure, a public or unknown entry, a bad reason and a caller without the key; nothing changes', async () => {
      const invocation = (await call('/api/dispatch', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key: EDGE, body: { workerId: WORKER } }) })).body['invocation'].id as string;
      await confirmed(invocation);
      const size = async () => Number((await call('/api/proven-work', { key: null })).body['checkpoint'].size);
      const cases: Array<[string, unknown, string | null | undefined, number, string]> = [
        [invocation, {}, undefined, 400, 'invalid_request'],
        [invocation, { reason: '' }, undefined, 400, 'invalid_request'],
        [invocation, { reason: 'x'.repeat(501) }, undefined, 400, 'invalid_request'],
        [invocation, { reason: 'ok', also: 1 }, undefined, 400, 'invalid_request'],
        [invocation, { reason: 'ok' }, null, 401, 'credential_required'],
        [invocation, { reason: 'ok' }, 'not-the-key', 401, 'invalid_api_key'],
        ['inv_doesnotexist000000', { reason: 'ok' }, undefined, 404, 'not_found'],
        ['tdp_0123456789abcdef01234567', { reason: 'ok' }, undefined, 422, 'not_erasable'],
        ['nonsense', { reason: 'ok' }, undefined, 422, 'not_erasable'],
      ];
      const sizeBefore = await size();
      for (const [id, body, key, status, code] of cases) {
        const r = await erase(id, body, key);
        expect(r.status, `${id} ${JSON.stringify(body)}: ${JSON.stringify(r.body)}`).to.equal(status);
        expect(r.body['error']?.code ?? r.body['code'], JSON.stringify(r.body)).to.equal(code);
      }
      expect((await call(`/api/invocations/${invocation}`)).body['invocation'].args).to.deep.equal({ workerId: WORKER });
      expect((await call(`/api/dispatch?receipt=${invocation}`)).body['erased']).to.equal(undefined);
      expect(await size()).to.equal(sizeBefore);

      expect((await erase(invocation, { reason: 'ok' })).status).to.equal(201);
      const twice = await erase(invocation, { reason: 'ok' });
      expect(twice.status).to.equal(409);
      expect(twice.body['error'].code).to.equal('already_erased');
    });
  });
}
