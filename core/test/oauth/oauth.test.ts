// The OAuth rules that need no storage: the resource= and grant= caveats, the token issuer holding a
// presented token to them, the scope vocabulary, PKCE S256, redirect URIs and client metadata.
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import {
  CapabilityRegistry,
  OAuthError,
  SwitchyardError,
  TokenIssuer,
  checkChallenge,
  checkClientMetadata,
  checkMetadataDocument,
  metadataDocumentIdProblem,
  mintToken,
  narrowToken,
  parseScope,
  redirectUriMatches,
  redirectUriProblem,
  redirectWith,
  requestedKeys,
  verifierMatches,
  verifyToken,
  DEFAULT_OAUTH_OPTIONS,
  OAuthAuthorizationServer,
  type Claimed,
  type OAuthClient,
  type OAuthCode,
  type OAuthGrant,
  type OAuthRefreshToken,
  type RootKey,
} from '../../src/index.js';

const K1: RootKey = { kid: 'k1', secret: new Uint8Array(32).fill(1) };
const NOW = 1_800_000_000;
const RESOURCE = 'https://sy.example/mcp';
const errorOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    if (SwitchyardError.is(e)) return e.code;
    if (OAuthError.is(e)) return e.error;
    return String(e);
  }
  return 'none';
};
const asyncErrorOf = async (p: Promise<unknown>): Promise<string> => {
  try {
    await p;
  } catch (e) {
    return SwitchyardError.is(e) ? e.code : String(e);
  }
  return 'none';
};

describe('core: OAuth caveats on share tokens', () => {
  const token = mintToken(K1, { moves: ['invoke:*'], keys: ['A'], actor: 'cl_abc', resource: RESOURCE, grant: 'gr_0123456789ab', expires: NOW + 60 }, 'o_t1');

  it('folds resource= and grant= into the scope', () => {
    expect(verifyToken(token, [K1], NOW)).to.include({ resource: RESOURCE, grant: 'gr_0123456789ab', actor: 'cl_abc' });
    expect(verifyToken(mintToken(K1, { moves: ['explain'] }), [K1], NOW)).to.include({ resource: null, grant: null });
  });

  it('keeps them through narrowing, and a second, different value allows nothing', () => {
    expect(verifyToken(narrowToken(token, { purpose: 'child' }), [K1], NOW)).to.include({ resource: RESOURCE, grant: 'gr_0123456789ab' });
    expect(verifyToken(narrowToken(token, { resource: 'https://sy.example/mcp/v/ops' }), [K1], NOW).moves).to.deep.equal([]);
    expect(verifyToken(narrowToken(token, { grant: 'gr_other0000000' }), [K1], NOW).moves).to.deep.equal([]);
  });

  it('refuses malformed values as token_corrupted', () => {
    for (const bad of [{ resource: 'not a url' }, { resource: 'https://x.example/mcp#frag' }, { resource: 'ftp://x.example/mcp' }, { grant: 'nope' }]) {
      expect(errorOf(() => verifyToken(narrowToken(token, bad), [K1], NOW)), JSON.stringify(bad)).to.equal('token_corrupted');
    }
  });
});

describe('core: TokenIssuer.inUse (resource and grant)', () => {
  const live = new Set(['gr_0123456789ab']);
  const issuer = new TokenIssuer([K1], { now: () => new Date(NOW * 1000) }, new CapabilityRegistry(), { isLive: async (id) => live.has(id) });
  const { token } = issuer.mintGranted({ moves: ['invoke:*'], keys: ['A'], actor: 'cl_abc', resource: RESOURCE, grant: 'gr_0123456789ab', expires: NOW + 60 });

  it('accepts the token at its resource (in any host case) while the grant lives', async () => {
    expect((await issuer.inUse(token, RESOURCE)).grant).to.equal('gr_0123456789ab');
    expect((await issuer.inUse(token, 'https://SY.example/mcp')).resource).to.equal(RESOURCE);
  });

  it('refuses it elsewhere (token_wrong_resource) and once the grant is revoked (token_revoked)', async () => {
    expect(await asyncErrorOf(issuer.inUse(token, 'https://sy.example/mcp/v/ops'))).to.equal('token_wrong_resource');
    expect(await asyncErrorOf(issuer.inUse(token, null))).to.equal('token_wrong_resource');
    live.delete('gr_0123456789ab');
    expect(await asyncErrorOf(issuer.inUse(token, RESOURCE))).to.equal('token_revoked');
  });

  it('leaves tokens without those caveats as they were, anywhere', async () => {
    const plain = issuer.mint({ moves: ['explain'] }).token;
    expect((await issuer.inUse(plain, null)).resource).to.equal(null);
    expect((await issuer.inUse(plain, RESOURCE)).grant).to.equal(null);
  });

  it('is the owner\'s token: the owner consented to it', () => {
    expect(issuer.verify(token).id.startsWith('o_')).to.equal(true);
  });
});

