// Share tokens: macaroon-style HMAC caveat chains (DESIGN.md §6). A token is an id, the id of the
// root key that began it, and a list of caveats; its signature is
//   sig0 = HMAC-SHA256(rootKey[kid], id),  sig_i = HMAC-SHA256(sig_{i-1}, caveat_i).
// Anyone holding a token can add a caveat (narrow it) offline, because the next signature needs
// only the last one; nobody can remove one, because that would need an earlier signature. Caveats
// only ever narrow: every caveat must hold, so two `keys=` caveats allow their intersection.
//
// Wire form: "sy1." base64url(JSON {k: kid, i: id, c: [caveat…]}) "." base64url(signature).
// A caveat is "name=value" with the value percent-encoded; lists are comma-separated. A caveat
// whose value is malformed makes the whole token token_corrupted (fail closed).
//
// Narrowing, caveat by caveat: moves and keys intersect; the earliest expires and the smallest uses
// win; actor and purpose refine (a later value is appended to the earlier: "bot-1/night-shift"), so
// a child names itself under its parent and never as someone else; workspace and role refuse (a
// second, different value leaves a token with no moves at all).
//
// Two caveats bind a token to OAuth (core/src/oauth): resource= (RFC 8707: the one protected
// resource the token may be presented to, such as https://host/mcp) and grant= (the owner's consent
// it came from: the service checks the grant in the database on every use, so revoking it refuses
// the token at once). Both refuse like workspace: a second, different value allows nothing.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ACTOR_MAX_LENGTH, actorProblem, normalizeActor, stackedActor } from './actor-names.js';
import { canonicalKey } from '../capabilities/index.js';
import { SwitchyardError } from '../errors.js';
import { TOKEN_KEY_PATTERN, isTokenMove } from './moves.js';

const PREFIX = 'sy1.';
const CAVEAT_NAMES = ['moves', 'keys', 'actor', 'purpose', 'workspace', 'role', 'expires', 'uses', 'resource', 'grant'] as const;
type CaveatName = (typeof CAVEAT_NAMES)[number];

export interface RootKey {
  kid: string;
  secret: Uint8Array;
}

export interface Caveats {
  moves?: string[];
  keys?: string[];
  actor?: string;
  purpose?: string;
  workspace?: string;
  role?: string;
  /** Unix seconds. */
  expires?: number;
  uses?: number;
  /** RFC 8707 resource indicator: the absolute URL of the one resource this token is for. */
  resource?: string;
  /** The OAuth grant (the owner's consent) this token was issued under. */
  grant?: string;
}

/** What a verified token allows: every caveat folded together. */
export interface TokenScope {
  id: string;
  kid: string;
  fingerprint: string;
  /** The moves every moves= caveat allows (their intersection); a token with none has no moves. */
  moves: string[];
  /** The keys every keys= caveat allows; null when no caveat limits keys. */
  keys: string[] | null;
  actor: string | null;
  purpose: string | null;
  workspace: string | null;
  role: string | null;
  /** Unix seconds, the earliest expiry caveat; null when none. */
  expires: number | null;
  /** The smallest uses= caveat; null when unlimited. */
  uses: number | null;
  /** The resource the token is bound to (RFC 8707); null when it is not bound to one. */
  resource: string | null;
  /** The OAuth grant the token lives by; null for tokens minted otherwise. */
  grant: string | null;
  caveats: string[];
}

const b64url = (b: Uint8Array | string) => Buffer.from(b).toString('base64url');
const hmac = (key: Uint8Array, data: string) => new Uint8Array(createHmac('sha256', key).update(data).digest());

/** Token ids say who minted them, under the root signature: the owner (o_…) or a keyless route (k_…). */
/** Whether a presented credential is written as a share token (any other text is not one, whatever else it is). */
export const isShareTokenText = (text: string): boolean => text.startsWith(PREFIX);

export const OWNER_ID_PREFIX = 'o_';
export const KEYLESS_ID_PREFIX = 'k_';
/** True for tokens the owner minted (their signed id says so). */
export const isOwnerIssued = (scope: Pick<TokenScope, 'id'>): boolean => scope.id.startsWith(OWNER_ID_PREFIX);

/** The public name of a token: a short hash of its id, never the token itself. */
export const tokenFingerprint = (id: string): string => `fp_${createHash('sha256').update(id).digest('hex').slice(0, 16)}`;

const encodeValue = (v: string | number | string[]) => (Array.isArray(v) ? v.map((x) => encodeURIComponent(x)).join(',') : encodeURIComponent(String(v)));

/** The caveat strings for a set of restrictions, in a fixed order. */
export function caveatStrings(c: Caveats): string[] {
  const out: string[] = [];
  for (const name of CAVEAT_NAMES) {
    const value = c[name];
    if (value === undefined) continue;
    out.push(`${name}=${encodeValue(value)}`);
  }
  return out;
}

interface Decoded {
  kid: string;
  id: string;
  caveats: string[];
  signature: Uint8Array;
}

