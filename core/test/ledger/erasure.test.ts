import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { ERASABLE_FIELDS, ERASURE_ID_PATTERN, SwitchyardError, buildLeaf, commitmentSalt, erasableKindOf, erasedInvocationRecord, erasureOf, erasureReason, leafParts, readWebhookChanges, retentionPlan, unopenedFields } from '../../src/index.js';

const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    if (error instanceof SwitchyardError) return error.code;
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('erasure rules', () => {
  it('erases only invocations and deliveries, by their ids', () => {
    expect(erasableKindOf('inv_abcdefgh12')).to.equal('invocation');
    expect(erasableKindOf('dlv_abcdefgh12')).to.equal('delivery');
    for (const id of ['tdp_abcdefgh12', 'ers_abcdefghijklmnopqrst', 'inv_', 'nonsense', '']) expect(codeOf(() => erasableKindOf(id)), id).to.equal('not_erasable');
  });

  it('takes a reason of 1 to 500 characters, and nothing else', () => {
    expect(erasureReason('asked by the data subject')).to.equal('asked by the data subject');
    for (const bad of [undefined, null, 3, '', '   ', 'x'.repeat(501), ['x']]) expect(codeOf(() => erasureReason(bad)), String(bad)).to.equal('invalid_request');
  });

  it("makes an entry naming the erased fields, when, and the reason's SHA-256", () => {
    const at = new Date('2026-11-28T03:00:00Z');
    const e = erasureOf('delivery', 'dlv_abcdefgh12', 'why', at);
    expect(e.id).to.match(ERASURE_ID_PATTERN);
    expect(e).to.include({ entry_kind: 'delivery', entry: 'dlv_abcdefgh12', reason: 'why', erased_at: '2026-11-28T03:00:00.000Z' });
    expect(e.reason_sha256).to.equal(`sha256:${createHash('sha256').update('why').digest('hex')}`);
    expect(e.fields).to.deep.equal([...ERASABLE_FIELDS.delivery]);
    expect(erasureOf('delivery', 'dlv_abcdefgh12', 'why', at).id).to.not.equal(e.id);
    // Its leaf is public but for the reason, which only its hash shows.
    const leaf = buildLeaf(leafParts({ kind: 'erasure', entry: e }), commitmentSalt(new Uint8Array(32), 'erasure', e.id)).text;
    expect(JSON.parse(leaf)).to.include({ v: 1, kind: 'erasure', id: e.id, entry: 'dlv_abcdefgh12', entry_kind: 'delivery', reason_sha256: e.reason_sha256 });
    expect(leaf).to.not.contain('"why"');
  });

  it('empties exactly the erasable fields of an invocation record: they stop opening its leaf, the others still open', () => {
    const inv = { id: 'inv_abcdefgh12', seq: 1, key: 'K', actor: 'bot', fingerprint: null, body: '{"a":1}', args: { a: 1 }, status: 'ok', ok: true, ran: true, result: { b: 2 }, error: null, source: 'api', created_at: '2026-11-28T00:00:00.000Z', duration_ms: 1, repairs: null, replays: null, repaired_by: [] } as never;
    const salt = commitmentSalt(new Uint8Array(32).fill(1), 'invocation', 'inv_abcdefgh12');
    const leaf = buildLeaf(leafParts({ kind: 'invocation', entry: inv }), salt).text;
    const erased = erasedInvocationRecord(inv) as Record<string, unknown>;
    expect(erased).to.include({ args: null, body: null, result: null, actor: 'bot', status: 'ok', error: null, source: 'api' });
    expect(erased).to.not.have.any.keys('content', 'logs', 'structured_content');
    expect(unopenedFields(leaf, salt, leafParts({ kind: 'invocation', entry: erased as never }).private)).to.deep.equal(['args', 'body', 'result']);
  });
});

describe('retention per webhook', () => {
  it('gives a webhook with its own days its own sweep and keeps its deliveries out of the global one', () => {
    const hooks = [
      { id: 'hk_AAAAAAAAAAAA', retention_private_days: 1 },
      { id: 'hk_BBBBBBBBBBBB', retention_private_days: null },
      { id: 'hk_CCCCCCCCCCCC', retention_private_days: 400 },
    ];
    expect(retentionPlan(30, hooks)).to.deep.equal({
      global: { days: 30, exceptHooks: ['hk_AAAAAAAAAAAA', 'hk_CCCCCCCCCCCC'] },
      hooks: [{ hook: 'hk_AAAAAAAAAAAA', days: 1 }, { hook: 'hk_CCCCCCCCCCCC', days: 400 }],
    });
    // No global setting: only the webhooks that set their own erase anything.
    expect(retentionPlan(null, hooks).global).to.equal(null);
    expect(retentionPlan(null, hooks).hooks).to.have.length(2);
  });

  it('reads retention_private_days as days above 0 or null, and refuses the rest coded', () => {
    expect(readWebhookChanges({ retention_private_days: 0.5 }, false)).to.deep.equal({ retention_private_days: 0.5 });
    expect(readWebhookChanges({ retention_private_days: null }, false)).to.deep.equal({ retention_private_days: null });
    for (const bad of [0, -2, '7', Number.NaN, 36_501, {}]) {
      expect(() => readWebhookChanges({ retention_private_days: bad }, false), String(bad)).to.throw(SwitchyardError, 'retention_private_days');
    }
  });
});
