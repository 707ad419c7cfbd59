// Witnesses, end to end on each engine: the log asks real HTTP witnesses (test/support/witness.ts,
// written from c2sp.org/tlog-witness) to cosign each new checkpoint with a consistency proof from
// what each last cosigned; the cosignatures are served with the checkpoint and meet a k-of-n
// policy. A witness that lies (cosigns another root), one that holds a larger tree (a rollback to
// it), one that never answers and one that answers garbage are refused and logged; the log grows.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import request from 'supertest';
import { PROJECT_ROOT, createLogger } from '@switchyard/app';
import { openDatabase } from '@switchyard/storage-knex';
import { NoteError, noteVerifier, openNote, openWitnessedNote, parseCheckpoint } from '@switchyard/verifier';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';
import { startTestWitness, type TestWitness } from '../support/witness.js';
import { runGoTlogCheck } from '../support/go-tlog.js';

const execFileAsync = promisify(execFile);
const EDGE = 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER';
const ORIGIN = 'switchyard.local/ledger';

/** A server that answers every request with `answer`, or never when it is null. */
async function fixedServer(answer: { status: number; body: string } | null): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    if (answer) res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

for (const engine of engines()) {
  describe(`witness cosignatures (${engine})`, function () {
    this.timeout(60_000);
    let svc: ListeningService;
    let http: ReturnType<typeof request>;
    let w1: TestWitness, w2: TestWitness, liar: TestWitness, ahead: TestWitness;
    let silent: { url: string; close(): Promise<void> }, garbage: { url: string; close(): Promise<void> };
    let vkey: string;
    let firstNote: string;
    const logLines: Array<Record<string, unknown>> = [];
    const run = async () => (await http.post('/api/dispatch').set('x-sheets-key', TEST_API_KEY).send({ key: EDGE, body: JSON.stringify({ workerId: '0123456789abcdef0123456789abcdef' }) }).expect(200)).body.invocation.id as string;
    const checkpoint = async () => (await http.get('/api/proven-work/log/checkpoint').expect(200)).text;
    /** The served checkpoint, or null before the first integration (404). */
    const maybeCheckpoint = async () => {
      const res = await http.get('/api/proven-work/log/checkpoint');
      if (res.status === 404) return null;
      expect(res.status).to.equal(200);
      return res.text;
    };
    const sizeOf = (note: string) => parseCheckpoint(openNote(note, [noteVerifier(vkey)]).text).size;
    /** Waits until the served checkpoint meets 2 of w1, w2 at a size of at least `min`. */
    const cosigned = async (min: number) => {
      for (let i = 0; i < 300; i++) {
        const note = await maybeCheckpoint();
        try {
          if (note && sizeOf(note) >= min) return { note, ...openWitnessedNote(note, vkey, { witnesses: [w1.vkey, w2.vkey], needed: 2 }) };
        } catch (e) {
          if (!(e instanceof NoteError)) throw e;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('the checkpoint was never cosigned by both honest witnesses');
    };

    before(async () => {
      [w1, w2, liar, ahead] = await Promise.all([startTestWitness('witness.test/w1'), startTestWitness('witness.test/w2'), startTestWitness('witness.test/liar', { lie: true }), startTestWitness('witness.test/ahead')]);
      silent = await fixedServer(null);
      garbage = await fixedServer({ status: 200, body: 'hello, I am not a signature line\n' });
      const sink = new Writable({ write: (chunk: Buffer, _e, done) => (chunk.toString().split('\n').filter(Boolean).forEach((l) => logLines.push(JSON.parse(l))), done()) });
      // The silent and garbage servers are named in config with keys of their own (from witnesses closed at once).
      const spare = await Promise.all([startTestWitness('witness.test/silent'), startTestWitness('witness.test/garbage')]);
      await Promise.all(spare.map((s) => s.close()));
      const witnesses = [
        ...[w1, w2, liar, ahead].map((w) => ({ name: w.name, vkey: w.vkey, url: w.url })),
        { name: 'witness.test/silent', vkey: spare[0]!.vkey, url: silent.url },
        { name: 'witness.test/garbage', vkey: spare[1]!.vkey, url: garbage.url },
      ];
      svc = await startListeningService(engine, { ledger: { integrateIntervalMs: 50, witnesses, witnessTimeoutMs: 300 } }, { logger: createLogger('info', { destination: sink }) });
      http = request(svc.url);
      vkey = (await http.get('/api/proven-work/key?format=text').expect(200)).text.trim();
      for (const w of [w1, w2, liar, ahead]) w.trust(ORIGIN, vkey);
      ahead.hold(ORIGIN, 1_000_000, new Uint8Array(32).fill(1));
    });
    after(async () => {
      await svc?.close();
      await Promise.all([w1, w2, liar, ahead, silent, garbage].map((w) => w?.close()));
    });

    it('gets each new checkpoint cosigned by the honest witnesses, served with it, meeting 2 of 3 while the liar is left out', async () => {
      await run();
      const first = await cosigned(1);
      firstNote = first.note;
      expect(first.cosignedBy).to.deep.equal(['witness.test/w1', 'witness.test/w2']);
      expect(first.note).to.not.contain('witness.test/liar');
      // The liar answered 200, with a cosignature over a root it was never sent: caught, not kept.
      expect(liar.answers).to.include(200);
      const policy = { witnesses: [w1.vkey, w2.vkey, liar.vkey], needed: 2 };
      expect(openWitnessedNote(first.note, vkey, policy).cosignedBy).to.have.length(2);
      expect(() => openWitnessedNote(first.note, vkey, { ...policy, needed: 3 })).to.throw(NoteError, /2 of the 3 trusted witnesses, 3 needed/);

      // Later checkpoints: each honest witness is asked from the size it holds, with a consistency proof.
      for (let i = 0; i < 5; i++) await run();
      const size1 = sizeOf(first.note);
      const later = await cosigned(size1 + 5);
      const size2 = sizeOf(later.note);
      expect(size2).to.be.greaterThan(size1);
      expect(w1.sizeOf(ORIGIN)).to.be.at.least(size2);
      expect(w2.answers.filter((s) => s === 200).length).to.be.at.least(2);
      expect(w1.answers.filter((s) => s !== 200 && s !== 404)).to.deep.equal([]);
    });

    it('refuses and logs the witness holding a larger tree, the silent one and the garbage one, and keeps growing', async () => {
      // The latest refusal of each (before the log's key was trusted, the witnesses answered 404).
      const reasonOf = (w: string) => String(logLines.filter((l) => l['message'] === 'witness refused: checkpoint not cosigned' && l['witness'] === w).at(-1)?.['reason']);
      const settled = () => ['ahead', 'silent', 'garbage', 'liar'].every((w) => !['undefined', 'answered 404: unknown log'].includes(reasonOf(`witness.test/${w}`)));
      for (let i = 0; i < 100 && !settled(); i++) await new Promise((r) => setTimeout(r, 50));
      expect(reasonOf('witness.test/ahead')).to.match(/holds size 1000000, past the log's .*rollback or fork/);
      expect(ahead.answers).to.include(409);
      expect(ahead.sizeOf(ORIGIN)).to.equal(1_000_000);
      expect(reasonOf('witness.test/silent')).to.match(/^unreachable/);
      expect(reasonOf('witness.test/garbage')).to.equal('no cosignature by its key in the answer');
      expect(reasonOf('witness.test/liar')).to.equal('its cosignature does not verify over this checkpoint');
      const before = sizeOf(await checkpoint());
      await run();
      const after = await cosigned(before + 1);
      for (const w of ['ahead', 'silent', 'garbage', 'liar']) expect(after.note).to.not.contain(`witness.test/${w}`);
    });

    it('answers a 409 from the size the witness really holds, with a consistency proof from there', async () => {
      // w1 forgets its later cosignatures, as after restoring a backup: it holds the first checkpoint again.
      const first = parseCheckpoint(openNote(firstNote, [noteVerifier(vkey)]).text);
      w1.hold(ORIGIN, first.size, first.root);
      const before = sizeOf(await checkpoint());
      const answered = w1.answers.length;
      await run();
      const after = await cosigned(before + 1);
      expect(after.cosignedBy).to.include('witness.test/w1');
      expect(w1.answers.slice(answered)).to.include.members([409, 200]);
      expect(w1.sizeOf(ORIGIN)).to.equal(sizeOf(after.note));
    });

    it('keeps cosignatures append-only: the database refuses to change or delete one', async () => {
      const db = await openDatabase(svc.db.url, { leafWorker: false });
      try {
        const rows = await db.knex('ledger_cosignatures').count({ n: '*' });
        expect(Number(rows[0]!['n'])).to.be.greaterThan(0);
        const refusedUpdate = await db.knex('ledger_cosignatures').update({ line: 'forged' }).then(() => null, (e: unknown) => e);
        const refusedDelete = await db.knex('ledger_cosignatures').delete().then(() => null, (e: unknown) => e);
        expect(String(refusedUpdate)).to.match(/append-only/);
        expect(String(refusedDelete)).to.match(/append-only/);
      } finally {
        await db.close();
      }
    });

    it('switchyard verify holds a run\'s proof to k of n witnesses, and fails when the policy is not met', async () => {
      const id = await run();
      const size = sizeOf(await checkpoint());
      await cosigned(size + 1);
      const cli = async (...args: string[]) => {
        const bin = join(PROJECT_ROOT, 'adapters', 'cli', 'bin', 'switchyard.js');
        try {
          const { stdout } = await execFileAsync(process.execPath, [bin, 'verify', id, '--json', ...args], { env: { ...process.env, SWITCHYARD_URL: svc.url, SWITCHYARD_API_KEY: '', SWITCHYARD_VERIFIER_KEY: vkey } });
          return { code: 0, out: stdout };
        } catch (e) {
          const err = e as { code: number; stdout: string; stderr: string };
          return { code: err.code, out: err.stdout + err.stderr };
        }
      };
      const three = ['--witness', w1.vkey, '--witness', w2.vkey, '--witness', liar.vkey];
      const met = await cli(...three, '--witnesses-needed', '2');
      expect(met.code, met.out).to.equal(0);
      expect(JSON.parse(met.out)).to.deep.include({ ok: true, id, cosigned_by: ['witness.test/w1', 'witness.test/w2'] });
      const unmet = await cli(...three);
      expect(unmet.code).to.equal(1);
      expect(unmet.out).to.match(/proof_invalid/).and.match(/cosigned by 2 of the 3 trusted witnesses, 3 needed/);
      const usage = await cli(...three, '--witnesses-needed', '4');
      expect(usage.code).to.equal(2);
    });

    it("still verifies with Go's note and tlog: cosignature lines are signatures of keys it does not know", async () => {
      const check = await runGoTlogCheck({ prefix: `${svc.url}/api/proven-work/log`, vkey });
      expect(check.ok, check.lines.join('\n')).to.equal(true);
    });
  });
}
