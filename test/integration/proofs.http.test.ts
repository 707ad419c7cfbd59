// Proofs through HTTP against the real service, on each engine: a run is confirmed publicly (no
// args or results), its tlog proof verifies offline against the published key, the owner's
// receipt opens the commitment, and /api/proven-work lets an auditor check the log's history.
import { expect } from 'chai';
import request from 'supertest';
import { createHash } from 'node:crypto';
import { opensCommitment, parseCheckpoint, noteVerifier, openNote, unopenedFields, verifyConsistency, verifyTlogProof } from '@switchyard/core';
import { TEST_API_KEY, engines, startTestService, type TestService } from '../support/app.js';

const EDGE = 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER';
const WORKER = '0123456789abcdef0123456789abcdef';

for (const engine of engines()) {
  describe(`HTTP proofs (${engine})`, function () {
    this.timeout(20_000);
    let svc: TestService;
    let http: ReturnType<typeof request>;
    const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);
    const run = async () => (await owner(http.post('/api/dispatch')).send({ key: EDGE, body: JSON.stringify({ workerId: WORKER }) }).expect(200)).body.invocation.id as string;
    /** Polls confirm until the integrator has put the entry in the tree. */
    const confirmed = async (id: string) => {
      for (let i = 0; i < 100; i++) {
        const res = await http.get(`/api/dispatch?confirm=${id}`).expect(200);
        if (res.body.status === 'integrated') return res.body;
        expect(res.body.status).to.equal('pending');
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`${id} was never integrated`);
    };

    before(async () => {
      svc = await startTestService(engine, { ledger: { integrateIntervalMs: 50 } });
      http = request(svc.switchyard.app);
    });
    after(async () => svc?.close());

    it('publishes the verifier key, as JSON and as text', async () => {
      const json = (await http.get('/api/proven-work/key').expect(200)).body;
      expect(json).to.include({ ok: true, origin: 'switchyard.local/ledger', algorithm: 'ed25519' });
      expect(json.verifier_key).to.match(/^switchyard\.local\/ledger\+[0-9a-f]{8}\+/);
      expect((await http.get('/api/proven-work/key?format=text').expect(200)).text).to.equal(`${json.verifier_key}\n`);
    });

    it('confirms a run to anyone, without its arguments or result, with a proof that verifies offline', async () => {
      const id = await run();
      const c = await confirmed(id);
      expect(c).to.include({ ok: true, id, kind: 'invocation', status: 'integrated' });
      expect(c.leaf).to.include({ kind: 'invocation', id, key: EDGE, status: 'ok' });
      expect(JSON.stringify(c)).to.not.contain(WORKER);
      const key = (await http.get('/api/proven-work/key').expect(200)).body.verifier_key;
      const verified = verifyTlogProof(c.tlog_proof, key, 'switchyard.local/ledger');
      expect(verified.index).to.equal(c.index);
      expect(JSON.parse(verified.leafText)).to.deep.equal(c.leaf);
      // A leaf changed by one field no longer verifies; nor does a proof checked with another log's key.
      const forgedLeaf = Buffer.from(c.leaf_text.replace('"status":"ok"', '"status":"failed"')).toString('base64');
      const forged = (c.tlog_proof as string).replace(/^extra .*$/m, `extra ${forgedLeaf}`);
      expect(forged).to.not.equal(c.tlog_proof);
      expect(() => verifyTlogProof(forged, key)).to.throw(/inclusion proof/);
      expect(() => verifyTlogProof(c.tlog_proof, 'other.log+00000000+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k')).to.throw();
    });

    it('hands the owner a receipt that opens the commitment; others get 401', async () => {
      const id = await run();
      await confirmed(id);
      await http.get(`/api/dispatch?receipt=${id}`).expect(401);
      const r = (await owner(http.get(`/api/dispatch?receipt=${id}`)).expect(200)).body;
      expect(r.invocation).to.include({ id, key: EDGE });
      expect(r.opening.private.args).to.deep.equal({ workerId: WORKER });
      expect(opensCommitment(r.proof.leaf_text, r.opening.salt, r.opening.private)).to.equal(true);
      expect(opensCommitment(r.proof.leaf_text, r.opening.salt, { ...r.opening.private, args: { workerId: 'forged' } })).to.equal(false);
    });

    it('answers 404 for unknown or malformed ids and 400 for bad sizes, changing nothing', async () => {
      const before = (await http.get('/api/proven-work').expect(200)).body.checkpoint?.size ?? 0;
      expect((await http.get('/api/dispatch?confirm=inv_doesnotexist000000').expect(404)).body.error.code).to.equal('not_found');
      expect((await http.get('/api/dispatch?confirm=nonsense').expect(404)).body.error.code).to.equal('not_found');
      expect((await owner(http.get('/api/dispatch?receipt=inv_doesnotexist000000')).expect(404)).body.error.code).to.equal('invocation_not_found');
      await http.get('/api/proven-work?from_size=0').expect(400);
      await http.get('/api/proven-work?from_size=abc').expect(400);
      await http.get(`/api/proven-work?from_size=1&to_size=${before + 1000}`).expect(400);
      await http.get('/api/proven-work?limit=0').expect(400);
      expect((await http.get('/api/proven-work').expect(200)).body.checkpoint?.size ?? 0).to.equal(before);
    });

    it('hands the owner a delivery\'s receipt: its record, the opening of each field\'s commitment, the stored body at body_url; a token gets 403, nobody 401', async () => {
      const hook = (await owner(http.post('/api/objects/webhook')).send({ name: 'receipts' }).expect(201)).body.id as string;
      const body = '{"order":7,"paid":true}';
      const id = (await http.post(`/hook/${hook}`).set('content-type', 'application/json').set('x-trace', 'abc').send(body).expect(200)).body.entry as string;
      await confirmed(id);
      const r = (await owner(http.get(`/api/dispatch?receipt=${id}`)).expect(200)).body;
      expect(r.delivery).to.include({ id, hook_id: hook, body: null, body_sha256: createHash('sha256').update(body).digest('hex') });
      expect(r.delivery.body_url).to.match(new RegExp(`/api/ledger/${id}/body$`));
      expect(r.delivery.headers).to.deep.include(['x-trace', 'abc']);
      const leaf = JSON.parse(r.proof.leaf_text);
      expect(leaf).to.include({ v: 2, kind: 'delivery', id });
      expect(Object.keys(leaf.commitments)).to.include.members(['body_sha256', 'headers', 'hook_id']);
      expect(unopenedFields(r.proof.leaf_text, r.opening.salt, r.opening.private)).to.deep.equal([]);
      expect(unopenedFields(r.proof.leaf_text, r.opening.salt, { ...r.opening.private, headers: [['x-trace', 'abd']] })).to.deep.equal(['headers']);
      const stored = await owner(http.get(new URL(r.delivery.body_url).pathname)).buffer(true).parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      }).expect(200);
      expect(createHash('sha256').update(stored.body as Buffer).digest('hex')).to.equal(r.opening.private.body_sha256);
      await http.get(`/api/dispatch?receipt=${id}`).expect(401);
      const token = (await http.get('/start').expect(200)).body.token as string;
      expect((await http.get(`/api/dispatch?receipt=${id}`).set('authorization', `Bearer ${token}`).expect(403)).body.error.code).to.equal('scope_denied');
      expect((await owner(http.get('/api/dispatch?receipt=dlv_doesnotexist000000')).expect(404)).body.error.code).to.equal('not_found');
    });

    it('gives an auditor the leaves and a consistency proof between two signed checkpoints', async () => {
      await confirmed(await run());
      const first = (await http.get('/api/proven-work').expect(200)).body;
      await confirmed(await run());
      const second = (await http.get('/api/proven-work?limit=1').expect(200)).body;
      const key = noteVerifier(first.verifier_key);
      const older = parseCheckpoint(openNote(first.checkpoint.note, [key]).text);
      const newer = parseCheckpoint(openNote(second.checkpoint.note, [key]).text);
      expect(newer.size).to.be.greaterThan(older.size);
      const c = (await http.get(`/api/proven-work?from_size=${older.size}&to_size=${newer.size}`).expect(200)).body.consistency;
      verifyConsistency(older.size, newer.size, c.proof.map((p: string) => new Uint8Array(Buffer.from(p, 'base64'))), older.root, newer.root);
      expect(second.leaves).to.have.length(1);
      expect(second.leaves[0]).to.include({ index: 0 });
      expect(second.next).to.match(/from=1&limit=1$/);
    });
  });
}
