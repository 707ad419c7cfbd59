import { expect } from 'chai';
import {
  KEYLESS_ID_PREFIX,
  OWNER_ID_PREFIX,
  actorLabel,
  callerOf,
  denialOf,
  invocationView,
  leafParts,
  mayInvoke,
  mayReadServer,
  mayRunAuthRequired,
  mintToken,
  narrowToken,
  ownsDelivery,
  ownsInvocation,
  requireOwnInvocation,
  verifyToken,
  SwitchyardError,
  type Principal,
  type StoredInvocation,
} from '../../src/index.js';

const ROOT = { kid: 'p', secret: new Uint8Array(32).fill(3) };
const NOW = 1_800_000_000;
const token = (id: string, caveats: Parameters<typeof mintToken>[1]): Principal & { kind: 'token' } => ({ kind: 'token', scope: verifyToken(mintToken(ROOT, caveats, id), [ROOT], NOW) });
const narrowed = (id: string, caveats: Parameters<typeof mintToken>[1], narrowing: Parameters<typeof narrowToken>[1]): Principal & { kind: 'token' } => ({
  kind: 'token',
  scope: verifyToken(narrowToken(mintToken(ROOT, caveats, id), narrowing), [ROOT], NOW),
});

const OWNER: Principal = { kind: 'owner' };
const PUBLIC: Principal = { kind: 'public' };
const HOOK: Principal = { kind: 'hook', hookId: 'hk_abcdefabcdef' };
const START = token(`${KEYLESS_ID_PREFIX}start`, { moves: ['contract:read', 'confirm:read', 'receipt:read', 'explain', 'invoke:*'], keys: ['EDGE_X', 'GROUP_Y'], purpose: 'start' });
const CHILD = narrowed(`${KEYLESS_ID_PREFIX}start`, { moves: ['contract:read', 'confirm:read', 'receipt:read', 'explain', 'invoke:*'], keys: ['EDGE_X', 'GROUP_Y'], purpose: 'start' }, { keys: ['GROUP_Y'] });
const STRANGER = token(`${KEYLESS_ID_PREFIX}other`, { moves: ['receipt:read', 'invoke:*'], keys: ['EDGE_X'] });
const OBSERVER = token(`${KEYLESS_ID_PREFIX}obs`, { moves: ['contract:read', 'confirm:read', 'ledger:read', 'explain'], workspace: 'default', role: 'observer' });
const OWNERS_TOKEN = token(`${OWNER_ID_PREFIX}minted`, { moves: ['invoke:*', 'receipt:read'] });

const invocation = (over: Partial<StoredInvocation>): StoredInvocation => ({
  id: 'inv_aaaaaaaaaaaa',
  seq: 1,
  key: 'EDGE_X',
  path: 'ROOT > EDGE > X',
  actor: 'owner',
  fingerprint: null,
  body: '{"secret":"s3cr3t"}',
  args: { secret: 's3cr3t' },
  status: 'ok',
  ok: true,
  ran: true,
  error: null,
  result: { hidden: true },
  yield: { tokens: { in: 1, out: 1 }, cost: 0, material: 1, waste: { bytes: 0, cost: 0 } },
  repairs: null,
  replays: null,
  source: 'hook:hk_abcdefabcdef/dlv_x',
  created_at: '2026-11-24T00:00:00.000Z',
  duration_ms: 3,
  request_id: null,
  repaired_by: [],
  ...over,
});

