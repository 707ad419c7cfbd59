// The OAuth stores on each engine, where their guarantees live: a code or refresh token is claimed
// by exactly one of many concurrent presentations (two connections, as two processes would), a
// grant is revoked once, and a grant's expired refresh tokens are deleted (rotation adds one per
// refresh: without pruning, a client refreshing hourly grows the table forever).
import { expect } from 'chai';
import { hashSecret, newSecret, type Claimed } from '@switchyard/core';
import { KnexOAuthCodeStore, KnexOAuthGrantStore, KnexOAuthRefreshTokenStore, openDatabase, type Database } from '@switchyard/storage-knex';
import { engines, freshDatabase, type TestDatabase } from '../support/app.js';

for (const engine of engines()) {
  describe(`OAuth stores (${engine})`, function () {
    this.timeout(30_000);
    let db: TestDatabase;
    let one: Database;
    let two: Database;

    before(async () => {
      db = await freshDatabase(engine);
      one = await openDatabase(db.url);
      two = await openDatabase(db.url);
    });
    after(async () => {
      await one?.close();
      await two?.close();
      await db?.drop();
    });

    const kinds = (results: Claimed<unknown>[]) => results.map((r) => r.kind).sort();

    it('claims a refresh token once among concurrent presentations from two connections', async () => {
      const a = new KnexOAuthRefreshTokenStore(one.knex);
      const b = new KnexOAuthRefreshTokenStore(two.knex);
      const hash = hashSecret(newSecret('syr_'));
      await a.add({ token_hash: hash, grant_id: 'gr_0123456789ab', client_id: 'cl_x', created_at: new Date().toISOString(), expires_at: Date.now() + 60_000, used_at: null });
      const at = new Date().toISOString();
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).claim(hash, at)));
      expect(kinds(results)).to.deep.equal(['claimed', ...Array(7).fill('used')]);
      expect((await a.claim(hashSecret('syr_unknown'), at)).kind).to.equal('unknown');
    });

    it('prunes the expired refresh tokens of one grant, and only those', async () => {
      const store = new KnexOAuthRefreshTokenStore(one.knex);
      const row = (grant: string, expiresAt: number, used: boolean) => ({ token_hash: hashSecret(newSecret('syr_')), grant_id: grant, client_id: 'cl_x', created_at: new Date().toISOString(), expires_at: expiresAt, used_at: used ? new Date().toISOString() : null });
      const now = Date.now();
      const expiredUsed = row('gr_prune00000001', now - 1, true);
      const expiredUnused = row('gr_prune00000001', now - 60_000, false);
      const live = row('gr_prune00000001', now + 60_000, true);
      const otherGrant = row('gr_prune00000002', now - 1, true);
      for (const r of [expiredUsed, expiredUnused, live, otherGrant]) await store.add(r);
      expect(await store.pruneExpired('gr_prune00000001', now)).to.equal(2);
      const at = new Date().toISOString();
      expect((await store.claim(expiredUsed.token_hash, at)).kind).to.equal('unknown');
      expect((await store.claim(expiredUnused.token_hash, at)).kind).to.equal('unknown');
      expect((await store.claim(live.token_hash, at)).kind, 'a used, unexpired token stays: its reuse is still detected').to.equal('used');
      expect((await store.claim(otherGrant.token_hash, at)).kind).to.equal('used');
    });

    it('claims a code once likewise, and keeps what it was bound to', async () => {
      const a = new KnexOAuthCodeStore(one.knex);
      const b = new KnexOAuthCodeStore(two.knex);
      const hash = hashSecret(newSecret('syc_'));
      await a.add({ code_hash: hash, client_id: 'cl_x', grant_id: 'gr_0123456789ab', redirect_uri: 'http://127.0.0.1/cb', code_challenge: 'c'.repeat(43), resource: 'http://sy.test/mcp', expires_at: 1_900_000_000_000, used_at: null });
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).claim(hash, new Date().toISOString())));
      expect(kinds(results)).to.deep.equal(['claimed', ...Array(7).fill('used')]);
      const claimed = results.find((r) => r.kind === 'claimed') as Extract<Claimed<{ expires_at: number; resource: string }>, { kind: 'claimed' }>;
      expect(claimed.record).to.include({ expires_at: 1_900_000_000_000, resource: 'http://sy.test/mcp' });
    });

    it('revokes a grant once; isLive reads the database each time', async () => {
      const a = new KnexOAuthGrantStore(one.knex);
      const b = new KnexOAuthGrantStore(two.knex, two.readKnex);
      await a.add({ id: 'gr_live000000001', client_id: 'cl_x', resource: 'http://sy.test/mcp', moves: ['invoke:*'], keys: ['A'], created_at: new Date().toISOString(), revoked_at: null, revoked_reason: null });
      expect(await b.isLive('gr_live000000001')).to.equal(true);
      const revoked = await Promise.all([a.revoke('gr_live000000001', new Date().toISOString(), 'owner'), b.revoke('gr_live000000001', new Date().toISOString(), 'owner')]);
      expect(revoked.filter(Boolean)).to.have.length(1);
      expect(await b.isLive('gr_live000000001')).to.equal(false);
      expect(await a.isLive('gr_nosuchgrant00')).to.equal(false);
      expect((await b.get('gr_live000000001'))?.keys).to.deep.equal(['A']);
    });
  });
}
