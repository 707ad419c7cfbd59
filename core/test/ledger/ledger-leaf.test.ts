import { expect } from 'chai';
import { buildLeaf, canonicalJson, commitment, commitmentSalt, fieldCommitment, leafParts, opensCommitment, publicFieldsDiffering, unopenedFields, type StoredInvocation } from '../../src/index.js';

const KEY = new Uint8Array(32).fill(3);
const inv: StoredInvocation = {
  id: 'inv_leafTest0001',
  seq: 1,
  key: 'EDGE_SET',
  path: 'OIP > EDGE > EDGE_SET',
  actor: 'bot-1',
  fingerprint: null,
  body: '{"w":"a"}',
  args: { w: 'a' },
  status: 'ok',
  ok: true,
  ran: true,
  error: null,
  result: { done: true },
  yield: {} as StoredInvocation['yield'],
  repairs: null,
  replays: null,
  repaired_by: [],
  source: 'api',
  created_at: '2026-11-28T00:00:00.000Z',
  duration_ms: 3,
  request_id: null,
} as unknown as StoredInvocation;

describe('core: ledger leaves', () => {
  const salt = commitmentSalt(KEY, 'invocation', inv.id);
  const parts = leafParts({ kind: 'invocation', entry: inv });

  it('commits to each private field of an invocation or delivery on its own (version 2)', () => {
    const leaf = JSON.parse(buildLeaf(parts, salt).text) as Record<string, any>;
    expect(leaf).to.include({ v: 2, kind: 'invocation', id: inv.id, status: 'ok' }).and.not.have.property('commitment');
    expect(leaf['commitments']).to.deep.equal(Object.fromEntries(Object.keys(parts.private).sort().map((f) => [f, fieldCommitment(salt, f, parts.private[f])])));
  });

  it('names each private field an opening does not open, and each public field that differs', () => {
    const text = buildLeaf(parts, salt).text;
    expect(unopenedFields(text, salt, parts.private)).to.deep.equal([]);
    expect(opensCommitment(text, salt, parts.private)).to.equal(true);
    expect(unopenedFields(text, salt, { ...parts.private, result: { done: false }, body: '{"w":"b"}' })).to.deep.equal(['body', 'result']);
    const { source: _dropped, ...without } = parts.private;
    expect(unopenedFields(text, salt, { ...without, extra: 1 })).to.deep.equal(['extra', 'source']);
    expect(unopenedFields(text, commitmentSalt(KEY, 'invocation', 'inv_other000001'), parts.private)).to.have.length(Object.keys(parts.private).length);
    expect(publicFieldsDiffering(text, parts.public)).to.deep.equal([]);
    expect(publicFieldsDiffering(text, { ...parts.public, ok: false, status: 'failed' })).to.deep.equal(['ok', 'status']);
  });

  it('still opens a version 1 leaf (one commitment), saying only "private fields" when it does not', () => {
    const fields: Record<string, unknown> = { v: 1, kind: 'invocation', id: inv.id, ...parts.public, commitment: commitment(salt, parts.private) };
    const v1 = canonicalJson(Object.fromEntries(Object.keys(fields).sort().map((k) => [k, fields[k]])));
    expect(unopenedFields(v1, salt, parts.private)).to.deep.equal([]);
    expect(unopenedFields(v1, salt, { ...parts.private, result: 'forged' })).to.deep.equal(['private fields']);
  });

  it('keeps other kinds at version 1', () => {
    const use = { id: 'use_x', fingerprint: 'fp_1', move: 'explain', outcome: 'allowed' as const, code: null, route: 'GET /x', at: '2026-11-28T00:00:00.000Z' };
    const leaf = JSON.parse(buildLeaf(leafParts({ kind: 'token_use', entry: use }), 's').text) as Record<string, unknown>;
    expect(leaf).to.include({ v: 1, kind: 'token_use' }).and.have.property('commitment');
  });
});