describe('core: the access policy', () => {
  it('decides moves per credential: public reads contracts and confirmations, and may ask what it is', () => {
    expect(denialOf(PUBLIC, 'contract:read')).to.equal(null);
    expect(denialOf(PUBLIC, 'confirm:read')).to.equal(null);
    expect(denialOf(PUBLIC, 'explain'), 'explain describes the public credential').to.equal(null);
    const denied = denialOf(PUBLIC, 'receipt:read')!;
    expect(denied.code).to.equal('credential_required');
    expect(denied.details).to.include({ needed: 'receipt:read' });
    expect(denialOf(OWNER, 'webhook:manage')).to.equal(null);
    expect(denialOf(START, 'invoke:EDGE_X')).to.equal(null);
    expect(denialOf(START, 'ledger:read')!.details).to.deep.equal({ needed: 'ledger:read', allowed: ['contract:read', 'confirm:read', 'receipt:read', 'explain', 'invoke:EDGE_X', 'invoke:GROUP_Y'] });
    expect(denialOf(START, 'webhook:manage')!.code, 'owner-only moves are never a token\'s').to.equal('scope_denied');
    expect(denialOf(HOOK, 'invoke:EDGE_X')).to.equal(null);
    expect(denialOf(HOOK, 'receipt:read')!.code).to.equal('scope_denied');
  });

  it('keeps the auth-required rule in one place: the owner and the owner\'s tokens, never keyless ones', () => {
    expect([OWNER, OWNERS_TOKEN, START, PUBLIC, HOOK].map(mayRunAuthRequired)).to.deep.equal([true, true, false, false, false]);
    const paid = { key: 'PAID_Z', auth: 'required' as const };
    const free = { key: 'EDGE_X', auth: 'none' as const };
    expect(mayInvoke(OWNERS_TOKEN, paid)).to.equal(true);
    expect(mayInvoke(START, paid)).to.equal(false);
    expect(mayInvoke(START, free)).to.equal(true);
    expect(mayInvoke(OBSERVER, free)).to.equal(false);
  });

  it("lets a server's resources and prompts be read by the owner, or by whoever is offered every one of its tools", () => {
    const free = { key: 'EDGE_X', auth: 'none' as const };
    const paid = { key: 'PAID_Z', auth: 'required' as const };
    expect(mayReadServer(OWNER, [])).to.equal(true);
    expect(mayReadServer(START, []), 'a server with no tools shows them to the owner only').to.equal(false);
    expect(mayReadServer(START, [free])).to.equal(true);
    expect(mayReadServer(START, [free, paid]), 'a keyless token is not offered the auth-required tool').to.equal(false);
    expect(mayReadServer(OWNERS_TOKEN, [free, paid])).to.equal(true);
    expect(mayReadServer(PUBLIC, [free])).to.equal(false);
  });

  it('gives each invocation an owner: the owner of all, a token family of its runs on keys it still holds', () => {
    const startRun = invocation({ fingerprint: START.scope.fingerprint, key: 'EDGE_X', actor: `token:${START.scope.fingerprint}` });
    const groupRun = invocation({ fingerprint: START.scope.fingerprint, key: 'GROUP_Y' });
    const ownersRun = invocation({});
    expect(ownsInvocation(OWNER, startRun)).to.equal(true);
    expect(ownsInvocation(START, startRun)).to.equal(true);
    expect(CHILD.scope.fingerprint, 'a narrowed token keeps its family').to.equal(START.scope.fingerprint);
    expect(ownsInvocation(CHILD, startRun), 'the child narrowed off EDGE_X').to.equal(false);
    expect(ownsInvocation(CHILD, groupRun)).to.equal(true);
    expect(ownsInvocation(STRANGER, startRun)).to.equal(false);
    expect(ownsInvocation(START, ownersRun)).to.equal(false);
    expect(ownsInvocation(OBSERVER, startRun)).to.equal(false);
    expect(ownsInvocation(HOOK, ownersRun), 'a webhook reads nothing back').to.equal(false);
    expect(ownsInvocation(PUBLIC, ownersRun)).to.equal(false);
    expect(() => requireOwnInvocation(STRANGER, startRun, startRun.id)).to.throw().that.satisfies((e: unknown) => SwitchyardError.is(e, 'invocation_not_found'));
    expect(() => requireOwnInvocation(OWNER, undefined, 'inv_nothere000')).to.throw().that.satisfies((e: unknown) => SwitchyardError.is(e, 'invocation_not_found'));
    expect(ownsDelivery(OWNER)).to.equal(true);
    expect([START, OBSERVER, HOOK, PUBLIC].map((p) => ownsDelivery(p))).to.deep.equal([false, false, false, false]);
  });

  it('shows others\' invocations with exactly the public fields of their Merkle leaf', () => {
    const run = invocation({ fingerprint: START.scope.fingerprint });
    expect(invocationView(START, run)).to.deep.equal(run);
    expect(invocationView(OWNER, run)).to.deep.equal(run);
    const seen = invocationView(OBSERVER, run) as unknown as Record<string, unknown>;
    const leafFields = Object.keys(leafParts({ kind: 'invocation', entry: run }).public);
    expect(Object.keys(seen).sort()).to.deep.equal(['id', 'seq', 'repaired_by', 'withheld', ...leafFields].sort());
    expect(JSON.stringify(seen)).to.not.contain('s3cr3t').and.not.contain('hk_abcdefabcdef').and.not.contain('hidden');
    expect(seen['withheld']).to.include.members(['actor', 'args', 'body', 'result', 'source', 'error']);
  });

  it('names callers as the ledger records them; a token\'s actor is always shown with its fingerprint', () => {
    expect(callerOf(OWNER)).to.include({ actor: 'owner', fingerprint: null, mayRunAuthRequired: true });
    expect(callerOf(HOOK)).to.include({ actor: 'hook:hk_abcdefabcdef', fingerprint: null, mayRunAuthRequired: false });
    expect(callerOf(START)).to.include({ actor: `token:${START.scope.fingerprint}`, fingerprint: START.scope.fingerprint, mayRunAuthRequired: false });
    const alice = token(`${KEYLESS_ID_PREFIX}alice`, { moves: ['invoke:*'], actor: 'alice' });
    expect(callerOf(alice).actor).to.equal('alice');
    expect(actorLabel(callerOf(alice))).to.equal(`alice (${alice.scope.fingerprint})`);
    expect(actorLabel(callerOf(OWNER))).to.equal('owner');
  });
});
