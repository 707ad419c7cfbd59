// The verifiable ledger on each engine: entries queued by the database become leaves, proofs and
// checkpoints verify with the core verifiers, a reopened database continues the same tree, and on
// PostgreSQL integrators in separate connections pools (as in separate processes) build one tree.
import { expect } from 'chai';
import knexFactory from 'knex';
import {
  buildLeaf,
  commitmentSalt,
  hashChildren,
  hashLeaf,
  newDeliveryEntryId,
  newWebhookId,
  noteVerifier,
  openNote,
  opensCommitment,
  leafParts,
  unopenedFields,
  parseCheckpoint,
  verifyConsistency,
  verifyInclusion,
  type InvocationRecord,
  type StoredInvocation,
} from '@switchyard/core';
import { KnexDeliveryStore, KnexInvocationStore, KnexLedger, WorkerLeafReader, inThreadLeafReader, knexConfig, migrationNames, migrationSource, openDatabase, type Database, type QueuedLeafReader, type SeqRange } from '@switchyard/storage-knex';
import { delivery, record } from '../contract/store.contract.js';
import { engines, freshDatabase } from '../support/app.js';

const ORIGIN = 'ledger.switchyard.test';

/** A ledger opened as the service opens it: reads off the writer, leaves from the database's reader. */
const openAsService = (database: Database, leafReader: QueuedLeafReader = database.leafReader) =>
  KnexLedger.open(database.knex, { origin: ORIGIN }, undefined, { readKnex: database.readKnex, leafReader });

/** Appends an invocation as the service did at migration 007: the row without later columns. */
async function appendAt007(knex: knexFactory.Knex, r: InvocationRecord): Promise<StoredInvocation> {
  const { request_id: _, ...old } = r;
  const { id, key, actor, fingerprint, status, ok, ran, repairs, replays, source, created_at, duration_ms } = old;
  await knex('invocations').insert({ id, key, actor, fingerprint, status, ok, ran, repairs, replays, source, created_at, duration_ms, record: JSON.stringify(old) });
  const { seq } = (await knex('invocations').select('seq').where({ id }).first()) as { seq: number | string };
  return { ...r, seq: Number(seq), repaired_by: [] };
}

/** The latest checkpoint, its signature checked against the ledger's verifier key. */
const signedTree = async (ledger: KnexLedger) => parseCheckpoint(openNote((await ledger.latestCheckpoint())!.note, [noteVerifier(ledger.verifierKey)]).text);