describe('core: OAuth scopes', () => {
  it('reads invoke:* and invoke:<KEY>; absent means every tool', () => {
    expect(parseScope(undefined)).to.deep.equal({ all: true });
    expect(parseScope('')).to.deep.equal({ all: true });
    expect(parseScope('invoke:* invoke:a')).to.deep.equal({ all: true });
    expect(parseScope('invoke:edge_a  invoke:B invoke:EDGE_A')).to.deep.equal({ all: false, keys: ['EDGE_A', 'B'] });
  });

  it('refuses anything else as invalid_scope, and keys the resource lacks', () => {
    for (const s of ['admin', 'invoke:', 'invoke:a-b', 'ledger:read', 'invoke:* openid']) expect(errorOf(() => parseScope(s)), s).to.equal('invalid_scope');
    expect(requestedKeys({ all: true }, ['A', 'B'])).to.deep.equal(['A', 'B']);
    expect(requestedKeys({ all: false, keys: ['B'] }, ['A', 'B'])).to.deep.equal(['B']);
    expect(errorOf(() => requestedKeys({ all: false, keys: ['C'] }, ['A', 'B']))).to.equal('invalid_scope');
  });
});

describe('core: PKCE S256', () => {
  const verifier = 'a'.repeat(43) + '-._~';
  const challenge = createHash('sha256').update(verifier).digest('base64url');

  it('takes S256 only: plain, a missing method or challenge, or a malformed one are invalid_request', () => {
    expect(checkChallenge(challenge, 'S256')).to.equal(challenge);
    expect(errorOf(() => checkChallenge(challenge, 'plain'))).to.equal('invalid_request');
    expect(errorOf(() => checkChallenge(challenge, undefined))).to.equal('invalid_request');
    expect(errorOf(() => checkChallenge(undefined, 'S256'))).to.equal('invalid_request');
    expect(errorOf(() => checkChallenge('short', 'S256'))).to.equal('invalid_request');
  });

  it('matches the verifier, and nothing else', () => {
    expect(verifierMatches(verifier, challenge)).to.equal(true);
    expect(verifierMatches(verifier + 'x', challenge)).to.equal(false);
    expect(verifierMatches(challenge, challenge)).to.equal(false);
    expect(verifierMatches('short', challenge)).to.equal(false);
    expect(verifierMatches(undefined, challenge)).to.equal(false);
  });
});

