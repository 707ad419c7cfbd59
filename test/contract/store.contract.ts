// The store contract: what every InvocationStore/ApiKeyStore adapter must do, run against each
// engine and (its invocation group) against the in-memory store of the plugin kit. `raw` is the
// adapter's own database handle, used to prove the ledger is append-only at
// the database level (not just in our code).
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import {
  computeYield,
  newDeliveryEntryId,
  newInvocationId,
  newWebhookId,
  type ApiKeyStore,
  type DeliveryRecord,
  type DeliveryStore,
  type InvocationRecord,
  type InvocationStore,
  type Page,
  type StoredDelivery,
  type StoredInvocation,
  type WebhookStore,
} from '@switchyard/core';

/** What a store adapter under test opens; the parts beyond `invocations` are needed by the groups `supports` turns on. */
export interface OpenedStores {
  invocations: InvocationStore;
  apiKeys?: ApiKeyStore;
  webhooks?: WebhookStore;
  deliveries?: DeliveryStore;
  /** The adapter's own database handle (supports.database). */
  raw?: Knex;
  truncateSupported?: boolean;
  advanceClock?(ms: number): void;
  close(): Promise<void>;
}

export interface StoreHarness {
  open(): Promise<OpenedStores>;
}

/** Optional groups, abstract-level style: an in-memory InvocationStore runs only the invocation group. */
export interface StoreSupports {
  /** Append-only enforced by the database itself, checked through `raw`. */
  database: boolean;
  apiKeys: boolean;
  webhooks: boolean;
  deliveries: boolean;
}

const EVERYTHING: StoreSupports = { database: true, apiKeys: true, webhooks: true, deliveries: true };

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
    request_id: null,
    ...overrides,
  };
}

export function delivery(hookId: string, overrides: Partial<DeliveryRecord> = {}): DeliveryRecord {
  const body = new TextEncoder().encode('{"id":"evt_1"}');
  return {
    id: newDeliveryEntryId(),
    hook_id: hookId,
    received_at: new Date().toISOString(),
    method: 'POST',
    path: `/hook/${hookId}`,
    query: '',
    headers: [['Content-Type', 'application/json'], ['X-Dup', 'a'], ['x-dup', 'b']],
    body,
    body_size: body.length,
    client_address: '127.0.0.1',
    delivery_id: null,
    delivery_id_rule: null,
    event_type: null,
    event_type_rule: null,
    signature: null,
    outcome: 'accepted',
    refusal: null,
    action: null,
    request_id: null,
    ...overrides,
  };
}

const failed = (overrides: Partial<InvocationRecord> = {}): InvocationRecord =>
  record({ status: 'failed', ok: false, ran: false, result: null, error: { code: 'invalid_arguments', message: 'bad', errors: [] }, ...overrides });

