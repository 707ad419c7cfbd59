// Which tokens the service hands out, and to whom. Keyless callers get bounded tokens: /start
// (the auth-none keys, one hour), a workspace observer (read-only), self_scope (the listed keys cut
// from the public set). The owner mints wider ones with the API key. Every keyless token can only
// ever reach auth-none capabilities: its keys caveat is cut from that set.
import { createHmac, randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { CapabilityRegistry } from '../capabilities/index.js';
import { SwitchyardError } from '../errors.js';
import { ACTOR_MAX_LENGTH, normalizeActor, stackedActor } from './actor-names.js';
import { isPublicCapability } from './access-policy.js';
import { KEYLESS_MOVES, MOVES, OBSERVER_MOVES, TOKEN_KEY_PATTERN, isTokenMove } from './moves.js';
import { GRANT_ID_PATTERN, KEYLESS_ID_PREFIX, OWNER_ID_PREFIX, allowedMoves, caveatTextProblem, mintToken, narrowToken, resourceProblem, scopeAllows, verifyToken, type Caveats, type RootKey, type TokenScope } from './share-token.js';

export const START_TTL_SECONDS = 3600;
export const OBSERVER_TTL_SECONDS = 24 * 3600;
export const NARROW_TTL_SECONDS = 600;

/**
 * Refuses caveats a caller may not ask for (a reserved actor, malformed text) before anything is
 * minted, and answers them as they will be signed: the actor in its NFKC form.
 */
function checkCaveats(c: Caveats): Caveats {
  if (c.moves?.length === 0 || c.keys?.length === 0) throw new SwitchyardError('invalid_request', `an empty ${c.moves?.length === 0 ? 'moves' : 'keys'} list leaves a token that allows no move; nothing was minted`, { needed: 'at least one move', allowed: [] });
  const badMove = c.moves?.find((m) => !isTokenMove(m));
  if (badMove !== undefined) throw new SwitchyardError('invalid_request', `unknown move ${JSON.stringify(badMove)}`, { moves: [...MOVES, 'invoke:<KEY>'] });
  const badKey = c.keys?.find((k) => !TOKEN_KEY_PATTERN.test(k));
  if (badKey !== undefined) throw new SwitchyardError('invalid_request', `${JSON.stringify(badKey.slice(0, 60))} is not a capability key`);
  for (const name of ['actor', 'purpose', 'workspace', 'role'] as const) {
    const problem = c[name] === undefined ? null : caveatTextProblem(name, c[name]!);
    if (problem) throw new SwitchyardError('invalid_request', problem, { [name]: c[name]!.slice(0, 200) });
  }
  const problem = c.resource === undefined ? null : resourceProblem(c.resource);
  if (problem) throw new SwitchyardError('invalid_request', problem, { resource: c.resource!.slice(0, 200) });
  if (c.grant !== undefined && !GRANT_ID_PATTERN.test(c.grant)) throw new SwitchyardError('invalid_request', `${JSON.stringify(c.grant.slice(0, 60))} is not a grant id`);
  return c.actor === undefined ? c : { ...c, actor: normalizeActor(c.actor) };
}

/** The same resource, however its scheme and host are cased (URLs compare by their normal form). */
const sameResource = (a: string, b: string): boolean => {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return false;
  }
};

export interface Minted {
  token: string;
  scope: TokenScope;
}

export interface SelfScoped extends Minted {
  granted: string[];
  /** Keys not granted, and why; an unknown key carries the nearest known keys. */
  refused: Array<{ key: string; reason: 'unknown' | 'auth_required' | 'outside_parent'; did_you_mean?: string[] }>;
}

export class TokenIssuer {
  /** The first root key mints; every listed one verifies (rotation). */
  constructor(
    private readonly roots: RootKey[],
    private readonly clock: Clock,
    private readonly registry: CapabilityRegistry,
    /** The OAuth grants, asked on every use of a token issued under one (see inUse). */
    private readonly grants: { isLive(grantId: string): Promise<boolean> } | null = null,
  ) {
    if (roots.length === 0) throw new Error('at least one token root key is needed');
  }

  private now(): number {
    return Math.floor(this.clock.now().getTime() / 1000);
  }

  verify(token: string): TokenScope {
    return verifyToken(token, this.roots, this.now());
  }

  /**
   * Keys for another MAC the service makes (an MCP session id), derived from the root keys under a
   * label of its own, the minting root's first: every process that verifies tokens derives the
   * same keys, no other secret is configured, and no derived key opens a token or another label's MAC.
   */
  derivedKeys(label: string): Uint8Array[] {
    return this.roots.map((root) => new Uint8Array(createHmac('sha256', root.secret).update(`switchyard derived key\0${label}`).digest()));
  }

  /**
   * A token as presented to a request: verified, then held to its resource and grant caveats.
   * `presentedTo` is the resource the request is for (an MCP face's URL), or null for every other
   * route: a token bound to a resource is refused anywhere else (token_wrong_resource). A token
   * issued under an OAuth grant is refused once the grant is revoked (token_revoked): the database
   * is asked on every use, so a revocation holds at once on every process; and refused in a URL
   * (`carried` says where the request put it: share= is 'url').
   */
  async inUse(token: string, presentedTo: string | null, carried: 'header' | 'url' = 'header'): Promise<TokenScope> {
    const scope = this.verify(token);
    // OAuth 2.1 and the MCP spec keep access tokens out of URLs (proxies, logs and history keep them).
    if (scope.grant !== null && carried === 'url') throw new SwitchyardError('invalid_request', 'an OAuth access token goes in the Authorization header (Bearer), never in the URL; nothing was done', { needed: 'Authorization: Bearer' });
    if (scope.resource !== null && (presentedTo === null || !sameResource(scope.resource, presentedTo))) {
      throw new SwitchyardError('token_wrong_resource', `this token is for ${scope.resource}${presentedTo ? `, not ${presentedTo}` : ' and is accepted there only'}`, { resource: scope.resource });
    }
    if (scope.grant !== null && !(this.grants && (await this.grants.isLive(scope.grant)))) {
      throw new SwitchyardError('token_revoked', 'the grant this token was issued under has been revoked; the client must ask for consent again', { grant: scope.grant });
    }
    return scope;
  }