const corrupted = (why: string) => new SwitchyardError('token_corrupted', `the share token cannot be used: ${why}; ask the owner for a fresh one`);

function decode(token: string): Decoded {
  if (typeof token !== 'string' || !token.startsWith(PREFIX)) throw corrupted('it is not a Switchyard token');
  const [payload, signature, ...rest] = token.slice(PREFIX.length).split('.');
  if (!payload || !signature || rest.length > 0) throw corrupted('it is malformed');
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw corrupted('it does not decode');
  }
  const b = body as { k?: unknown; i?: unknown; c?: unknown };
  if (typeof b.k !== 'string' || typeof b.i !== 'string' || !Array.isArray(b.c) || !b.c.every((x) => typeof x === 'string')) throw corrupted('it does not decode');
  const sig = Buffer.from(signature, 'base64url');
  if (sig.length !== 32) throw corrupted('its signature is malformed');
  return { kid: b.k, id: b.i, caveats: b.c as string[], signature: new Uint8Array(sig) };
}

function encode(d: Decoded): string {
  return `${PREFIX}${b64url(JSON.stringify({ k: d.kid, i: d.id, c: d.caveats }))}.${b64url(d.signature)}`;
}

/** Mints a token under a root key (server side only: it needs the secret). */
export function mintToken(root: RootKey, caveats: Caveats, id: string = randomBytes(16).toString('base64url')): string {
  const strings = caveatStrings(caveats);
  let sig = hmac(root.secret, id);
  for (const c of strings) sig = hmac(sig, c);
  return encode({ kid: root.kid, id, caveats: strings, signature: sig });
}

/** Adds caveats to a token without any key: offline, by anyone who holds it. Never widens. */
export function narrowToken(token: string, caveats: Caveats): string {
  const d = decode(token);
  const added = caveatStrings(caveats);
  let sig = d.signature;
  for (const c of added) sig = hmac(sig, c);
  return encode({ ...d, caveats: [...d.caveats, ...added], signature: sig });
}

const intersect = (a: string[] | null, b: string[]): string[] => (a === null ? b : a.filter((x) => b.includes(x)));

const TEXT_MAX = 200;
const RESOURCE_MAX = 2000;
/** An OAuth grant id (gr_…), as oauth/ids.ts makes them. */
export const GRANT_ID_PATTERN = /^gr_[A-Za-z0-9_-]{8,64}$/;