describe('core: client metadata', () => {
  it('accepts https, loopback http and an app\'s own scheme as redirect URIs', () => {
    for (const ok of ['https://app.example/cb', 'http://127.0.0.1:3000/cb', 'http://localhost/cb', 'http://[::1]:8/cb', 'cursor://anysphere.cursor-mcp/oauth/callback']) expect(redirectUriProblem(ok), ok).to.equal(null);
    for (const bad of ['http://app.example/cb', 'https://app.example/cb#x', 'javascript:alert(1)', 'data:text/html,x', 'relative/cb', 'https://u:p@app.example/cb', 'https://app.example/c b', 'https://app.example\\@evil.example/']) expect(redirectUriProblem(bad), bad).to.be.a('string');
  });

  it('matches redirect URIs exactly, a loopback IP\'s port aside (RFC 8252 §7.3)', () => {
    expect(redirectUriMatches('https://app.example/cb', 'https://app.example/cb')).to.equal(true);
    expect(redirectUriMatches('http://127.0.0.1:3000/cb', 'http://127.0.0.1:51234/cb')).to.equal(true);
    expect(redirectUriMatches('http://[::1]/cb?x=1', 'http://[::1]:8080/cb?x=1')).to.equal(true);
    for (const [registered, asked] of [
      ['https://app.example/cb', 'https://app.example/cb/'],
      ['https://app.example:443/cb', 'https://app.example:8443/cb'],
      ['http://localhost:3000/cb', 'http://localhost:3001/cb'],
      ['http://127.0.0.1:3000/cb', 'http://127.0.0.1:3000/cb2'],
      ['http://127.0.0.1:3000/cb', 'http://[::1]:3000/cb'],
      ['http://127.0.0.1:3000/cb', 'http://127.0.0.1:70000/cb'],
      ['http://127.0.0.1:3000/cb', 'http://127.0.0.1:3001/cb#x'],
      ['http://127.0.0.1:3000/cb', 'http://127.0.0.1:3001@evil.example/cb'],
    ]) expect(redirectUriMatches(registered!, asked!), `${registered} ~ ${asked}`).to.equal(false);
  });

  it('defaults a registration to client_secret_basic (RFC 7591) and keeps what it knows', () => {
    const m = checkClientMetadata({ redirect_uris: ['https://a.example/cb'], client_name: ' App ', client_uri: 'https://a.example', junk: 1 }, 'client_secret_basic');
    expect(m).to.deep.include({ name: 'App', auth_method: 'client_secret_basic' });
    expect(m.metadata).to.deep.equal({ client_uri: 'https://a.example' });
  });

  it('takes a metadata document only for its own URL, as a public client', () => {
    const url = 'https://app.example/oauth/client.json';
    expect(checkMetadataDocument(url, { client_id: url, client_name: 'App', redirect_uris: ['https://app.example/cb'] }).auth_method).to.equal('none');
    expect(errorOf(() => checkMetadataDocument(url, { client_id: 'https://other.example/c.json', redirect_uris: ['https://app.example/cb'] }))).to.equal('invalid_client_metadata');
    expect(errorOf(() => checkMetadataDocument(url, { client_id: url, redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: 'client_secret_basic' }))).to.equal('invalid_client_metadata');
    expect(metadataDocumentIdProblem(url, false)).to.equal(null);
    expect(metadataDocumentIdProblem('http://app.example/c.json', false)).to.be.a('string');
    expect(metadataDocumentIdProblem('http://app.example/c.json', true)).to.equal(null);
    expect(metadataDocumentIdProblem('https://app.example/', false)).to.be.a('string');
    expect(metadataDocumentIdProblem(`https://app.example/${'x'.repeat(250)}`, false)).to.be.a('string');
  });

  it('adds the answer to a redirect URI\'s query, keeping its own', () => {
    expect(redirectWith('https://a.example/cb?x=1', { code: 'c', state: null, iss: 'https://sy.example' })).to.equal('https://a.example/cb?x=1&code=c&iss=https%3A%2F%2Fsy.example');
  });
});

/** The ports in memory, for the rules that depend on time (the HTTP suites run the real stores). */
function memoryStores() {
  const clients = new Map<string, OAuthClient>();
  const grants = new Map<string, OAuthGrant>();
  const codes = new Map<string, OAuthCode>();
  const refresh = new Map<string, OAuthRefreshToken>();
  const claim = <T extends { used_at: string | null }>(map: Map<string, T>, hash: string, at: string): Claimed<T> => {
    const record = map.get(hash);
    if (!record) return { kind: 'unknown' };
    if (record.used_at !== null) return { kind: 'used', record };
    record.used_at = at;
    return { kind: 'claimed', record };
  };
  return {
    clients: { add: async (c: OAuthClient) => void clients.set(c.id, c), put: async (c: OAuthClient) => void clients.set(c.id, c), get: async (id: string) => clients.get(id), list: async () => [...clients.values()], pruneUnconsented: async () => 0 },
    grants: {
      add: async (g: OAuthGrant) => void grants.set(g.id, { ...g }),
      get: async (id: string) => grants.get(id),
      isLive: async (id: string) => grants.get(id)?.revoked_at === null,
      revoke: async (id: string, at: string, reason: string) => {
        const g = grants.get(id);
        if (!g || g.revoked_at) return false;
        Object.assign(g, { revoked_at: at, revoked_reason: reason });
        return true;
      },
      list: async () => [...grants.values()],
    },
    codes: { add: async (c: OAuthCode) => void codes.set(c.code_hash, { ...c }), claim: async (h: string, at: string) => claim(codes, h, at) },
    refresh: {
      add: async (t: OAuthRefreshToken) => void refresh.set(t.token_hash, { ...t }),
      claim: async (h: string, at: string) => claim(refresh, h, at),
      pruneExpired: async (grantId: string, nowMs: number) => {
        const gone = [...refresh.values()].filter((t) => t.grant_id === grantId && t.expires_at < nowMs);
        for (const t of gone) refresh.delete(t.token_hash);
        return gone.length;
      },
      size: () => refresh.size,
    },
  };
}