  /** An OAuth access token: the owner consented to it, so it is the owner's (it may run auth-required keys it holds). */
  mintGranted(caveats: Caveats & { grant: string; resource: string }): Minted {
    return this.mintAs('owner', caveats);
  }

  /** The owner's tokens (POST /api/tokens, workspace roles beyond observer). */
  mint(caveats: Caveats): Minted {
    return this.mintAs('owner', caveats);
  }

  /**
   * The issuer is part of the token id, which the root signature covers: no holder can turn a
   * keyless token into an owner's one (and caveats could only narrow anyway).
   */
  private mintAs(issuer: 'owner' | 'keyless', caveats: Caveats): Minted {
    const token = mintToken(this.roots[0]!, checkCaveats(caveats), `${issuer === 'owner' ? OWNER_ID_PREFIX : KEYLESS_ID_PREFIX}${randomBytes(16).toString('base64url')}`);
    return { token, scope: usable(this.verify(token)) };
  }

  /** The capability keys anyone may run: auth none. */
  publicKeys(): string[] {
    return this.registry
      .list()
      .filter(isPublicCapability)
      .map((c) => c.key);
  }

  /** GET /start: the public keys, their receipts, explain; one hour. */
  start(actor: string | null): Minted {
    return this.mintAs('keyless', { moves: [...KEYLESS_MOVES], keys: this.publicKeys(), ...(actor ? { actor } : {}), purpose: 'start', expires: this.now() + START_TTL_SECONDS });
  }

  /** A read-only credential in one workspace. */
  observer(workspace: string, actor: string | null): Minted {
    return this.mintAs('keyless', { moves: [...OBSERVER_MOVES], workspace, role: 'observer', ...(actor ? { actor } : {}), expires: this.now() + OBSERVER_TTL_SECONDS });
  }

  /**
   * self_scope: a token for the listed keys that are public; the rest are listed as refused. With
   * `narrow`, a parent token is narrowed to them (child = parent ∩ keys) or, without a parent, the
   * token is invoke-only, single use and short-lived.
   */
  selfScope(keys: string[], options: { purpose: string | null; actor: string | null; narrow: boolean; parent: string | null }): SelfScoped {
    if (keys.length === 0) throw new SwitchyardError('invalid_request', 'self_scope needs keys=<KEY,KEY…>: the capabilities the token is for', { needed: 'keys' });
    const publicSet = new Set(this.publicKeys());
    const parent = options.parent ? this.verify(options.parent) : null;
    const extraCaveats = checkCaveats({ ...(options.purpose ? { purpose: options.purpose } : {}), ...(options.actor ? { actor: options.actor } : {}) });
    // A child names itself under its parent: the stacked name is held to the same bound as any actor.
    if (options.narrow && parent && extraCaveats.actor !== undefined && stackedActor(parent.actor, extraCaveats.actor) === null) {
      throw new SwitchyardError('invalid_request', `the actor ${JSON.stringify(extraCaveats.actor.slice(0, 60))} under the parent's ${JSON.stringify(parent.actor!.slice(0, 60))} would pass ${ACTOR_MAX_LENGTH} characters; nothing was minted`, { actor: extraCaveats.actor.slice(0, 200) });
    }
    const granted: string[] = [];
    const refused: SelfScoped['refused'] = [];
    // Keys match in any letter case; the token carries the registered (upper-case) keys.
    for (const key of [...new Set(keys.map((k) => this.registry.keyOf(k) ?? k))]) {
      if (!this.registry.has(key)) refused.push({ key, reason: 'unknown', did_you_mean: this.registry.suggest(key) });
      else if (!publicSet.has(key)) refused.push({ key, reason: 'auth_required' });
      // Narrowing a parent keeps its moves: a key it cannot invoke would give a token that does nothing.
      else if (options.narrow && parent && !scopeAllows(parent, `invoke:${key}`)) refused.push({ key, reason: 'outside_parent' });
      else granted.push(key);
    }
    if (granted.length === 0) throw new SwitchyardError('scope_denied', 'none of the listed keys can be granted to a keyless caller', { needed: keys.map((k) => `invoke:${k}`), allowed: [], refused });
    const extra: Caveats = { keys: granted, ...extraCaveats };
    let token: string;
    if (options.narrow && parent) token = narrowToken(options.parent!, extra);
    else if (options.narrow) token = this.mintAs('keyless', { moves: ['invoke:*'], ...extra, uses: 1, expires: this.now() + NARROW_TTL_SECONDS }).token;
    else token = this.mintAs('keyless', { moves: [...KEYLESS_MOVES], ...extra, expires: this.now() + START_TTL_SECONDS }).token;
    return { token, scope: usable(this.verify(token)), granted, refused };
  }
}

/** Nothing is ever answered ok with a token that can do nothing. */
function usable(scope: TokenScope): TokenScope {
  if (allowedMoves(scope).length === 0) throw new SwitchyardError('invalid_request', 'these caveats leave a token that allows no move; nothing was minted', { needed: 'at least one move', allowed: [] });
  return scope;
}
