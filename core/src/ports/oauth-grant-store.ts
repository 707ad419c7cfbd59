// The OAuth grants' port: the owner's consents. Every use of a token issued under a grant asks
// isLive, so a revocation holds at once on every process sharing the database.
import type { OAuthGrant } from '../oauth/records.js';

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
