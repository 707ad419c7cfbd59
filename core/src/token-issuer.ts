// Which tokens the service hands out, and to whom. Keyless callers get bounded tokens: /start
// (the auth-none keys, one hour), a workspace observer (read-only), self_scope (the listed keys cut
// from the public set). The owner mints wider ones with the API key. Every keyless token can only
// ever reach auth-none capabilities: its keys caveat is cut from that set.
import { randomBytes } from 'node:crypto';
import type { Clock } from './ports.js';
import type { CapabilityRegistry } from './registry.js';
import { SwitchyardError } from './errors.js';
import { mintToken, narrowToken, verifyToken, type Caveats, type RootKey, type TokenScope } from './share-token.js';

const OWNER_ID_PREFIX = 'o_';
const KEYLESS_ID_PREFIX = 'k_';
/** True for tokens the owner minted (their signed id says so). */
export const isOwnerIssued = (scope: Pick<TokenScope, 'id'>): boolean => scope.id.startsWith(OWNER_ID_PREFIX);

export const START_TTL_SECONDS = 3600;
export const OBSERVER_TTL_SECONDS = 24 * 3600;
export const NARROW_TTL_SECONDS = 600;

/** The moves of a keyless token for running public capabilities. */
export const KEYLESS_MOVES = ['contract:read', 'confirm:read', 'receipt:read', 'explain', 'invoke:*'];
export const OBSERVER_MOVES = ['contract:read', 'confirm:read', 'ledger:read', 'explain'];

export interface Minted {
  token: string;
  scope: TokenScope;
}

export interface SelfScoped extends Minted {
  granted: string[];
  refused: Array<{ key: string; reason: 'unknown' | 'auth_required' | 'outside_parent' }>;
}

export class TokenIssuer {
  /** The first root key mints; every listed one verifies (rotation). */
  constructor(
    private readonly roots: RootKey[],
    private readonly clock: Clock,
    private readonly registry: CapabilityRegistry,
  ) {
    if (roots.length === 0) throw new Error('at least one token root key is needed');
  }

  private now(): number {
    return Math.floor(this.clock.now().getTime() / 1000);
  }

  verify(token: string): TokenScope {
    return verifyToken(token, this.roots, this.now());
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
    const token = mintToken(this.roots[0]!, caveats, `${issuer === 'owner' ? OWNER_ID_PREFIX : KEYLESS_ID_PREFIX}${randomBytes(16).toString('base64url')}`);
    return { token, scope: this.verify(token) };
  }

  /** The capability keys anyone may run: auth none. */
  publicKeys(): string[] {
    return this.registry
      .list()
      .filter((c) => c.auth === 'none')
      .map((c) => c.key);
  }

  /** GET /start: the public keys, their receipts, explain; one hour. */
  start(actor: string | null): Minted {
    return this.mintAs('keyless', { moves: KEYLESS_MOVES, keys: this.publicKeys(), ...(actor ? { actor } : {}), purpose: 'start', expires: this.now() + START_TTL_SECONDS });
  }

  /** A read-only credential in one workspace. */
  observer(workspace: string, actor: string | null): Minted {
    return this.mintAs('keyless', { moves: OBSERVER_MOVES, workspace, role: 'observer', ...(actor ? { actor } : {}), expires: this.now() + OBSERVER_TTL_SECONDS });
  }

  /**
   * self_scope: a token for the listed keys that are public; the rest are listed as refused. With
   * `narrow`, a parent token is narrowed to them (child = parent ∩ keys) or, without a parent, the
   * token is invoke-only, single use and short-lived.
   */
  selfScope(keys: string[], options: { purpose: string | null; actor: string | null; narrow: boolean; parent: string | null }): SelfScoped {
    const publicSet = new Set(this.publicKeys());
    const parent = options.parent ? this.verify(options.parent) : null;
    const granted: string[] = [];
    const refused: SelfScoped['refused'] = [];
    // Keys match in any letter case; the token carries the registered (upper-case) keys.
    for (const key of [...new Set(keys.map((k) => this.registry.keyOf(k) ?? k))]) {
      if (!this.registry.has(key)) refused.push({ key, reason: 'unknown' });
      else if (!publicSet.has(key)) refused.push({ key, reason: 'auth_required' });
      else if (parent && parent.keys !== null && !parent.keys.includes(key)) refused.push({ key, reason: 'outside_parent' });
      else granted.push(key);
    }
    if (granted.length === 0) throw new SwitchyardError('scope_denied', 'none of the listed keys can be granted to a keyless caller', { needed: keys.map((k) => `invoke:${k}`), allowed: [], refused });
    const extra: Caveats = { keys: granted, ...(options.purpose ? { purpose: options.purpose } : {}), ...(options.actor ? { actor: options.actor } : {}) };
    let token: string;
    if (options.narrow && parent) token = narrowToken(options.parent!, extra);
    else if (options.narrow) token = this.mintAs('keyless', { moves: ['invoke:*'], ...extra, uses: 1, expires: this.now() + NARROW_TTL_SECONDS }).token;
    else token = this.mintAs('keyless', { moves: KEYLESS_MOVES, ...extra, expires: this.now() + START_TTL_SECONDS }).token;
    return { token, scope: this.verify(token), granted, refused };
  }
}