for (const engine of engines()) {
  describe(`verifiable ledger: ${engine}`, function () {
    this.timeout(30_000);
    let db: Awaited<ReturnType<typeof freshDatabase>>;
    beforeEach(async () => (db = await freshDatabase(engine, { empty: true })));
    afterEach(async () => db.drop());

    it('makes every invocation and delivery a leaf whose inclusion and checkpoint verify', async function () {
      const database = await openDatabase(db.url);
      try {
        const ledger = await KnexLedger.open(database.knex, { origin: ORIGIN });
        const invocations = new KnexInvocationStore(database.knex);
        const deliveries = new KnexDeliveryStore(database.knex);
        const inv = await invocations.append(record());
        const del = await deliveries.append(delivery(newWebhookId(), { delivery_id: 'evt_leaf' }));
        expect(await ledger.isPending('invocation', inv.id)).to.equal(true);
        expect(await ledger.leafFor('invocation', inv.id)).to.equal(undefined);

        expect(await ledger.integrate()).to.deep.equal({ integrated: 2, size: 2 });
        expect(await ledger.isPending('invocation', inv.id)).to.equal(false);
        const checkpoint = (await ledger.latestCheckpoint())!;
        const opened = openNote(checkpoint.note, [noteVerifier(ledger.verifierKey)]);
        const tree = parseCheckpoint(opened.text);
        expect(tree).to.include({ origin: ORIGIN, size: 2 });

        for (const [kind, id] of [['invocation', inv.id], ['delivery', del.id]] as const) {
          const leaf = (await ledger.leafFor(kind, id))!;
          expect(Buffer.from(hashLeaf(new TextEncoder().encode(leaf.leaf))).toString('hex')).to.equal(leaf.leaf_hash);
          verifyInclusion(leaf.index, tree.size, Buffer.from(leaf.leaf_hash, 'hex'), await ledger.inclusionProof(leaf.index, tree.size), tree.root);
        }
        // Public fields only; the private ones open the commitment with the entry's salt.
        const invLeaf = JSON.parse((await ledger.leafFor('invocation', inv.id))!.leaf) as Record<string, unknown>;
        // Version 2: one commitment per private field, so an edited record is named field by field.
        expect(invLeaf).to.include({ v: 2, kind: 'invocation', id: inv.id, key: inv.key, status: 'ok' });
        expect(invLeaf).to.not.have.any.keys('args', 'result', 'body', 'actor', 'commitment');
        expect(Object.keys(invLeaf['commitments'] as object)).to.deep.equal(['actor', 'args', 'body', 'error', 'result', 'source']);
        const delLeaf = (await ledger.leafFor('delivery', del.id))!.leaf;
        expect(delLeaf).to.not.include(del.hook_id);
        const parts = leafParts({ kind: 'invocation', entry: inv });
        expect(opensCommitment((await ledger.leafFor('invocation', inv.id))!.leaf, ledger.commitmentSalt('invocation', inv.id), parts.private)).to.equal(true);
        expect(opensCommitment((await ledger.leafFor('invocation', inv.id))!.leaf, ledger.commitmentSalt('invocation', inv.id), { ...parts.private, result: 'forged' })).to.equal(false);
        expect(unopenedFields((await ledger.leafFor('invocation', inv.id))!.leaf, ledger.commitmentSalt('invocation', inv.id), { ...parts.private, result: 'forged', actor: 'someone' })).to.deep.equal(['actor', 'result']);
      } finally {
        await database.close();
      }
    });

    it('commits to a delivery body by the hash stored with it: integration reads no body, and the leaf is the one the body itself gives', async function () {
      const database = await openDatabase(db.url);
      try {
        const ledger = await KnexLedger.open(database.knex, { origin: ORIGIN });
        const body = new TextEncoder().encode(JSON.stringify({ id: 'evt_hash', pad: 'x'.repeat(100_000) }));
        const del = await new KnexDeliveryStore(database.knex).append(delivery(newWebhookId(), { body, body_size: body.length }));
        const sql: string[] = [];
        const seen = (q: { sql: string }) => sql.push(q.sql);
        database.knex.on('query', seen);
        try {
          expect(await ledger.integrate()).to.deep.equal({ integrated: 1, size: 1 });
        } finally {
          database.knex.removeListener('query', seen);
        }
        const reads = sql.filter((q) => /^select/i.test(q) && /\bdeliveries\b/.test(q));
        expect(reads, 'the queued delivery was read').to.have.length.at.least(1);
        for (const q of reads) {
          expect(q, q).to.not.match(/select \*|["`]body["`]/i);
        }
        // The commitment opens with the hash of the body itself, as before hashes were stored.
        const leaf = (await ledger.leafFor('delivery', del.id))!.leaf;
        const fromBody = leafParts({ kind: 'delivery', entry: { ...del, body_sha256: null } });
        expect(fromBody.private['body_sha256']).to.equal(del.body_sha256);
        expect(opensCommitment(leaf, ledger.commitmentSalt('delivery', del.id), fromBody.private)).to.equal(true);
      } finally {
        await database.close();
      }
    });

    it('grows one tree across batches and a restart, each checkpoint consistent with the last', async function () {
      let database = await openDatabase(db.url);
      const sizes: number[] = [];
      const roots = new Map<number, Uint8Array>();
      const takeCheckpoint = async (ledger: KnexLedger) => {
        const c = await signedTree(ledger);
        sizes.push(c.size);
        roots.set(c.size, c.root);
      };
      let ledger = await KnexLedger.open(database.knex, { origin: ORIGIN });
      const key = ledger.verifierKey;
      const invocations = new KnexInvocationStore(database.knex);
      for (const n of [1, 6, 13]) {
        await Promise.all(Array.from({ length: n }, () => invocations.append(record())));
        await ledger.integrate();
        await takeCheckpoint(ledger);
      }
      await database.close();

      database = await openDatabase(db.url);
      try {
        ledger = await KnexLedger.open(database.knex, { origin: ORIGIN });
        expect(ledger.verifierKey, 'the signing key was kept in the database').to.equal(key);
        const more = new KnexInvocationStore(database.knex);
        await Promise.all(Array.from({ length: 9 }, () => more.append(record())));
        await new KnexDeliveryStore(database.knex).append(delivery(newWebhookId()));
        expect(await ledger.integrate()).to.deep.equal({ integrated: 10, size: 30 });
        await takeCheckpoint(ledger);
        expect(sizes).to.deep.equal([1, 7, 20, 30]);
        for (let i = 1; i < sizes.length; i++) {
          const [a, b] = [sizes[i - 1]!, sizes[i]!];
          verifyConsistency(a, b, await ledger.consistencyProof(a, b), roots.get(a)!, roots.get(b)!);
        }
        expect((await ledger.leaves(28, 10)).map((l) => l.index)).to.deep.equal([28, 29]);
      } finally {
        await database.close();
      }
    });

    it('stores subtrees at even levels only, and every inclusion and consistency proof verifies at every size', async function () {
      const database = await openDatabase(db.url);
      try {
        const ledger = await openAsService(database);
        const store = new KnexInvocationStore(database.knex);
        const roots = new Map<number, Uint8Array>();
        // Batches of uneven sizes, so batch edges fall at every level.
        for (const n of [1, 2, 5, 3, 8, 13, 21, 17]) {
          for (let i = 0; i < n; i++) await store.append(record());
          await ledger.integrate(n);
          const c = await signedTree(ledger);
          roots.set(c.size, c.root);
        }
        const levels = (await database.knex('ledger_nodes').distinct('level').orderBy('level')) as Array<{ level: number }>;
        expect(levels.map((l) => Number(l.level))).to.deep.equal([2, 4, 6]);
        const leaves = await ledger.leaves(0, 100);
        expect(leaves).to.have.length(70);
        for (const [size, root] of roots) {
          for (const leaf of leaves.filter((l) => l.index < size)) {
            verifyInclusion(leaf.index, size, Buffer.from(leaf.leaf_hash, 'hex'), await ledger.inclusionProof(leaf.index, size), root);
          }
          for (const [later, laterRoot] of roots) if (later > size) verifyConsistency(size, later, await ledger.consistencyProof(size, later), root, laterRoot);
        }
      } finally {
        await database.close();
      }
    });

    it('upgrades a log written before entry positions and even-level subtrees, and goes on growing it', async function () {
      // A database as the service left it at migration 007: leaves keyed by entry id, subtrees at
      // every level, queued entries without their seq. The old integrator's writes are made here.
      const knex = knexFactory(knexConfig(db.url));
      try {
        for (let i = 0; i < 7; i++) await knex.migrate.up({ migrationSource });
        const commitmentKey = new Uint8Array(32).fill(7);
        await knex('ledger_settings').insert({ name: 'commitment_key', value: Buffer.from(commitmentKey).toString('base64'), created_at: new Date().toISOString() });
        const appended = [];
        for (let i = 0; i < 6; i++) appended.push(await appendAt007(knex, record()));
        const old = appended.slice(0, 4).map((inv, idx) => {
          const leaf = buildLeaf(leafParts({ kind: 'invocation', entry: inv }), commitmentSalt(commitmentKey, 'invocation', inv.id));
          return { idx, kind: 'invocation', entry_id: inv.id, leaf: leaf.text, leaf_hash: Buffer.from(leaf.hash).toString('hex'), integrated_at: new Date().toISOString() };
        });
        await knex('ledger_leaves').insert(old);
        const h = (i: number) => Buffer.from(old[i]!.leaf_hash, 'hex');
        const [n10, n11] = [hashChildren(h(0), h(1)), hashChildren(h(2), h(3))];
        await knex('ledger_nodes').insert([
          { level: 1, idx: 0, hash: Buffer.from(n10).toString('hex') },
          { level: 1, idx: 1, hash: Buffer.from(n11).toString('hex') },
          { level: 2, idx: 0, hash: Buffer.from(hashChildren(n10, n11)).toString('hex') },
        ]);
        await knex('ledger_queue').whereIn('entry_id', old.map((l) => l.entry_id)).delete();
        expect((await knex('ledger_queue').select('entry_id')).map((q: { entry_id: string }) => q.entry_id)).to.deep.equal(appended.slice(4).map((i) => i.id));
      } finally {
        await knex.destroy();
      }

      const database = await openDatabase(db.url);
      try {
        const positions = (await database.knex('ledger_leaves').select('entry_id', 'entry_seq').orderBy('idx')) as Array<{ entry_id: string; entry_seq: number | string }>;
        const seqOf = new Map(((await database.knex('invocations').select('id', 'seq')) as Array<{ id: string; seq: number | string }>).map((r) => [r.id, Number(r.seq)]));
        expect(positions.map((p) => Number(p.entry_seq)), 'leaves carry their entry seq').to.deep.equal(positions.map((p) => seqOf.get(p.entry_id)));
        const queued = (await database.knex('ledger_queue').select('entry_id', 'entry_seq')) as Array<{ entry_id: string; entry_seq: number | string }>;
        expect(queued.map((q) => Number(q.entry_seq)), 'queued entries carry their seq').to.deep.equal(queued.map((q) => seqOf.get(q.entry_id)));

        const ledger = await openAsService(database);
        await new KnexInvocationStore(database.knex).append(record()); // queued by the new trigger
        expect(await ledger.integrate()).to.deep.equal({ integrated: 3, size: 7 });
        const tree = await signedTree(ledger);
        for (const leaf of await ledger.leaves(0, 10)) {
          expect((await ledger.leafFor('invocation', leaf.entry_id))?.index, 'found by id').to.equal(leaf.index);
          verifyInclusion(leaf.index, 7, Buffer.from(leaf.leaf_hash, 'hex'), await ledger.inclusionProof(leaf.index, 7), tree.root);
        }
      } finally {
        await database.close();
      }
    });

    it('undoes migration 008 with every odd-level subtree written back, as the code before it reads them', async function () {
      const database = await openDatabase(db.url);
      let root: Uint8Array;
      try {
        const ledger = await openAsService(database);
        const store = new KnexInvocationStore(database.knex);
        for (let i = 0; i < 11; i++) await store.append(record());
        await ledger.integrate();
        root = (await signedTree(ledger)).root;
      } finally {
        await database.close();
      }
      const knex = knexFactory(knexConfig(db.url));
      try {
        // Back to 007: the later migrations first, newest first.
        const names = migrationNames();
        for (const name of names.slice(names.indexOf('008_ledger_entry_positions')).reverse()) await knex.migrate.down({ migrationSource, name });
        const nodes = (await knex('ledger_nodes').select('level', 'idx', 'hash').orderBy(['level', 'idx'])) as Array<{ level: number; idx: number | string; hash: string }>;
        // 11 leaves: 5 subtrees at level 1, 2 at level 2, 1 at level 3.
        expect(nodes.map((n) => `${n.level}:${n.idx}`)).to.deep.equal(['1:0', '1:1', '1:2', '1:3', '1:4', '2:0', '2:1', '3:0']);
        const leaves = (await knex('ledger_leaves').select('leaf_hash').orderBy('idx')) as Array<{ leaf_hash: string }>;
        const h = (hexes: string[]) => hashChildren(Buffer.from(hexes[0]!, 'hex'), Buffer.from(hexes[1]!, 'hex'));
        const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
        const at = (key: string) => nodes.find((n) => `${n.level}:${n.idx}` === key)!.hash;
        for (let i = 0; i < 5; i++) expect(at(`1:${i}`)).to.equal(hex(h([leaves[2 * i]!.leaf_hash, leaves[2 * i + 1]!.leaf_hash])));
        expect(at('3:0')).to.equal(hex(h([at('2:0'), at('2:1')])));
        // The root of 11 leaves from the restored levels: [8 | 2 | 1] as RFC 6962 splits it.
        const eight = Buffer.from(at('3:0'), 'hex');
        const rest = hashChildren(Buffer.from(at('1:4'), 'hex'), Buffer.from(leaves[10]!.leaf_hash, 'hex'));
        expect(hex(hashChildren(eight, rest))).to.equal(hex(root));
        expect(await knex.schema.hasColumn('ledger_leaves', 'entry_seq')).to.equal(false);
        await knex.migrate.latest({ migrationSource }); // and up again
        expect(await knex.schema.hasColumn('ledger_leaves', 'entry_seq')).to.equal(true);
      } finally {
        await knex.destroy();
      }
    });

    it('builds in its worker thread exactly the leaves the integrating thread would, and integrates them', async function () {
      const database = await openDatabase(db.url);
      try {
        const invocations = new KnexInvocationStore(database.knex);
        const deliveries = new KnexDeliveryStore(database.knex);
        for (let i = 0; i < 5; i++) await invocations.append(record());
        await deliveries.append(delivery(newWebhookId(), { delivery_id: 'evt_worker' }));
        const key = new Uint8Array(32).fill(9);
        expect(database.leafReader).to.be.instanceOf(WorkerLeafReader);
        const inWorker = await database.leafReader.read(100, key);
        expect(inWorker).to.have.length(6);
        expect(inWorker).to.deep.equal(await inThreadLeafReader(database.knex).read(100, key));
        expect(await database.leafReader.read(2, key)).to.deep.equal(inWorker.slice(0, 2)); // queue order, bounded

        const ledger = await openAsService(database);
        expect(await ledger.integrate()).to.deep.equal({ integrated: 6, size: 6 });
        expect(await database.leafReader.read(100, key)).to.deep.equal([]);
        const leaf = (await ledger.leafFor('delivery', inWorker[5]!.entry_id))!;
        expect(leaf.index).to.equal(5);
        expect(Buffer.from(hashLeaf(leaf.leaf)).toString('hex')).to.equal(leaf.leaf_hash);
      } finally {
        await database.close();
      }
    });

    it('reads the next batch ahead while writing one, keeping queue order, and after a failed write retries that batch first', async function () {
      const database = await openDatabase(db.url);
      try {
        const invocations = new KnexInvocationStore(database.knex);
        const ids: string[] = [];
        for (let i = 0; i < 12; i++) ids.push((await invocations.append(record())).id);
        // The reader as the ledger sees it, noting which reads left out a batch in flight.
        const skips: Array<SeqRange | undefined> = [];
        const reader: QueuedLeafReader = {
          read: (max, key, skip) => (skips.push(skip), database.leafReader.read(max, key, skip)),
          close: async () => undefined,
        };
        const ledger = await openAsService(database, reader);
        expect(await ledger.integrate(3)).to.deep.equal({ integrated: 3, size: 3 });
        expect(skips, 'a full batch reads the next one ahead, past its own positions').to.have.length(2);
        expect(skips[0]).to.equal(undefined);
        expect(skips[1]).to.deep.equal({ from: '1', to: '3' });
        // The write of the next batch fails; nothing of it is kept, and it is the next batch again.
        await database.knex.schema.renameTable('ledger_checkpoints', 'ledger_checkpoints_away');
        let failed = false;
        await ledger.integrate(3).catch(() => (failed = true));
        expect(failed).to.equal(true);
        await database.knex.schema.renameTable('ledger_checkpoints_away', 'ledger_checkpoints');
        expect(await ledger.integrate(3)).to.deep.equal({ integrated: 3, size: 6 });
        expect(await ledger.integrate(3)).to.deep.equal({ integrated: 3, size: 9 });
        // Positions 7..9 were in flight: the read ahead of them starts at 10, compared as numbers.
        expect(skips.at(-1)).to.deep.equal({ from: '7', to: '9' });
        expect(await ledger.integrate(3)).to.deep.equal({ integrated: 3, size: 12 });
        expect(await ledger.integrate(3)).to.deep.equal({ integrated: 0, size: 12 });
        const leaves = await ledger.leaves(0, 12);
        expect(leaves.map((l) => l.entry_id)).to.deep.equal(ids);
      } finally {
        await database.close();
      }
    });

    it('refuses reads once its leaf reader is closed', async function () {
      const database = await openDatabase(db.url);
      await database.leafReader.read(1, new Uint8Array(32));
      await database.close();
      let error: Error | undefined;
      await database.leafReader.read(1, new Uint8Array(32)).catch((e: Error) => (error = e));
      expect(error?.message).to.equal('the leaf reader is closed');
    });

    it('builds leaves in the integrating thread when the worker is turned off', async function () {
      const database = await openDatabase(db.url, { leafWorker: false });
      try {
        expect(database.leafReader).to.not.be.instanceOf(WorkerLeafReader);
        await new KnexInvocationStore(database.knex).append(record());
        const ledger = await openAsService(database);
        expect(await ledger.integrate()).to.deep.equal({ integrated: 1, size: 1 });
      } finally {
        await database.close();
      }
    });

    it('reports a failed read in the worker as an error and goes on serving reads', async function () {
      const database = await openDatabase(db.url);
      try {
        await database.knex.schema.renameTable('ledger_queue', 'ledger_queue_away');
        let error: Error | undefined;
        await database.leafReader.read(10, new Uint8Array(32)).catch((e: Error) => (error = e));
        expect(error?.message).to.match(/ledger_queue/);
        await database.knex.schema.renameTable('ledger_queue_away', 'ledger_queue');
        await new KnexInvocationStore(database.knex).append(record());
        expect(await database.leafReader.read(10, new Uint8Array(32))).to.have.length(1);
      } finally {
        await database.close();
      }
    });

    it('refuses UPDATE and DELETE on leaves, subtrees and checkpoints', async function () {
      const database = await openDatabase(db.url);
      try {
        const ledger = await KnexLedger.open(database.knex, { origin: ORIGIN });
        const store = new KnexInvocationStore(database.knex);
        for (let i = 0; i < 4; i++) await store.append(record()); // four leaves: subtrees above them exist
        await ledger.integrate();
        for (const [table, column] of [['ledger_leaves', 'leaf_hash'], ['ledger_nodes', 'hash'], ['ledger_checkpoints', 'root']] as const) {
          for (const attempt of [() => database.knex(table).update({ [column]: 'ff' }), () => database.knex(table).delete()]) {
            const error = await attempt().then(() => undefined, (e: unknown) => e);
            expect(String((error as Error | undefined)?.message), table).to.match(/ledger is append-only/);
          }
          expect(Number(((await database.knex(table).count({ n: '*' })) as Array<{ n: number }>)[0]!.n), table).to.be.greaterThan(0);
        }
      } finally {
        await database.close();
      }
    });

    if (engine === 'postgres') {
      it('builds one consistent tree when integrators in separate pools race', async function () {
        const a = await openDatabase(db.url);
        const b = await openDatabase(db.url);
        try {
          // As two service processes: each reads and builds in its own worker, and reads ahead.
          const [la, lb] = [await openAsService(a), await openAsService(b)];
          expect(la.verifierKey, 'both processes sign with the one stored key').to.equal(lb.verifierKey);
          const [ia, ib] = [new KnexInvocationStore(a.knex), new KnexInvocationStore(b.knex)];
          for (let round = 0; round < 5; round++) {
            await Promise.all([
              ...Array.from({ length: 20 }, (_, i) => (i % 2 ? ia : ib).append(record())),
              la.integrate(7),
              lb.integrate(7),
              la.integrate(),
              lb.integrate(),
            ]);
          }
          while ((await la.integrate()).integrated > 0);
          const checkpoint = await signedTree(lb);
          expect(checkpoint.size).to.equal(100);
          const leaves = await la.leaves(0, 1000);
          expect(leaves.map((l) => l.index)).to.deep.equal(Array.from({ length: 100 }, (_, i) => i));
          expect(new Set(leaves.map((l) => l.entry_id)).size).to.equal(100);
          for (const leaf of leaves) verifyInclusion(leaf.index, 100, Buffer.from(leaf.leaf_hash, 'hex'), await lb.inclusionProof(leaf.index, 100), checkpoint.root);
        } finally {
          await a.close();
          await b.close();
        }
      });
    }
  });
}
