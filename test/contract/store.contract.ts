// The store contract: what every InvocationStore/ApiKeyStore adapter must do, run against each
// engine. `raw` is the adapter's own database handle, used to prove the ledger is append-only at
// the database level (not just in our code).
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { computeYield, newInvocationId, type ApiKeyStore, type InvocationRecord, type InvocationStore } from '@switchyard/core';

export interface StoreHarness {
  open(): Promise<{ invocations: InvocationStore; apiKeys: ApiKeyStore; raw: Knex; truncateSupported: boolean; advanceClock(ms: number): void; close(): Promise<void> }>;
}

export function record(overrides: Partial<InvocationRecord> = {}): InvocationRecord {
  return {
    id: newInvocationId(),
    key: 'TEST_ECHO',
    path: 'OIP > TEST > TEST_ECHO',
    actor: 'owner',
    fingerprint: null,
    body: '{"text":"héllo ✓"}',
    args: { text: 'héllo ✓' },
    status: 'ok',
    ok: true,
    ran: true,
    error: null,
    result: { echoed: { text: 'héllo ✓' }, nested: [1, 2, { deep: null }] },
    yield: computeYield({ bodyText: '{"text":"héllo ✓"}', resultText: '{}', ok: true, ran: true, cost: { perRunMicros: 100 }, args: {} }),
    repairs: null,
    replays: null,
    source: 'api',
    created_at: new Date().toISOString(),
    duration_ms: 3,
    ...overrides,
  };
}

const failed = (overrides: Partial<InvocationRecord> = {}): InvocationRecord =>
  record({ status: 'failed', ok: false, ran: false, result: null, error: { code: 'invalid_arguments', message: 'bad', errors: [] }, ...overrides });

export function storeContract(engine: string, harness: StoreHarness): void {
  describe(`store contract: ${engine}`, function () {
    let s: Awaited<ReturnType<StoreHarness['open']>>;
    before(async () => {
      s = await harness.open();
    });
    after(async () => s.close());

    it('reads back exactly what was appended, with its ledger position', async function () {
      const r = record();
      const stored = await s.invocations.append(r);
      expect(stored.seq).to.be.a('number').greaterThan(0);
      expect(stored.repaired_by).to.deep.equal([]);
      const read = await s.invocations.get(r.id);
      expect(read).to.deep.equal({ ...r, seq: stored.seq, repaired_by: [] });
    });

    it('answers undefined for an unknown id', async function () {
      expect(await s.invocations.get('inv_doesnotexist0000000')).to.equal(undefined);
    });

    it('lists by key in append order, paged by cursor, without other keys', async function () {
      const key = `TEST_PAGING_${engine.toUpperCase()}`;
      const ids: string[] = [];
      for (let i = 0; i < 7; i++) {
        const r = record({ key, body: String(i) });
        ids.push(r.id);
        await s.invocations.append(r);
        await s.invocations.append(record({ key: 'TEST_OTHER' }));
      }
      const seen: string[] = [];
      let after: string | null = null;
      let pages = 0;
      do {
        const page = await s.invocations.listByKey(key, { after, limit: 3 });
        seen.push(...page.items.map((i) => i.id));
        for (const item of page.items) expect(item.key).to.equal(key);
        after = page.next_cursor;
        pages += 1;
      } while (after && pages < 10);
      expect(seen).to.deep.equal(ids);
      expect(pages).to.equal(3);
      const all = await s.invocations.listByKey(key, { limit: 7 });
      expect(all.next_cursor).to.equal(null);
      expect((await s.invocations.listByKey('TEST_NO_SUCH_KEY', { limit: 5 })).items).to.deep.equal([]);
    });

    it('refuses a cursor that is not one it gave out', async function () {
      try {
        await s.invocations.listByKey('TEST_ECHO', { after: 'abc', limit: 5 });
        expect.fail('should have thrown');
      } catch (e) {
        expect((e as { code?: string }).code).to.equal('invalid_request');
      }
    });

    it('derives repaired_by from later invocations, in order, without rewriting the repaired row', async function () {
      const bad = failed();
      await s.invocations.append(bad);
      const fix1 = failed({ repairs: bad.id });
      await s.invocations.append(fix1);
      const fix2 = record({ repairs: bad.id });
      await s.invocations.append(fix2);
      const read = await s.invocations.get(bad.id);
      expect(read?.repaired_by).to.deep.equal([fix1.id, fix2.id]);
      expect(read?.status).to.equal('failed');
      const listed = (await s.invocations.listByKey('TEST_ECHO', { limit: 1000 })).items.find((i) => i.id === bad.id);
      expect(listed?.repaired_by).to.deep.equal([fix1.id, fix2.id]);
    });

    it('rejects a second record with the same id', async function () {
      const r = record();
      await s.invocations.append(r);
      let threw = false;
      try {
        await s.invocations.append(r);
      } catch {
        threw = true;
      }
      expect(threw).to.equal(true);
    });

    it('refuses UPDATE and DELETE on the ledger at the database level', async function () {
      const r = record();
      await s.invocations.append(r);
      const attempts: Array<[string, () => Promise<unknown>]> = [
        ['update', async () => s.raw('invocations').where({ id: r.id }).update({ status: 'failed' })],
        ['delete', async () => s.raw('invocations').where({ id: r.id }).delete()],
        ['delete all', async () => s.raw('invocations').delete()],
      ];
      if (s.truncateSupported) attempts.push(['truncate', async () => s.raw.raw('TRUNCATE invocations')]);
      for (const [what, attempt] of attempts) {
        let error: unknown;
        try {
          await attempt();
        } catch (e) {
          error = e;
        }
        expect(String((error as Error | undefined)?.message), what).to.match(/ledger is append-only/);
      }
      expect(await s.invocations.get(r.id)).to.deep.include({ status: 'ok', ok: true });
    });

    it('stores API keys hashed, verifies them, and ignores a repeat', async function () {
      const before = await s.apiKeys.count();
      await s.apiKeys.add('sy_contract_key_1', 'test');
      await s.apiKeys.add('sy_contract_key_1', 'test again');
      expect(await s.apiKeys.count()).to.equal(before + 1);
      expect(await s.apiKeys.verify('sy_contract_key_1')).to.equal(true);
      expect(await s.apiKeys.verify('sy_contract_key_2')).to.equal(false);
      expect(await s.apiKeys.verify('')).to.equal(false);
      const rows = await s.raw('api_keys').select('key_hash');
      for (const row of rows) expect(row.key_hash).to.match(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(rows)).not.to.contain('sy_contract_key_1');
    });

    it('asks the database again about a verified key once its cache entry expires', async function () {
      await s.apiKeys.add('sy_contract_key_ttl', 'test');
      expect(await s.apiKeys.verify('sy_contract_key_ttl')).to.equal(true);
      // Remove the row behind the store's back (api_keys is not append-only), then move time on.
      await s.raw('api_keys').where({ key_hash: createHash('sha256').update('sy_contract_key_ttl').digest('hex') }).delete();
      expect(await s.apiKeys.verify('sy_contract_key_ttl'), 'still cached').to.equal(true);
      s.advanceClock(31_000);
      expect(await s.apiKeys.verify('sy_contract_key_ttl'), 'expired, asked again').to.equal(false);
    });
  });
}