describe('core: the authorization server over time', () => {
  const BASE = 'https://sy.example';
  let now = NOW * 1000;
  const clock = { now: () => new Date(now) };
  const stores = memoryStores();
  const tokens = new TokenIssuer([K1], clock, new CapabilityRegistry(), stores.grants);
  const server = new OAuthAuthorizationServer(stores.clients, stores.grants, stores.codes, stores.refresh, tokens, clock, null, { ...DEFAULT_OAUTH_OPTIONS, codeTtlSeconds: 60, refreshTokenTtlSeconds: 600, accessTokenTtlSeconds: 300 });
  const resourceOf = (url: string) => (url === RESOURCE ? { resource: RESOURCE, keys: ['A', 'B'] } : null);
  const verifier = 'v'.repeat(50);
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const oauthErrorOf = async (p: Promise<unknown>): Promise<string> => {
    try {
      await p;
    } catch (e) {
      return OAuthError.is(e) ? e.error : String(e);
    }
    return 'none';
  };

  const consented = async () => {
    const { client } = await server.register({ redirect_uris: ['http://127.0.0.1/cb'], token_endpoint_auth_method: 'none' });
    const request = await server.checkAuthorization({ response_type: 'code', client_id: client.id, redirect_uri: 'http://127.0.0.1/cb', code_challenge: challenge, code_challenge_method: 'S256', resource: RESOURCE }, BASE, RESOURCE, resourceOf);
    if ('error' in request) throw request.error;
    const code = new URL(await server.decide(request, 'allow', ['A'], BASE)).searchParams.get('code')!;
    return { client, code, creds: { basic: null, client_id: client.id, client_secret: null } };
  };

  it('refuses a code past its lifetime as invalid_grant, and grants nothing', async () => {
    const { code, creds } = await consented();
    now += 61_000;
    expect(await oauthErrorOf(server.token({ grant_type: 'authorization_code', code, redirect_uri: 'http://127.0.0.1/cb', code_verifier: verifier }, creds))).to.equal('invalid_grant');
  });

  it('issues an access token that expires with its lifetime, and refuses a refresh token past its own', async () => {
    const { code, creds } = await consented();
    const answer = await server.token({ grant_type: 'authorization_code', code, redirect_uri: 'http://127.0.0.1/cb', code_verifier: verifier }, creds);
    expect((await tokens.inUse(answer.access_token, RESOURCE)).keys).to.deep.equal(['A']);
    now += 301_000;
    expect(await asyncErrorOf(tokens.inUse(answer.access_token, RESOURCE))).to.equal('token_expired');
    const fresh = await server.token({ grant_type: 'refresh_token', refresh_token: answer.refresh_token }, creds);
    now += 601_000;
    expect(await oauthErrorOf(server.token({ grant_type: 'refresh_token', refresh_token: fresh.refresh_token }, creds))).to.equal('invalid_grant');
  });

  it('deletes a grant\'s expired refresh tokens as it rotates, so hourly refreshes do not grow the store forever', async () => {
    const { code, creds } = await consented();
    let answer = await server.token({ grant_type: 'authorization_code', code, redirect_uri: 'http://127.0.0.1/cb', code_verifier: verifier }, creds);
    const sizes: number[] = [];
    for (let i = 0; i < 12; i++) {
      now += 120_000; // refresh tokens live 600 s here
      answer = await server.token({ grant_type: 'refresh_token', refresh_token: answer.refresh_token }, creds);
      sizes.push(stores.refresh.size());
    }
    // At most the last 600 s of rotations (five or six rows) of this grant stay, whatever the count.
    expect(sizes.slice(-3)[0]).to.equal(sizes.slice(-1)[0]);
    expect(Math.max(...sizes)).to.be.lessThan(12);
  });

  it('refuses a parameter given twice, and a public client that sends a secret', async () => {
    const { code, creds } = await consented();
    expect(await oauthErrorOf(server.token({ grant_type: 'authorization_code', code: [code, code], redirect_uri: 'http://127.0.0.1/cb', code_verifier: verifier }, creds))).to.equal('invalid_request');
    expect(await oauthErrorOf(server.token({ grant_type: 'authorization_code', code, redirect_uri: 'http://127.0.0.1/cb', code_verifier: verifier }, { ...creds, client_secret: 'sys_x' }))).to.equal('invalid_client');
  });
});
