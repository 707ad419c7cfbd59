// The authorization codes' port: single use, claimed atomically.
import type { Claimed, OAuthCode } from '../oauth/records.js';

export interface OAuthCodeStore {
  add(code: OAuthCode): Promise<void>;
  /** Marks the code used if it was not; says whether this call claimed it, it was used before, or it is unknown. */
  claim(codeHash: string, at: string): Promise<Claimed<OAuthCode>>;
}
export const OAuthCodeStore = Symbol.for('switchyard.OAuthCodeStore');
