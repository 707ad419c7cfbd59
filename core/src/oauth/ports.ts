// What the authorization server needs from the outside world: its clients, codes, grants and
// refresh tokens (OAuthClientStore, OAuthCodeStore, OAuthGrantStore, OAuthRefreshTokenStore) and
// client ID metadata documents fetched (ClientMetadataSource). Each port is an interface and a
// same-named token the composition root binds an adapter to.
import type { OAuthClient, Claimed, OAuthCode, OAuthGrant, OAuthRefreshToken } from './records.js';

// Where client ID metadata documents come from: an outbound GET under the service's address policy.
export interface ClientMetadataSource {
  /** The document at `url`, parsed as JSON; throws with a message saying why it could not be had. */
  fetch(url: string): Promise<unknown>;
}
export const ClientMetadataSource = Symbol.for('switchyard.ClientMetadataSource');

// The OAuth clients' port: registered clients and cached client ID metadata documents.
export interface OAuthClientStore {
  add(client: OAuthClient): Promise<void>;
  /** Inserts or replaces a metadata-document client (its document may change between uses). */
  put(client: OAuthClient): Promise<void>;
  get(id: string): Promise<OAuthClient | undefined>;
  /**
   * The owner's view: clients with a grant first (the owner consented to them, so a flood of
   * registrations never hides them), then the rest; newest first within each.
   */
  list(limit: number): Promise<OAuthClient[]>;
  /**
   * Deletes registered clients without any grant beyond the newest `keep` of them (a registration
   * flood is bounded); clients with a grant and metadata-document clients stay. Answers how many went.
   */
  pruneUnconsented(keep: number): Promise<number>;
}
export const OAuthClientStore = Symbol.for('switchyard.OAuthClientStore');

// The authorization codes' port: single use, claimed atomically.
export interface OAuthCodeStore {
  add(code: OAuthCode): Promise<void>;
  /** Marks the code used if it was not; says whether this call claimed it, it was used before, or it is unknown. */
  claim(codeHash: string, at: string): Promise<Claimed<OAuthCode>>;
}
export const OAuthCodeStore = Symbol.for('switchyard.OAuthCodeStore');

// The OAuth grants' port: the owner's consents. Every use of a token issued under a grant asks
// isLive, so a revocation holds at once on every process sharing the database.
export interface OAuthGrantStore {
  add(grant: OAuthGrant): Promise<void>;
  get(id: string): Promise<OAuthGrant | undefined>;
  /** True when the grant exists and is not revoked. */
  isLive(id: string): Promise<boolean>;
  /** Revokes a live grant; false when it is unknown or already revoked. */
  revoke(id: string, at: string, reason: string): Promise<boolean>;
  /** Newest first. */
  list(limit: number): Promise<OAuthGrant[]>;
}
export const OAuthGrantStore = Symbol.for('switchyard.OAuthGrantStore');

// The refresh tokens' port: each is used once (rotation), claimed atomically.
export interface OAuthRefreshTokenStore {
  add(token: OAuthRefreshToken): Promise<void>;
  /** Marks the token used if it was not; says whether this call claimed it, it was used before, or it is unknown. */
  claim(tokenHash: string, at: string): Promise<Claimed<OAuthRefreshToken>>;
  /**
   * Deletes the grant's refresh tokens that expired before `nowMs` (Unix milliseconds), used or
   * not: an expired one is refused anyway, and a used one is kept only while its reuse could still
   * be presented. Answers how many went.
   */
  pruneExpired(grantId: string, nowMs: number): Promise<number>;
}
export const OAuthRefreshTokenStore = Symbol.for('switchyard.OAuthRefreshTokenStore');
