// The log as c2sp.org/tlog-tiles, checked by someone else's implementation: Go's
// golang.org/x/mod/sumdb/tlog and note (test/support/tlog-check) read only the checkpoint, tiles and
// entry bundles over HTTP, check the signature against the published key, prove a run included and
// an older checkpoint consistent. Then the resources themselves: headers, bytes, and bad paths.
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { generateSignerSeed, hashChildren, hashLeaf, noteSigner, openNote, noteVerifier, parseCheckpoint, parseEntryBundle, rootHash, tileHashes, tilesOf, tilePath } from '@switchyard/core';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';
import { goTlogCheck, runGoTlogCheck } from '../support/go-tlog.js';

const EDGE = 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER';
const WORKER = '0123456789abcdef0123456789abcdef';
const PREFIX = '/api/proven-work/log';

const binary = (res: request.Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

for (const engine of engines()) {
  describe(`tlog-tiles at ${PREFIX} (${engine})`, function () {
    this.timeout(120_000);
    let svc: ListeningService;
    let http: ReturnType<typeof request>;
    let vkey: string;
    let dir: string;
    const run = async () => (await http.post('/api/dispatch').set('x-sheets-key', TEST_API_KEY).send({ key: EDGE, body: JSON.stringify({ workerId: WORKER }) }).expect(200)).body.invocation.id as string;
    const confirmed = async (id: string) => {
      for (let i = 0; i < 400; i++) {
        const res = await http.get(`/api/dispatch?confirm=${id}`).expect(200);
        if (res.body.status === 'integrated') return res.body as { index: number; tree_size: number; leaf_text: string };
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`${id} was never integrated`);
    };
    const checkpoint = async () => (await http.get(`${PREFIX}/checkpoint`).expect(200)).text;

    before(async () => {
      await goTlogCheck(); // build first, so a missing Go toolchain fails here, loudly
      svc = await startListeningService(engine, { ledger: { integrateIntervalMs: 50 } });
      http = request(svc.url);
      vkey = (await http.get('/api/proven-work/key?format=text').expect(200)).text.trim();
      dir = mkdtempSync(join(tmpdir(), 'switchyard-tiles-'));
    });
    after(async () => {
      await svc?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('has no checkpoint to serve before anything is integrated, and no tiles', async () => {
      if ((await http.get('/api/proven-work').expect(200)).body.checkpoint) return expect.fail('the fresh log already has a checkpoint');
      expect((await http.get(`${PREFIX}/checkpoint`).expect(404)).body.error.code).to.equal('not_found');
      expect((await http.get(`${PREFIX}/tile/0/000.p/1`).expect(404)).body.error.code).to.equal('not_found');
    });

    it("is verified by Go's tlog and note: signature, inclusion of a run across full tiles, consistency with an older checkpoint", async () => {
      // Past one full tile of leaves, so the proofs cross a full level-0 tile, a partial one and level 1.
      const first: string[] = [];
      for (let i = 0; i < 20; i++) first.push(await run());
      await confirmed(first.at(-1)!);
      const older = await checkpoint();
      writeFileSync(join(dir, 'older'), older);
      for (let i = 0; i < 270; i++) await run();
      const last = await run();
      const latest = await confirmed(last);
      expect(latest.tree_size).to.be.greaterThan(256);
      const proven = await confirmed(first[3]!);

      const check = await runGoTlogCheck({ prefix: `${svc.url}${PREFIX}`, vkey, index: proven.index, contains: `"id":"${first[3]}"`, old: join(dir, 'older') });
      expect(check.lines, check.lines.join('\n')).to.include.members(['ok tiles hash to the root', `ok inclusion ${proven.index}`]);
      expect(check.ok).to.equal(true);
      const olderSize = parseCheckpoint(openNote(older, [noteVerifier(vkey)]).text).size;
      expect(check.lines.some((l) => l.startsWith(`ok consistency ${olderSize} `))).to.equal(true);

      // And the newest run, in the partial tile at the right edge.
      const edge = await runGoTlogCheck({ prefix: `${svc.url}${PREFIX}`, vkey, index: latest.index, contains: `"id":"${last}"` });
      expect(edge.ok, edge.lines.join('\n')).to.equal(true);
    });

    it("is refused by Go's checks when it should be: another key, or an entry that is not the run", async () => {
      const other = noteSigner('switchyard.local/ledger', generateSignerSeed()).verifierKey;
      const wrongKey = await runGoTlogCheck({ prefix: `${svc.url}${PREFIX}`, vkey: other });
      expect(wrongKey.ok).to.equal(false);
      expect(wrongKey.lines.at(-1)).to.match(/^FAIL checkpoint signature/);
      const wrongEntry = await runGoTlogCheck({ prefix: `${svc.url}${PREFIX}`, vkey, index: 0, contains: '"id":"inv_notthisone00000000"' });
      expect(wrongEntry.ok).to.equal(false);
      expect(wrongEntry.lines.at(-1)).to.match(/^FAIL entry 0 does not contain/);
    });

    it('serves the checkpoint as text that no cache keeps, the same note proven-work shows', async () => {
      const res = await http.get(`${PREFIX}/checkpoint`).expect(200);
      expect(res.headers['content-type']).to.equal('text/plain; charset=utf-8');
      expect(res.headers['cache-control']).to.equal('no-cache');
      expect(res.text).to.equal((await http.get('/api/proven-work').expect(200)).body.checkpoint.note);
    });

    it('serves every tile of the tree, immutable, hashing (with the entry bundles) to the signed root', async () => {
      const { size, root } = parseCheckpoint(openNote(await checkpoint(), [noteVerifier(vkey)]).text);
      const hashesAt = new Map<string, Uint8Array>();
      for (const tile of tilesOf(size)) {
        const res = await http.get(`${PREFIX}/${tilePath(tile)}`).buffer(true).parse(binary).expect(200);
        expect(res.headers['content-type']).to.equal('application/octet-stream');
        expect(res.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
        const body = res.body as Buffer;
        expect(body.length).to.equal(32 * tile.width);
        for (let i = 0; i < tile.width; i++) hashesAt.set(`${tile.level}:${tile.index * 256 + i}`, new Uint8Array(body.subarray(32 * i, 32 * i + 32)));
      }
      // Level-0 tiles hold the hashes of the entries; a level-1 hash is the root of a full level-0 tile.
      const leaves: Uint8Array[] = [];
      for (let n = 0; n * 256 < size; n++) {
        const width = Math.min(256, size - n * 256);
        const res = await http.get(`${PREFIX}/tile/entries/${String(n).padStart(3, '0')}${width < 256 ? `.p/${width}` : ''}`).buffer(true).parse(binary).expect(200);
        expect(res.headers['content-encoding']).to.equal('gzip'); // supertest asks for gzip, as Go's client does
        leaves.push(...parseEntryBundle(new Uint8Array(res.body as Buffer)));
      }
      expect(leaves).to.have.length(size);
      leaves.forEach((leaf, i) => expect(Buffer.from(hashLeaf(leaf)).equals(Buffer.from(hashesAt.get(`0:${i}`)!)), `leaf ${i}`).to.equal(true));
      // Every complete subtree, hashed from the entries alone (memoized).
      const memo = new Map<string, Uint8Array>();
      const subtree = ({ level, index }: { level: number; index: number }): Uint8Array => {
        const key = `${level}:${index}`;
        if (!memo.has(key)) memo.set(key, level === 0 ? hashLeaf(leaves[index]!) : hashChildren(subtree({ level: level - 1, index: 2 * index }), subtree({ level: level - 1, index: 2 * index + 1 })));
        return memo.get(key)!;
      };
      expect(Buffer.from(rootHash(size, subtree)).equals(Buffer.from(root))).to.equal(true);
      const level1 = [...hashesAt.keys()].filter((k) => k.startsWith('1:'));
      expect(level1).to.have.length(Math.floor(size / 256));
      for (const k of level1) expect(Buffer.from(hashesAt.get(k)!).equals(Buffer.from(subtree({ level: 8, index: Number(k.slice(2)) }))), k).to.equal(true);
    });

    it('sends an entry bundle uncompressed to a client that does not take gzip', async () => {
      const res = await http.get(`${PREFIX}/tile/entries/000`).set('accept-encoding', 'identity').buffer(true).parse(binary).expect(200);
      expect(res.headers['content-encoding']).to.equal(undefined);
      expect(parseEntryBundle(new Uint8Array(res.body as Buffer))).to.have.length(256);
      // A full bundle or tile is kept once served: the same bytes again, compressed or not.
      for (let i = 0; i < 2; i++) {
        const again = await http.get(`${PREFIX}/tile/entries/000`).buffer(true).parse(binary).expect(200);
        expect(again.headers['content-encoding']).to.equal('gzip');
        expect((again.body as Buffer).equals(res.body as Buffer)).to.equal(true);
        const tile = await http.get(`${PREFIX}/tile/0/000`).buffer(true).parse(binary).expect(200);
        expect(tileHashes(new Uint8Array(tile.body as Buffer), 256).map((h) => Buffer.from(h).toString('hex'))).to.deep.equal(parseEntryBundle(new Uint8Array(res.body as Buffer)).map((e) => Buffer.from(hashLeaf(e)).toString('hex')));
      }
    });

    it('refuses tiles past the tree (404 not_found) and malformed paths (400 invalid_request), and the log keeps growing', async () => {
      const { size } = parseCheckpoint(openNote(await checkpoint(), [noteVerifier(vkey)]).text);
      const width = size % 256;
      const past = [`tile/0/001.p/${width + 1}`, 'tile/0/001', 'tile/0/002.p/1', 'tile/1/000', 'tile/2/000.p/1', `tile/entries/001.p/${width + 1}`, 'tile/entries/x001/000'];
      for (const path of past) {
        const res = await http.get(`${PREFIX}/${path}`).expect(404);
        expect(res.body.error.code, path).to.equal('not_found');
        expect(res.body.error.message, path).to.contain(`${size} leaves`);
      }
      for (const path of ['tile/0/1', 'tile/00/000', 'tile/64/000', 'tile/0/000.p/0', 'tile/0/000.p/256', 'tile/0/x000/001', 'tile/data/000', 'tile/0/000/', 'tile/entries']) {
        const res = await http.get(`${PREFIX}/${path}`).expect(400);
        expect(res.body.error.code, path).to.equal('invalid_request');
      }
      await confirmed(await run());
      expect(parseCheckpoint(openNote(await checkpoint(), [noteVerifier(vkey)]).text).size).to.be.greaterThan(size);
    });
  });
}
