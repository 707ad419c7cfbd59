// The one rule of fair shares in every table a caller can fill (MCP sessions and their streams,
// subscriptions/listen streams, paused calls): each credential may hold at most its share, well
// below the table's size, and keyless credentials together never take the reserve kept for the
// owner's key and the tokens the owner minted. So no credential, keyless or not, can deny another
// its room. A credential is counted by its token's id (its fingerprint), not its text: a holder can
// narrow a token offline into as many texts as it likes, and every one of them is the same share.
import { isOwnerIssued, type TokenScope } from './share-token.js';

/** Whose share an entry counts against, and whether it may use the keyed reserve. */
export interface Sharer {
  /** `owner`, or the token's fingerprint. */
  key: string;
  /** The owner's key and owner-minted tokens (members, OAuth grants); keyless tokens are not. */
  keyed: boolean;
}

/** A table's bounds. */
export interface ShareLimits {
  /** Entries the table holds at most. */
  total: number;
  /** Entries one credential may hold. */
  perCredential: number;
  /** The part of `total` (0 to below 1) keyless credentials together may not take. */
  keyedReserve: number;
}

/** What is held now. */
export interface ShareHeld {
  total: number;
  /** By the credential asking. */
  credential: number;
  /** By every keyless credential together. */
  keyless: number;
}

/** Which bound a new entry would pass, and its number: the table's, the credential's own, or the keyless pool's. */
export interface ShareRefusal {
  bound: 'total' | 'credential' | 'keyless';
  limit: number;
}

/** The credential's share of the table. */
export function sharerOf(credential: { kind: 'owner' } | { kind: 'token'; scope: Pick<TokenScope, 'id' | 'fingerprint'> }): Sharer {
  return credential.kind === 'owner' ? { key: 'owner', keyed: true } : { key: credential.scope.fingerprint, keyed: isOwnerIssued(credential.scope) };
}

/** How many entries keyless credentials may hold together: the total less the reserve, at least one. */
export const keylessPoolOf = (limits: ShareLimits): number => Math.max(1, Math.floor(limits.total * (1 - limits.keyedReserve)));

/** Whether one more entry for `sharer` fits; the bound it would pass when not (the credential's own first). */
export function shareRefusal(sharer: Sharer, held: ShareHeld, limits: ShareLimits): ShareRefusal | null {
  if (held.credential >= limits.perCredential) return { bound: 'credential', limit: limits.perCredential };
  if (!sharer.keyed && held.keyless >= keylessPoolOf(limits)) return { bound: 'keyless', limit: keylessPoolOf(limits) };
  if (held.total >= limits.total) return { bound: 'total', limit: limits.total };
  return null;
}

/** Whether an entry of `entry` counts against the bound that was met (so evicting it makes room there). */
export function countsAgainst(refusal: ShareRefusal, sharer: Sharer, entry: Sharer): boolean {
  if (refusal.bound === 'credential') return entry.key === sharer.key;
  if (refusal.bound === 'keyless') return !entry.keyed;
  return true;
}

/** What a refusal says, for a table of `what` whose bounds are config `config.perCredential`, `.reserve` and `.total`. */
export function shareRefusalText(refusal: ShareRefusal, what: string, config: { perCredential: string; reserve: string; total: string }): string {
  if (refusal.bound === 'credential') return `this credential holds ${refusal.limit} ${what} already, its share (config ${config.perCredential}); end one first`;
  if (refusal.bound === 'keyless') return `keyless credentials hold ${refusal.limit} ${what} in this process already; the rest is kept for the owner's key and the tokens it minted (config ${config.reserve}); retry later`;
  return `this process holds ${refusal.limit} ${what} already (config ${config.total}); retry later`;
}

/** Counts of the entries a table holds, by credential and keyless pool, for shareRefusal. */
export class ShareCounts {
  private total = 0;
  private keyless = 0;
  private readonly byKey = new Map<string, number>();

  held(sharer: Sharer): ShareHeld {
    return { total: this.total, credential: this.byKey.get(sharer.key) ?? 0, keyless: this.keyless };
  }

  /** Why one more entry of `sharer` does not fit now, or null. */
  refusal(sharer: Sharer, limits: ShareLimits): ShareRefusal | null {
    return shareRefusal(sharer, this.held(sharer), limits);
  }

  add(sharer: Sharer): void {
    this.total += 1;
    if (!sharer.keyed) this.keyless += 1;
    this.byKey.set(sharer.key, (this.byKey.get(sharer.key) ?? 0) + 1);
  }

  remove(sharer: Sharer): void {
    this.total -= 1;
    if (!sharer.keyed) this.keyless -= 1;
    const left = (this.byKey.get(sharer.key) ?? 1) - 1;
    if (left > 0) this.byKey.set(sharer.key, left);
    else this.byKey.delete(sharer.key);
  }
}