export function storeContract(engine: string, harness: StoreHarness, supports: StoreSupports = EVERYTHING): void {
  describe(`store contract: ${engine}`, function () {
    let s: OpenedStores;
    before(async () => {
      s = await harness.open();
    });
    after(async () => s.close());
    /** The knex delivery store's count of batches retried one by one (group-commit.ts). */
    const batchFallbacks = () => (s.deliveries! as DeliveryStore & { batchFallbacks: number }).batchFallbacks;

    it('reads back exactly what was appended, with its ledger position', async function () {
      const r = record();
      const stored = await s.invocations.append(r);
      expect(stored.seq).to.be.a('number').greaterThan(0);
      expect(stored.repaired_by).to.deep.equal([]);
      const read = await s.invocations.get(r.id);
      expect(read).to.deep.equal({ ...r, seq: stored.seq, repaired_by: [] });
    });

    it('keeps the request id of a record, and null for one made outside a request', async function () {
      const within = record({ request_id: 'edge-4711.3' });
      const outside = record();
      await Promise.all([s.invocations.append(within), s.invocations.append(outside)]);
      expect((await s.invocations.get(within.id))!.request_id).to.equal('edge-4711.3');
      expect((await s.invocations.get(outside.id))!.request_id).to.equal(null);
      if (supports.database) {
        const column = await s.raw!('invocations').select('id', 'request_id').whereIn('id', [within.id, outside.id]);
        expect(Object.fromEntries(column.map((r: { id: string; request_id: string | null }) => [r.id, r.request_id]))).to.deep.equal({ [within.id]: 'edge-4711.3', [outside.id]: null });
      }
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
      for (const order of ['append', 'newest'] as const) {
        const seen: string[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          const page: Page<StoredInvocation> = await s.invocations.list({ key, order, cursor, limit: 3 });
          seen.push(...page.items.map((i) => i.id));
          for (const item of page.items) expect(item.key).to.equal(key);
          cursor = page.next_cursor;
          pages += 1;
        } while (cursor && pages < 10);
        expect(seen).to.deep.equal(order === 'append' ? ids : [...ids].reverse());
        expect(pages).to.equal(3);
      }
      const all = await s.invocations.list({ key, order: 'append', cursor: null, limit: 7 });
      expect(all.next_cursor).to.equal(null);
      expect((await s.invocations.list({ key: 'TEST_NO_SUCH_KEY', order: 'newest', cursor: null, limit: 5 })).items).to.deep.equal([]);
      // Without a key: every invocation, the other keys' among them, newest first.
      const everything = await s.invocations.list({ order: 'newest', cursor: null, limit: 2 });
      expect(everything.items.map((i) => i.key)).to.deep.equal(['TEST_OTHER', key]);
      expect(everything.items[0]!.seq).to.be.greaterThan(everything.items[1]!.seq);
    });

    it('refuses a cursor that is not one it gave out', async function () {
      try {
        await s.invocations.list({ key: 'TEST_ECHO', order: 'append', cursor: 'abc', limit: 5 });
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
      const listed = (await s.invocations.list({ key: 'TEST_ECHO', order: 'append', cursor: null, limit: 1000 })).items.find((i) => i.id === bad.id);
      expect(listed?.repaired_by).to.deep.equal([fix1.id, fix2.id]);
    });

    it('reads a repair chain down from a failure, in append order, with each link ok or not', async function () {
      const bad = failed();
      await s.invocations.append(bad);
      const fix1 = failed({ repairs: bad.id });
      await s.invocations.append(fix1);
      await s.invocations.append(failed());
      const fix2 = record({ repairs: fix1.id });
      await s.invocations.append(fix2);
      const chain = await s.invocations.repairChain(bad.id);
      expect(chain.map(({ id, repairs, ok, status }) => ({ id, repairs, ok, status }))).to.deep.equal([
        { id: fix1.id, repairs: bad.id, ok: false, status: 'failed' },
        { id: fix2.id, repairs: fix1.id, ok: true, status: 'ok' },
      ]);
      expect(chain[0]!.seq).to.be.a('number').lessThan(chain[1]!.seq);
      expect((await s.invocations.repairChain(fix1.id)).map((l) => l.id)).to.deep.equal([fix2.id]);
      expect(await s.invocations.repairChain(fix2.id)).to.deep.equal([]);
      expect(await s.invocations.repairChain('inv_doesnotexist0000000')).to.deep.equal([]);
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

    if (supports.database) {
      it('refuses UPDATE and DELETE on the ledger at the database level', async function () {
        const r = record();
        await s.invocations.append(r);
        const attempts: Array<[string, () => Promise<unknown>]> = [
          ['update', async () => s.raw!('invocations').where({ id: r.id }).update({ status: 'failed' })],
          ['delete', async () => s.raw!('invocations').where({ id: r.id }).delete()],
          ['delete all', async () => s.raw!('invocations').delete()],
        ];
        if (s.truncateSupported) attempts.push(['truncate', async () => s.raw!.raw('TRUNCATE invocations')]);
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
    }

    if (supports.apiKeys) {
      it('stores API keys hashed, verifies them, and ignores a repeat', async function () {
        const before = await s.apiKeys!.count();
        await s.apiKeys!.add('sy_contract_key_1', 'test');
        await s.apiKeys!.add('sy_contract_key_1', 'test again');
        expect(await s.apiKeys!.count()).to.equal(before + 1);
        expect(await s.apiKeys!.verify('sy_contract_key_1')).to.equal(true);
        expect(await s.apiKeys!.verify('sy_contract_key_2')).to.equal(false);
        expect(await s.apiKeys!.verify('')).to.equal(false);
        const rows = await s.raw!('api_keys').select('key_hash');
        for (const row of rows) expect(row.key_hash).to.match(/^[0-9a-f]{64}$/);
        expect(JSON.stringify(rows)).not.to.contain('sy_contract_key_1');
      });

      it('asks the database again about a verified key once its cache entry expires', async function () {
        await s.apiKeys!.add('sy_contract_key_ttl', 'test');
        expect(await s.apiKeys!.verify('sy_contract_key_ttl')).to.equal(true);
        // Remove the row behind the store's back (api_keys is not append-only), then move time on.
        await s.raw!('api_keys').where({ key_hash: createHash('sha256').update('sy_contract_key_ttl').digest('hex') }).delete();
        expect(await s.apiKeys!.verify('sy_contract_key_ttl'), 'still cached').to.equal(true);
        s.advanceClock!(31_000);
        expect(await s.apiKeys!.verify('sy_contract_key_ttl'), 'expired, asked again').to.equal(false);
      });
    }

    if (supports.webhooks) {
      it('creates, reads, lists and updates webhooks', async function () {
        const now = new Date().toISOString();
        const hook = await s.webhooks!.create({ id: newWebhookId(), name: 'github', on: true, delivery_id_path: null, event_type_path: null, signature: null, retention_private_days: null, created_at: now, updated_at: now });
        expect(await s.webhooks!.get(hook.id)).to.deep.equal(hook);
        const off = await s.webhooks!.update(hook.id, { on: false, delivery_id_path: 'data.id', event_type_path: 'header:x-kind' }, now);
        expect(off).to.deep.include({ on: false, delivery_id_path: 'data.id', event_type_path: 'header:x-kind', name: 'github' });
        expect((await s.webhooks!.list()).map((w) => w.id)).to.include(hook.id);
        const signed = await s.webhooks!.update(hook.id, { signature: { scheme: 'github', secret: 's3cret-value', header: null, require: true, tolerance_s: null } }, now);
        expect(signed!.signature).to.deep.equal({ scheme: 'github', secret: 's3cret-value', header: null, require: true, tolerance_s: null });
        const windowed = await s.webhooks!.update(hook.id, { signature: { scheme: 'paddle', secret: 'pdl_ntfset_secret', header: null, require: false, tolerance_s: 30 } }, now);
        expect(windowed!.signature).to.deep.equal({ scheme: 'paddle', secret: 'pdl_ntfset_secret', header: null, require: false, tolerance_s: 30 });
        expect((await s.webhooks!.update(hook.id, { event_type_path: null }, now))!.event_type_path).to.equal(null);
        expect((await s.webhooks!.update(hook.id, { signature: null }, now))!.signature).to.equal(null);
        expect((await s.webhooks!.update(hook.id, { retention_private_days: 0.5 }, now))!.retention_private_days, 'a fraction of a day reads back as stored').to.equal(0.5);
        expect((await s.webhooks!.get(hook.id))!.retention_private_days).to.equal(0.5);
        expect((await s.webhooks!.update(hook.id, { retention_private_days: null }, now))!.retention_private_days).to.equal(null);
        expect(await s.webhooks!.update('hk_doesnotexist', { on: true }, now)).to.equal(undefined);
        expect(await s.webhooks!.get('hk_doesnotexist')).to.equal(undefined);
      });
    }

    if (supports.deliveries) {
      it('keeps a delivery whole: every byte of the body and every header as received', async function () {
        const hook = newWebhookId();
        const bytes = new Uint8Array(256).map((_, i) => i);
        const d = delivery(hook, { body: bytes, body_size: 256, headers: [['X-A', '1'], ['x-a', '2'], ['Content-Type', 'application/octet-stream']] });
        const stored = await s.deliveries!.append(d);
        expect(stored).to.include({ duplicate: false, duplicate_of: null });
        const read = (await s.deliveries!.get(d.id))!;
        expect(Buffer.from(read.body!).equals(Buffer.from(bytes))).to.equal(true);
        expect(read.headers).to.deep.equal([['X-A', '1'], ['x-a', '2'], ['Content-Type', 'application/octet-stream']]);
        expect(read).to.include({ hook_id: hook, method: 'POST', outcome: 'accepted', seq: stored.seq });
        const empty = delivery(hook, { body: new Uint8Array(), body_size: 0 });
        await s.deliveries!.append(empty);
        expect((await s.deliveries!.get(empty.id))!.body).to.deep.equal(new Uint8Array());
      });

      it('stores each body\'s SHA-256 and lists a body over the inline threshold by size and hash, its bytes read by slices', async function () {
        const hook = newWebhookId();
        const big = new Uint8Array(5000).map((_, i) => (i * 7) % 256);
        const small = new TextEncoder().encode('{"id":"evt_small"}');
        const bigSha = createHash('sha256').update(big).digest('hex');
        const stored = await s.deliveries!.append(delivery(hook, { body: big, body_size: big.byteLength }));
        expect(stored).to.include({ body_sha256: bigSha, body_omitted: false });
        await s.deliveries!.append(delivery(hook, { body: small, body_size: small.byteLength }));
        await s.deliveries!.append(delivery(hook, { body: null, body_size: 99_999_999, outcome: 'refused', refusal: { code: 'payload_too_large', message: 'too large' } }));
        const [refused, listedSmall, listedBig] = (await s.deliveries!.list({ hookId: hook, order: 'newest', cursor: null, limit: 10, inlineBodyBytes: 4096 })).items;
        expect(listedBig).to.include({ id: stored.id, body: null, body_omitted: true, body_size: 5000, body_sha256: bigSha });
        expect(listedSmall).to.include({ body_omitted: false, body_sha256: createHash('sha256').update(small).digest('hex') });
        expect(Buffer.from(listedSmall!.body!).toString()).to.equal('{"id":"evt_small"}');
        expect(refused).to.include({ body: null, body_omitted: false, body_sha256: null, body_size: 99_999_999 });
        // One read with the same threshold; without one, the body whole.
        expect(await s.deliveries!.get(stored.id, { inlineBodyBytes: 4096 })).to.include({ body: null, body_omitted: true, body_sha256: bigSha });
        expect(Buffer.from((await s.deliveries!.get(stored.id))!.body!).equals(Buffer.from(big))).to.equal(true);
        // Slices put back together are the body, byte for byte; past the end, nothing.
        const parts: Uint8Array[] = [];
        for (let offset = 0; offset < 5000; offset += 1024) parts.push((await s.deliveries!.readBody(stored.id, offset, 1024))!);
        expect(parts.map((p) => p.byteLength)).to.deep.equal([1024, 1024, 1024, 1024, 904]);
        expect(Buffer.concat(parts).equals(Buffer.from(big))).to.equal(true);
        expect((await s.deliveries!.readBody(stored.id, 5000, 1024))!.byteLength).to.equal(0);
        expect(await s.deliveries!.readBody(refused!.id, 0, 1024)).to.equal(undefined);
        expect(await s.deliveries!.readBody('dlv_doesnotexist', 0, 1024)).to.equal(undefined);
      });

      it('marks a repeated delivery id as a duplicate of the first, per webhook, and keeps it', async function () {
        const hook = newWebhookId();
        const first = await s.deliveries!.append(delivery(hook, { delivery_id: 'evt_1', delivery_id_rule: 'body:id' }));
        const again = await s.deliveries!.append(delivery(hook, { delivery_id: 'evt_1', delivery_id_rule: 'body:id' }));
        expect(first.duplicate).to.equal(false);
        expect(again).to.include({ duplicate: true, duplicate_of: first.id });
        expect((await s.deliveries!.get(again.id))!).to.include({ duplicate: true, duplicate_of: first.id });
        const elsewhere = await s.deliveries!.append(delivery(newWebhookId(), { delivery_id: 'evt_1' }));
        expect(elsewhere.duplicate, 'another webhook').to.equal(false);
        const noId1 = await s.deliveries!.append(delivery(hook));
        const noId2 = await s.deliveries!.append(delivery(hook));
        expect([noId1.duplicate, noId2.duplicate], 'no id is never a duplicate').to.deep.equal([false, false]);
      });

      it('lets a refusal neither claim an id nor count as its first', async function () {
        const hook = newWebhookId();
        const refused = await s.deliveries!.append(delivery(hook, { delivery_id: 'evt_r', outcome: 'refused', refusal: { code: 'webhook_off', message: 'off' } }));
        const accepted = await s.deliveries!.append(delivery(hook, { delivery_id: 'evt_r' }));
        expect(refused.duplicate).to.equal(false);
        expect(accepted.duplicate).to.equal(false);
        expect((await s.deliveries!.get(refused.id))!.refusal).to.deep.equal({ code: 'webhook_off', message: 'off' });
      });

      it('decides concurrent deliveries with one id atomically: exactly one first', async function () {
        const hook = newWebhookId();
        const results = await Promise.all(Array.from({ length: 25 }, () => s.deliveries!.append(delivery(hook, { delivery_id: 'evt_race' }))));
        const firsts = results.filter((r) => !r.duplicate);
        expect(firsts).to.have.length(1);
        for (const r of results) if (r.duplicate) expect(r.duplicate_of).to.equal(firsts[0]!.id);
      });

      it('fails only the bad delivery of a concurrent batch, and keeps accepting after it', async function () {
        const hook = newWebhookId();
        const taken = await s.deliveries!.append(delivery(hook));
        const fallbacks = batchFallbacks();
        const batch = [delivery(hook, { delivery_id: 'evt_b1' }), delivery(hook, { id: taken.id }), delivery(hook, { delivery_id: 'evt_b1' }), delivery(hook)];
        const settled = await Promise.allSettled(batch.map((d) => s.deliveries!.append(d)));
        expect(batchFallbacks(), 'the failed batch was stored one by one').to.equal(fallbacks + 1);
        expect(settled.map((r) => r.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
        const [first, , again] = settled.map((r) => (r.status === 'fulfilled' ? r.value : undefined));
        expect(first).to.include({ duplicate: false });
        expect(again).to.include({ duplicate: true, duplicate_of: first!.id });
        const after = await s.deliveries!.append(delivery(hook, { delivery_id: 'evt_b2' }));
        expect(await s.deliveries!.get(after.id)).to.include({ delivery_id: 'evt_b2', duplicate: false });
      });

      it('stores every field of a concurrent batch whose rows differ in which fields are empty', async function () {
        const hook = newWebhookId();
        // One batch statement: columns empty in every row are written as NULL, the rest bound per row.
        const batch = [
          delivery(hook),
          delivery(hook, { signature: 'verified', delivery_id: 'evt_m1', delivery_id_rule: 'header:webhook-id', request_id: '0b6c5f0e-6d1a-4c4e-9a57-1f2d3c4b5a69', event_type: 'invoice.paid', event_type_rule: 'body:type' }),
          delivery(hook, { outcome: 'refused', refusal: { code: 'webhook_off', message: 'off' }, action: 'WEB_FETCH' }),
          delivery(hook, { body: null, body_size: 11 * 1024 * 1024, client_address: null, outcome: 'refused', refusal: { code: 'payload_too_large', message: 'big' } }),
          delivery(hook, { body: new Uint8Array(), body_size: 0, query: 'a=1&a=2' }),
          delivery(hook, { delivery_id: 'evt_m1' }),
        ];
        const fallbacks = batchFallbacks();
        const stored = await Promise.all(batch.map((d) => s.deliveries!.append(d)));
        // A failed batch is retried one delivery at a time, which would hide a bad batch statement.
        expect(batchFallbacks(), 'the batch went in as one statement').to.equal(fallbacks);
        expect(stored[5]).to.include({ duplicate: true, duplicate_of: batch[1]!.id });
        for (const [i, d] of batch.entries()) {
          const read = (await s.deliveries!.get(d.id))!;
          const { body, ...fields } = d;
          expect(read, `row ${i}`).to.deep.include({ ...fields, seq: stored[i]!.seq });
          expect(read.body === null ? null : Buffer.from(read.body).toString('hex'), `row ${i} body`).to.equal(body === null ? null : Buffer.from(body).toString('hex'));
        }
      });

      it('answers each delivery of a batch with its own ledger position, in arrival order', async function () {
        const hook = newWebhookId();
        const batch = Array.from({ length: 40 }, (_, i) => delivery(hook, { delivery_id: `evt_o${i % 10}` }));
        const stored = await Promise.all(batch.map((d) => s.deliveries!.append(d)));
        expect(stored.map((d) => d.id)).to.deep.equal(batch.map((d) => d.id));
        expect(new Set(stored.map((d) => d.seq)).size).to.equal(40);
        expect(stored.filter((d) => !d.duplicate).map((d) => d.delivery_id)).to.deep.equal(Array.from({ length: 10 }, (_, i) => `evt_o${i}`));
        for (const d of stored) expect((await s.deliveries!.get(d.id))!.seq).to.equal(d.seq);
      });

      it('lists deliveries newest first, per webhook, paged by cursor, with their action runs', async function () {
        const hook = newWebhookId();
        const ids: string[] = [];
        for (let i = 0; i < 5; i++) {
          const d = delivery(hook, { action: i === 4 ? 'TEST_ECHO' : null });
          ids.push(d.id);
          await s.deliveries!.append(d);
          await s.deliveries!.append(delivery(newWebhookId()));
        }
        await s.deliveries!.appendAction({ delivery: ids[4]!, action: 'TEST_ECHO', invocation: 'inv_x', ok: true, status: 'ok', answer: { status: 200, body: { ok: true } }, created_at: new Date().toISOString() });
        const seen: string[] = [];
        let before: string | null = null;
        do {
          const page: Page<StoredDelivery> = await s.deliveries!.list({ hookId: hook, order: 'newest', cursor: before, limit: 2, inlineBodyBytes: 1024 });
          seen.push(...page.items.map((d) => d.id));
          before = page.next_cursor;
        } while (before);
        expect(seen).to.deep.equal([...ids].reverse());
        const newest = (await s.deliveries!.list({ hookId: hook, order: 'newest', cursor: null, limit: 1, inlineBodyBytes: 1024 })).items[0]!;
        expect(newest.action_run).to.deep.include({ invocation: 'inv_x', ok: true, answer: { status: 200, body: { ok: true } } });
        expect((await s.deliveries!.list({ order: 'newest', cursor: null, limit: 3, inlineBodyBytes: 1024 })).items).to.have.length(3);
      });

      it('lists deliveries of one event type, per webhook or across them, paged by cursor', async function () {
        const [hook, other] = [newWebhookId(), newWebhookId()];
        const pushes: string[] = [];
        for (let i = 0; i < 5; i++) {
          const d = delivery(hook, { event_type: 'push', event_type_rule: 'header:x-github-event' });
          pushes.push(d.id);
          await s.deliveries!.append(d);
          await s.deliveries!.append(delivery(hook, { event_type: 'pull_request', event_type_rule: 'header:x-github-event' }));
          await s.deliveries!.append(delivery(hook));
        }
        const elsewhere = await s.deliveries!.append(delivery(other, { event_type: 'push', event_type_rule: 'header:x-github-event' }));
        const seen: string[] = [];
        let before: string | null = null;
        do {
          const page: Page<StoredDelivery> = await s.deliveries!.list({ hookId: hook, eventType: 'push', order: 'newest', cursor: before, limit: 2, inlineBodyBytes: 1024 });
          seen.push(...page.items.map((d) => d.id));
          before = page.next_cursor;
        } while (before);
        expect(seen).to.deep.equal([...pushes].reverse());
        const read = (await s.deliveries!.get(pushes[0]!))!;
        expect(read).to.include({ event_type: 'push', event_type_rule: 'header:x-github-event' });
        // Across webhooks, in append order: this test's pushes and the other webhook's.
        const across = (await s.deliveries!.list({ eventType: 'push', order: 'newest', cursor: null, limit: 1000, inlineBodyBytes: 0 })).items.map((d) => d.id);
        expect(across).to.include.members([...pushes, elsewhere.id]);
        expect((await s.deliveries!.list({ hookId: hook, eventType: 'Push', order: 'newest', cursor: null, limit: 10, inlineBodyBytes: 0 })).items, 'the exact type, in its case').to.deep.equal([]);
      });

      it('counts deliveries by event type, most frequent first, ties by name, the rest left out past the limit', async function () {
        const [hook, other] = [newWebhookId(), newWebhookId()];
        const send = async (id: string, type: string | null, n: number) => {
          for (let i = 0; i < n; i++) await s.deliveries!.append(delivery(id, { event_type: type, event_type_rule: type === null ? null : 'body:type' }));
        };
        await send(hook, 'order.paid', 3);
        await send(hook, 'order.created', 2);
        await send(hook, 'a.tie', 2);
        await send(hook, null, 1);
        await send(other, 'order.paid', 4);
        expect(await s.deliveries!.countEventTypes({ hookId: hook, limit: 10 })).to.deep.equal({
          items: [{ event_type: 'order.paid', count: 3 }, { event_type: 'a.tie', count: 2 }, { event_type: 'order.created', count: 2 }, { event_type: null, count: 1 }],
          more: false,
        });
        expect(await s.deliveries!.countEventTypes({ hookId: hook, limit: 2 })).to.deep.equal({ items: [{ event_type: 'order.paid', count: 3 }, { event_type: 'a.tie', count: 2 }], more: true });
        const all = await s.deliveries!.countEventTypes({ limit: 200 });
        expect(all.items.find((c) => c.event_type === 'order.paid')!.count, 'across webhooks').to.be.at.least(7);
        expect(await s.deliveries!.countEventTypes({ hookId: newWebhookId(), limit: 10 })).to.deep.equal({ items: [], more: false });
      });

      it('refuses UPDATE and DELETE on deliveries and action records', async function () {
        const d = delivery(newWebhookId(), { delivery_id: 'evt_ro' });
        await s.deliveries!.append(d);
        await s.deliveries!.appendAction({ delivery: d.id, action: 'EDGE_X', invocation: 'inv_ro', ok: true, status: 'succeeded', answer: { status: 200, body: {} }, created_at: new Date().toISOString() });
        for (const [table, where] of [['deliveries', { id: d.id }], ['webhook_actions', { delivery: d.id }]] as const) {
          for (const attempt of [() => s.raw!(table).where(where).update({ seq: 0 }), () => s.raw!(table).where(where).delete()]) {
            let error: unknown;
            try {
              await attempt();
            } catch (e) {
              error = e;
            }
            expect(String((error as Error | undefined)?.message), table).to.match(/ledger is append-only/);
          }
        }
      });
    }
  });
}