/** Why a resource indicator is not usable, or null: an absolute http(s) URL without a fragment (RFC 8707 §2). */
export function resourceProblem(value: string): string | null {
  if (value.length === 0 || value.length > RESOURCE_MAX || /[\u0000-\u0020\u007f]/.test(value)) return `a resource is an absolute URL of 1 to ${RESOURCE_MAX} characters without spaces or control characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'a resource is an absolute URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'a resource is an http or https URL';
  if (url.hash !== '' || value.includes('#')) return 'a resource has no fragment';
  return null;
}

/** A percent-encoded value; malformed encoding is a corrupted token, never a 500. */
function decodeValue(name: string, raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw corrupted(`its ${name} caveat is not valid percent-encoding`);
  }
}

/** A non-empty comma-separated list whose every item passes `valid`. */
function caveatList(name: string, raw: string, valid: (item: string) => boolean): string[] {
  const items = raw.split(',').map((x) => decodeValue(name, x));
  const bad = items.find((x) => x === '' || !valid(x));
  if (bad !== undefined) throw corrupted(`its ${name} caveat lists ${bad === '' ? 'an empty item' : JSON.stringify(bad.slice(0, 40))}`);
  return items;
}

/** Why a text caveat's value is not well formed, or null: 1 to 200 characters without control characters; an actor also not a reserved name. */
export function caveatTextProblem(name: 'actor' | 'purpose' | 'workspace' | 'role', value: string): string | null {
  if (name === 'actor') return actorProblem(value);
  return value.length === 0 || value.length > TEXT_MAX || /[\u0000-\u001f\u007f]/.test(value) ? `${name} must be text of 1 to ${TEXT_MAX} characters without control characters` : null;
}

function caveatText(name: 'actor' | 'purpose' | 'workspace' | 'role', raw: string): string {
  const value = decodeValue(name, raw);
  const problem = caveatTextProblem(name, value);
  if (problem) throw corrupted(`its ${name} caveat is malformed: ${problem}`);
  return name === 'actor' ? normalizeActor(value) : value;
}

/**
 * Checks the signature chain against the root keys (any listed kid verifies, so old keys keep
 * working after a rotation) and folds the caveats into a scope. token_corrupted: cannot decode,
 * unknown key, MAC mismatch (constant-time compare) or an unknown caveat; token_expired: past expiry.
 */
export function verifyToken(token: string, roots: RootKey[], nowSeconds: number): TokenScope {
  const d = decode(token);
  const root = roots.find((r) => r.kid === d.kid);
  if (!root) throw corrupted('it was signed with a key this server does not know');
  let sig = hmac(root.secret, d.id);
  for (const c of d.caveats) sig = hmac(sig, c);
  if (!timingSafeEqual(sig, d.signature)) throw corrupted('its signature does not match');

  let moves: string[] | null = null;
  let keys: string[] | null = null;
  const refined: Partial<Record<'actor' | 'purpose', string>> = {};
  const single: Partial<Record<'workspace' | 'role' | 'resource' | 'grant', string>> = {};
  let conflict = false;
  let expires: number | null = null;
  let uses: number | null = null;
  for (const caveat of d.caveats) {
    const at = caveat.indexOf('=');
    const name = caveat.slice(0, at) as CaveatName;
    const raw = caveat.slice(at + 1);
    if (at < 1 || !CAVEAT_NAMES.includes(name)) throw corrupted(`it carries an unknown caveat ${JSON.stringify(caveat.slice(0, 40))}`);
    switch (name) {
      case 'moves':
        // invoke:<KEY> names a capability in any letter case, as keys= does.
        moves = intersect(moves, caveatList(name, raw, isTokenMove).map((m) => (m.startsWith('invoke:') ? `invoke:${canonicalKey(m.slice(7))}` : m)));
        break;
      case 'keys':
        // A key names a capability in any letter case (see canonicalKey).
        keys = intersect(keys, caveatList(name, raw, (k) => TOKEN_KEY_PATTERN.test(k)).map(canonicalKey));
        break;
      case 'expires':
      case 'uses': {
        // Digits only: Number() would read "" as 0 and "1e3" as 1000.
        const n = /^[0-9]{1,15}$/.test(raw) ? Number(raw) : NaN;
        if (!Number.isSafeInteger(n) || (name === 'uses' && n < 1)) throw corrupted(`its ${name} caveat ${JSON.stringify(raw.slice(0, 40))} is not ${name === 'uses' ? 'a positive integer' : 'a time in unix seconds'}`);
        if (name === 'expires') expires = expires === null ? n : Math.min(expires, n);
        else uses = uses === null ? n : Math.min(uses, n);
        break;
      }
      case 'actor':
      case 'purpose': {
        const value = caveatText(name, raw);
        // Refines: a child names itself under its parent's actor and purpose.
        const before = refined[name];
        if (name === 'actor') {
          const actor = stackedActor(before, value);
          if (actor === null) throw corrupted(`its actor caveats stack to more than ${ACTOR_MAX_LENGTH} characters`);
          refined.actor = actor;
        } else refined[name] = before === undefined || before === value ? value : `${before} › ${value}`;
        break;
      }
      case 'resource':
      case 'grant': {
        const value = decodeValue(name, raw);
        const problem = name === 'resource' ? resourceProblem(value) : GRANT_ID_PATTERN.test(value) ? null : 'not a grant id';
        if (problem) throw corrupted(`its ${name} caveat is malformed: ${problem}`);
        if (single[name] !== undefined && single[name] !== value) conflict = true;
        single[name] ??= value;
        break;
      }
      default: {
        const value = caveatText(name, raw);
        // A second, different workspace or role can never hold: the token allows nothing.
        if (single[name] !== undefined && single[name] !== value) conflict = true;
        single[name] ??= value;
      }
    }
  }
  if (expires !== null && nowSeconds >= expires) {
    throw new SwitchyardError('token_expired', `the share token expired at ${new Date(expires * 1000).toISOString()}; ask the owner for a fresh one`, { expired_at: new Date(expires * 1000).toISOString() });
  }
  return {
    id: d.id,
    kid: d.kid,
    fingerprint: tokenFingerprint(d.id),
    moves: conflict ? [] : (moves ?? []),
    keys,
    actor: refined.actor ?? null,
    purpose: refined.purpose ?? null,
    workspace: single.workspace ?? null,
    role: single.role ?? null,
    expires,
    uses,
    resource: single.resource ?? null,
    grant: single.grant ?? null,
    caveats: d.caveats,
  };
}

/** The moves a scope allows, each invoke spelled out per key where the keys are known. */
export function allowedMoves(scope: Pick<TokenScope, 'moves' | 'keys'>): string[] {
  return scope.moves.flatMap((m) => (m === 'invoke:*' && scope.keys ? scope.keys.map((k) => `invoke:${k}`) : [m]));
}

/** True when the scope allows `move` (for invoke, `invoke:<KEY>`). */
export function scopeAllows(scope: Pick<TokenScope, 'moves' | 'keys'>, move: string): boolean {
  if (move.startsWith('invoke:')) {
    const key = move.slice('invoke:'.length);
    if (scope.keys !== null && !scope.keys.includes(key)) return false;
    return scope.moves.includes(move) || scope.moves.includes('invoke:*');
  }
  return scope.moves.includes(move);
}

/** Throws scope_denied naming exactly what was needed and what the credential allows. */
export function requireMove(scope: Pick<TokenScope, 'moves' | 'keys'>, move: string): void {
  if (!scopeAllows(scope, move)) {
    throw new SwitchyardError('scope_denied', `this credential does not allow ${move}`, { needed: move, allowed: allowedMoves(scope) });
  }
}
