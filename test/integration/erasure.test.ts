// Erasure on each engine (docs/proofs.md#erasure): the payload of an invocation and a delivery is
// emptied, the erasure is a leaf of its own, every proof made before still verifies against the
// tree after, the erased fields no longer open while the others do, and the database refuses every
// other UPDATE or DELETE of the ledger, erasure's own table included.
import { expect } from 'chai';
import {
  SwitchyardError,
  erasureOf,
  leafParts,
  newWebhookId,
  noteVerifier,
  openNote,
  parseCheckpoint,
  unopenedFields,
  verifyConsistency,
  verifyInclusion,
} from '@switchyard/core';
import { KnexDeliveryStore, KnexInvocationStore, KnexLedger, openDatabase } from '@switchyard/storage-knex';
import { delivery, record } from '../contract/store.contract.js';
import { engines, freshDatabase } from '../support/app.js';

const ORIGIN = 'erasure.switchyard.test';

const codeOf = async (p: Promise<unknown>): Promise<string> => {
  try {
    await p;
  } catch (error) {
    return error instanceof SwitchyardError ? error.code : `uncoded: ${(error as Error).message}`;
  }
  throw new Error('expected a refusal');
};

const refused = async (p: Promise<unknown>): Promise<string> => {
  try {
    await p;
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the database allowed it');
};

for (const engine of engines()) {
  describe(`erasure: ${engine}`, function () {
    this.timeout(30_000);
    let db: Awaited<ReturnType<typeof freshDatabase>>;
    beforeEach(async () => (db = await freshDatabase(engine)));
    afterEach(async () => db.drop());

    it('empties the payload, logs the erasure, and every earlier proof still verifies', async function () {
      const database = await openDatabase(db.url);
      try {
        const ledger = await KnexLedger.open(database.knex, { origin: ORIGIN });
        const invocations = new KnexInvocationStore(database.knex);
        const deliveries = new KnexDeliveryStore(database.knex);
        const body = new TextEncoder().encode('{"email":"someone@example.org"}');
        const inv = await invocations.append(record({ args: { email: 'someone@example.org' } }));
        const del = await deliveries.append(delivery(newWebhookId(), { body, body_size: body.length, query: 'who=someone', headers: [['x-email', 'someone@example.org']] }));
        const other = await invocations.append(record());
        await ledger.integrate();
        const before = (await ledger.latestCheckpoint())!;
        const tree1 = parseCheckpoint(openNote(before.note, [noteVerifier(ledger.verifierKey)]).text);
        const leavesBefore = await Promise.all([['invocation', inv.id], ['delivery', del.id], ['invocation', other.id]].map(([k, id]) => ledger.leafFor(k as 'invocation', id!)));
        const proofsBefore = await Promise.all(leavesBefore.map((l) => ledger.inclusionProof(l!.index, tree1.size)));

        const erasedInv = await ledger.erase(erasureOf('invocation', inv.id, 'subject access request 17', new Date()));
        const erasedDel = await ledger.erase(erasureOf('delivery', del.id, 'subject access request 17', new Date()));
        // Twice: refused, coded, and nothing more is written.
        expect(await codeOf(ledger.erase(erasureOf('invocation', inv.id, 'again', new Date())))).to.equal('already_erased');
        expect(await codeOf(ledger.erase(erasureOf('invocation', 'inv_doesnotexist1', 'x', new Date())))).to.equal('not_found');

        // The payload is gone from the database; the public fields stay.
        const afterInv = (await invocations.get(inv.id))!;
        expect(afterInv.args).to.equal(null);
        expect(afterInv.result).to.equal(null);
        expect(afterInv).to.include({ key: inv.key, status: inv.status, created_at: inv.created_at, actor: inv.actor });
        const rawRecord = ((await database.knex('invocations').select('record').where({ id: inv.id }).first()) as { record: string }).record;
        expect(rawRecord).to.not.include('someone@example.org');
        const afterDel = (await deliveries.get(del.id))!;
        expect(afterDel).to.include({ body: null, body_sha256: null, query: '', body_size: body.length, hook_id: del.hook_id });
        expect(afterDel.headers).to.deep.equal([]);
        expect(await ledger.erasureFor(inv.id)).to.deep.equal(erasedInv);
        expect(await ledger.erasureFor(other.id)).to.equal(undefined);

        // The erasures join the tree as leaves of their own.
        expect(await ledger.integrate()).to.deep.include({ integrated: 2, size: 5 });
        const after = (await ledger.latestCheckpoint())!;
        const tree2 = parseCheckpoint(openNote(after.note, [noteVerifier(ledger.verifierKey)]).text);
        const erasureLeaf = JSON.parse((await ledger.leafFor('erasure', erasedDel.id))!.leaf) as Record<string, unknown>;
        expect(erasureLeaf).to.include({ kind: 'erasure', entry: del.id, entry_kind: 'delivery', erased_at: erasedDel.erased_at, reason_sha256: erasedDel.reason_sha256 });
        expect(erasureLeaf['fields']).to.deep.equal(['body_sha256', 'headers', 'query']);
        expect(JSON.stringify(erasureLeaf)).to.not.include('subject access');

        // Every proof made before verifies as it was; the old and new trees are consistent; each leaf is in the new tree.
        for (const [i, leaf] of leavesBefore.entries()) {
          expect((await ledger.leafFor(leaf!.kind, leaf!.entry_id))!.leaf_hash).to.equal(leaf!.leaf_hash);
          verifyInclusion(leaf!.index, tree1.size, Buffer.from(leaf!.leaf_hash, 'hex'), proofsBefore[i]!, tree1.root);
          verifyInclusion(leaf!.index, tree2.size, Buffer.from(leaf!.leaf_hash, 'hex'), await ledger.inclusionProof(leaf!.index, tree2.size), tree2.root);
        }
        verifyConsistency(tree1.size, tree2.size, await ledger.consistencyProof(tree1.size, tree2.size), tree1.root, tree2.root);
        expect((await ledger.checkpointAt(tree1.size))!.note).to.equal(before.note);

        // The erased fields no longer open; every other field still does; the untouched run opens whole.
        const invLeaf = (await ledger.leafFor('invocation', inv.id))!.leaf;
        expect(unopenedFields(invLeaf, ledger.commitmentSalt('invocation', inv.id), leafParts({ kind: 'invocation', entry: afterInv }).private)).to.deep.equal(['args', 'body', 'result']);
        const delLeaf = (await ledger.leafFor('delivery', del.id))!.leaf;
        expect(unopenedFields(delLeaf, ledger.commitmentSalt('delivery', del.id), leafParts({ kind: 'delivery', entry: afterDel }).private)).to.deep.equal(['body_sha256', 'headers', 'query']);
        const otherLeaf = (await ledger.leafFor('invocation', other.id))!.leaf;
        expect(unopenedFields(otherLeaf, ledger.commitmentSalt('invocation', other.id), leafParts({ kind: 'invocation', entry: (await invocations.get(other.id))! }).private)).to.deep.equal([]);
      } finally {
        await database.close();
      }
    });

    it('refuses to erase an entry not yet in the tree, and the database refuses every other change', async function () {
      const database = await openDatabase(db.url);
      try {
        const ledger = await KnexLedger.open(database.knex, { origin: ORIGIN });
        const invocations = new KnexInvocationStore(database.knex);
        const deliveries = new KnexDeliveryStore(database.knex);
        const inv = await invocations.append(record());
        expect(await codeOf(ledger.erase(erasureOf('invocation', inv.id, 'too soon', new Date())))).to.equal('entry_pending');
        expect(await database.knex('ledger_erasures').count({ n: '*' }).first()).to.satisfy((r: { n: unknown }) => Number(r.n) === 0);
        const del = await deliveries.append(delivery(newWebhookId(), { query: 'a=1' }));
        const other = await invocations.append(record());
        await ledger.integrate();
        const k = database.knex;

        // Not erased: no UPDATE at all, not even the one an erasure makes.
        expect(await refused(k('deliveries').where({ id: del.id }).update({ body: null, body_sha256: null, headers: '[]', query: '' }))).to.match(/append-only/);
        expect(await refused(k('invocations').where({ id: inv.id }).update({ record: '{}' }))).to.match(/append-only/);

        const erasure = await ledger.erase(erasureOf('delivery', del.id, 'asked', new Date()));
        await ledger.erase(erasureOf('invocation', inv.id, 'asked', new Date()));
        // Erased: a public column, a payload not emptied, or a record changed outside its payload are still refused.
        expect(await refused(k('deliveries').where({ id: del.id }).update({ outcome: 'refused' }))).to.match(/append-only/);
        expect(await refused(k('deliveries').where({ id: del.id }).update({ query: 'b=2' }))).to.match(/append-only/);
        const stored = JSON.parse(((await k('invocations').select('record').where({ id: inv.id }).first()) as { record: string }).record) as Record<string, unknown>;
        expect(await refused(k('invocations').where({ id: inv.id }).update({ record: JSON.stringify({ ...stored, status: 'error' }) }))).to.match(/append-only/);
        expect(await refused(k('invocations').where({ id: inv.id }).update({ record: JSON.stringify({ ...stored, args: { again: 1 } }) }))).to.match(/append-only/);
        expect(await refused(k('invocations').where({ id: inv.id }).update({ status: 'error' }))).to.match(/append-only/);
        // DELETE stays refused, erased or not, and the erasures themselves are append-only.
        expect(await refused(k('invocations').where({ id: inv.id }).delete())).to.match(/append-only/);
        expect(await refused(k('invocations').where({ id: other.id }).delete())).to.match(/append-only/);
        expect(await refused(k('deliveries').where({ id: del.id }).delete())).to.match(/append-only/);
        expect(await refused(k('ledger_erasures').where({ id: erasure.id }).update({ reason: 'other' }))).to.match(/append-only/);
        expect(await refused(k('ledger_erasures').where({ id: erasure.id }).delete())).to.match(/append-only/);
        expect((await ledger.erasureFor(del.id))!.reason).to.equal('asked');
      } finally {
        await database.close();
      }
    });
  });
}
