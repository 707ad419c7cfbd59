import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { SwitchyardError, allowedMoves, mintToken, narrowToken, requireMove, scopeAllows, tokenFingerprint, verifyToken, type RootKey } from '../../src/index.js';

const K1: RootKey = { kid: 'k1', secret: new Uint8Array(32).fill(1) };
const K2: RootKey = { kid: 'k2', secret: new Uint8Array(32).fill(2) };
const NOW = 1_800_000_000;
const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return SwitchyardError.is(e) ? e.code : String(e);
  }
  return 'none';
};

describe('core: share tokens (macaroon-style caveat chains)', () => {
  const token = mintToken(K1, { moves: ['contract:read', 'invoke:*', 'explain'], keys: ['A', 'B', 'C'], actor: 'agent-7', expires: NOW + 3600 }, 'tok_1');

  it('refuses a caveat appended with malformed percent-encoding as token_corrupted', () => {
    // Appending a caveat needs no key: the holder chains the HMAC on, as narrowToken does.
    const [payload, signature] = token.slice('sy1.'.length).split('.') as [string, string];
    const body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { k: string; i: string; c: string[] };
    for (const caveat of ['actor=%E0%A4%A', 'keys=A,%zz']) {
      const sig = createHmac('sha256', Buffer.from(signature, 'base64url')).update(caveat).digest();
      const forged = `sy1.${Buffer.from(JSON.stringify({ ...body, c: [...body.c, caveat] })).toString('base64url')}.${sig.toString('base64url')}`;
      expect(code(() => verifyToken(forged, [K1], NOW))).to.equal('token_corrupted');
    }
  });

  it('verifies and folds caveats into a scope', () => {
    const s = verifyToken(token, [K1], NOW);
    expect(s).to.include({ id: 'tok_1', kid: 'k1', actor: 'agent-7', expires: NOW + 3600, uses: null, fingerprint: tokenFingerprint('tok_1') });
    expect(s.fingerprint).to.match(/^fp_[0-9a-f]{16}$/);
    expect(allowedMoves(s)).to.deep.equal(['contract:read', 'invoke:A', 'invoke:B', 'invoke:C', 'explain']);
    expect(scopeAllows(s, 'invoke:B')).to.equal(true);
    expect(scopeAllows(s, 'invoke:D')).to.equal(false);
    expect(scopeAllows(s, 'ledger:read')).to.equal(false);
  });

  it('narrows offline: the child allows the intersection, never more', () => {
    const child = narrowToken(token, { keys: ['B', 'C', 'Z'], moves: ['invoke:*'], uses: 1 });
    const s = verifyToken(child, [K1], NOW);
    expect(s.keys).to.deep.equal(['B', 'C']);
    expect(s.moves).to.deep.equal(['invoke:*']);
    expect(s.uses).to.equal(1);
    expect(scopeAllows(s, 'contract:read')).to.equal(false);
    expect(s.id, 'same token id: uses and receipts follow it').to.equal('tok_1');
    // A narrower expiry wins; a later one cannot extend.
    expect(verifyToken(narrowToken(child, { expires: NOW + 60 }), [K1], NOW).expires).to.equal(NOW + 60);
    expect(verifyToken(narrowToken(child, { expires: NOW + 99999 }), [K1], NOW).expires).to.equal(NOW + 3600);
    // An actor or purpose refines: the child names itself under its parent, never as someone else.
    const refined = verifyToken(narrowToken(child, { actor: 'night-shift', purpose: 'nightly' }), [K1], NOW);
    expect(refined).to.include({ actor: 'agent-7/night-shift' });
    expect(refined.moves).to.deep.equal(['invoke:*']);
    expect(verifyToken(narrowToken(child, { actor: 'agent-7' }), [K1], NOW).actor, 'the same actor again changes nothing').to.equal('agent-7');
    // A second, different workspace or role can never hold: nothing is allowed.
    const inWorkspace = narrowToken(child, { workspace: 'default' });
    expect(verifyToken(inWorkspace, [K1], NOW).moves).to.deep.equal(['invoke:*']);
    expect(verifyToken(narrowToken(inWorkspace, { workspace: 'other' }), [K1], NOW).moves).to.deep.equal([]);
  });

  it('reports token_corrupted for anything that does not verify, in constant time', () => {
    const [prefix, payload, sig] = [token.slice(0, 4), token.split('.')[1]!, token.split('.')[2]!];
    const body = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { c: string[] };
    const widened = `${prefix}${Buffer.from(JSON.stringify({ ...body, c: body.c.filter((c) => !c.startsWith('keys=')) })).toString('base64url')}.${sig}`;
    expect(code(() => verifyToken(widened, [K1], NOW)), 'dropping a caveat').to.equal('token_corrupted');
    expect(code(() => verifyToken(token, [K2], NOW)), 'unknown key id').to.equal('token_corrupted');
    expect(code(() => verifyToken(token.slice(0, -2) + (token.endsWith('A') ? 'BB' : 'AA'), [K1], NOW)), 'signature').to.equal('token_corrupted');
    for (const bad of ['', 'nonsense', 'sy1.', 'sy1.e30.AAAA', 'sy1.!!!.???', `sy1.${Buffer.from('{"k":"k1","i":"x","c":[1]}').toString('base64url')}.${sig}`]) {
      expect(code(() => verifyToken(bad, [K1], NOW)), bad).to.equal('token_corrupted');
    }
    const unknownCaveat = mintToken(K1, {}, 'tok_2').replace(/^sy1\.[^.]+/, () => `sy1.${Buffer.from(JSON.stringify({ k: 'k1', i: 'tok_2', c: ['admin=1'] })).toString('base64url')}`);
    expect(code(() => verifyToken(unknownCaveat, [K1], NOW))).to.equal('token_corrupted');
  });

  it('reports token_expired past the expiry, and keeps old root keys verifying after rotation', () => {
    expect(code(() => verifyToken(token, [K1], NOW + 3600))).to.equal('token_expired');
    expect(verifyToken(token, [K2, K1], NOW).kid).to.equal('k1');
  });

  it('denies exactly: scope_denied names what was needed and what is allowed', () => {
    const s = verifyToken(narrowToken(token, { keys: ['A'] }), [K1], NOW);
    let error: SwitchyardError | undefined;
    try {
      requireMove(s, 'invoke:B');
    } catch (e) {
      error = e as SwitchyardError;
    }
    expect(error?.code).to.equal('scope_denied');
    expect(error?.details).to.deep.equal({ needed: 'invoke:B', allowed: ['contract:read', 'invoke:A', 'explain'] });
  });

  it('keeps values with commas, equals signs and unicode intact', () => {
    const t = mintToken(K1, { moves: ['explain'], purpose: 'weekly report, part=2 ✓', actor: 'bot, the second=2', keys: ['A', 'B'] });
    const s = verifyToken(t, [K1], NOW);
    expect(s.purpose).to.equal('weekly report, part=2 ✓');
    expect(s.actor).to.equal('bot, the second=2');
    expect(s.keys).to.deep.equal(['A', 'B']);
  });

  // Caveats as an offline tool could append them: raw text, correctly signed onto the chain.
  const appendRaw = (tok: string, raw: string): string => {
    const [, payload, sig] = tok.split('.');
    const body = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as { k: string; i: string; c: string[] };
    const next = createHmac('sha256', Buffer.from(sig!, 'base64url')).update(raw).digest();
    return `sy1.${Buffer.from(JSON.stringify({ ...body, c: [...body.c, raw] })).toString('base64url')}.${next.toString('base64url')}`;
  };

  const MALFORMED: Array<[string, string]> = [
    ['moves', 'moves='],
    ['moves', 'moves=admin'],
    ['moves', 'moves=explain,,invoke:*'],
    ['moves', 'moves=%E0%A4%A'],
    ['keys', 'keys='],
    ['keys', 'keys=A,%ZZ'],
    ['keys', 'keys=NOT A KEY'],
    ['actor', 'actor='],
    ['actor', 'actor=%'],
    ['actor', 'actor=owner'],
    ['actor', 'actor=hook%3Ahk_abcdefabcdef'],
    ['actor', `actor=${'a'.repeat(201)}`],
    ['purpose', 'purpose='],
    ['purpose', 'purpose=%C3%28'],
    ['purpose', 'purpose=line%0Abreak'],
    ['workspace', 'workspace='],
    ['workspace', 'workspace=%GG'],
    ['role', 'role='],
    ['role', 'role=%'],
    ['expires', 'expires='],
    ['expires', 'expires=soon'],
    ['expires', 'expires=-5'],
    ['expires', 'expires=1e12'],
    ['uses', 'uses='],
    ['uses', 'uses=0'],
    ['uses', 'uses=1.5'],
  ];
  for (const [name, raw] of MALFORMED) {
    it(`a malformed ${name} caveat (${raw.slice(0, 30)}) is token_corrupted, never a crash`, () => {
      expect(code(() => verifyToken(appendRaw(token, raw), [K1], NOW))).to.equal('token_corrupted');
    });
  }

  it('accepts the same caveats well formed, appended the same way', () => {
    for (const raw of ['moves=explain,invoke:*', 'keys=A', 'actor=bot-1', 'purpose=weekly%20report', 'workspace=default', 'role=observer', `expires=${NOW + 60}`, 'uses=3']) {
      expect(code(() => verifyToken(appendRaw(token, raw), [K1], NOW)), raw).to.equal('none');
    }
  });
});
