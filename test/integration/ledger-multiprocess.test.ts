// One Merkle log across service processes: runs and deliveries sent to several processes sharing
// one database end up as one consistent tree — every entry exactly once, every checkpoint signed
// by the one stored key, each later checkpoint consistent with the earlier ones, every inclusion
// proof valid whichever process answers.
import { expect } from 'chai';
import { noteVerifier, openNote, parseCheckpoint, verifyConsistency, verifyTlogProof } from '@switchyard/core';
import { TEST_API_KEY, engines, freshDatabase } from '../support/app.js';
import { startServiceProcess, type Child } from '../support/processes.js';

const PROCESSES = 2;
const RUNS = 40;
const EDGE = 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER';

for (const engine of engines()) {
  describe(`one Merkle log across ${PROCESSES} service processes (${engine})`, function () {
    this.timeout(120_000);

    it('integrates every entry from every process exactly once into one consistent, signed tree', async function () {
      const db = await freshDatabase(engine);
      const services: Array<{ child: Child; url: string }> = [];
      const get = async (i: number, path: string) => (await fetch(`${services[i % PROCESSES]!.url}${path}`)).json() as Promise<Record<string, any>>;
      try {
        services.push(await startServiceProcess({ SWITCHYARD_API_KEY: TEST_API_KEY, DATABASE_URL: db.url }));
        services.push(...(await Promise.all(Array.from({ length: PROCESSES - 1 }, () => startServiceProcess({ SWITCHYARD_API_KEY: TEST_API_KEY, DATABASE_URL: db.url })))));
        const keys = await Promise.all(services.map((_, i) => get(i, '/api/proven-work/key')));
        expect(new Set(keys.map((k) => k['verifier_key'])).size, 'every process publishes the one key').to.equal(1);
        const verifier = keys[0]!['verifier_key'] as string;

        const checkpoints: Array<{ size: number; root: Uint8Array }> = [];
        const ids: string[] = [];
        for (let wave = 0; wave < 4; wave++) {
          const runs = await Promise.all(
            Array.from({ length: RUNS / 4 }, async (_, i) => {
              const res = await fetch(`${services[i % PROCESSES]!.url}/api/dispatch`, {
                method: 'POST',
                headers: { 'content-type': 'application/json', 'x-sheets-key': TEST_API_KEY },
                body: JSON.stringify({ key: EDGE, body: { workerId: '0123456789abcdef0123456789abcdef' } }),
              });
              return ((await res.json()) as { invocation: { id: string } }).invocation.id;
            }),
          );
          ids.push(...runs);
          // Wait until both processes' integrators have caught up, then keep the signed checkpoint.
          for (let t = 0; t < 200; t++) {
            const states = await Promise.all(runs.map((id, i) => get(i, `/api/dispatch?confirm=${id}`)));
            if (states.every((s) => s['status'] === 'integrated')) break;
            await new Promise((r) => setTimeout(r, 50));
          }
          const note = (await get(wave, '/api/proven-work?limit=1'))['checkpoint'].note as string;
          checkpoints.push(parseCheckpoint(openNote(note, [noteVerifier(verifier)]).text));
        }

        // Every run is in the tree, once, and its proof verifies from either process.
        for (const [i, id] of ids.entries()) {
          const c = await get(i + 1, `/api/dispatch?confirm=${id}`);
          expect(c['status'], id).to.equal('integrated');
          verifyTlogProof(c['tlog_proof'] as string, verifier);
        }
        const size = checkpoints[checkpoints.length - 1]!.size;
        const leaves = (await get(0, `/api/proven-work?limit=1000`))['leaves'] as Array<{ index: number; id: string }>;
        expect(leaves.map((l) => l.index)).to.deep.equal(Array.from({ length: size }, (_, i) => i));
        expect(new Set(leaves.map((l) => l.id)).size, 'no entry twice').to.equal(size);
        for (const id of ids) expect(leaves.some((l) => l.id === id), id).to.equal(true);
        // Each checkpoint, whichever process signed it, is a prefix of the next.
        for (let i = 1; i < checkpoints.length; i++) {
          const [a, b] = [checkpoints[i - 1]!, checkpoints[i]!];
          if (a.size === b.size) continue;
          const proof = (await get(i, `/api/proven-work?from_size=${a.size}&to_size=${b.size}&limit=1`))['consistency'].proof as string[];
          verifyConsistency(a.size, b.size, proof.map((p) => new Uint8Array(Buffer.from(p, 'base64'))), a.root, b.root);
        }
      } finally {
        await Promise.all(services.map((s) => s.child.stop()));
        await db.drop();
      }
    });
  });
}
