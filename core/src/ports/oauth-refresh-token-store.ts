// The refresh tokens' port: each is used once (rotation), claimed atomically.
import type { Claimed, OAuthRefreshToken } from '../oauth/records.js';

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
