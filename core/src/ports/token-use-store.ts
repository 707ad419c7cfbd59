// The share-token uses' port: recorded uses and use limits.
import type { TokenUse } from '../token-use.js';

export interface TokenUseStore {
  record(use: TokenUse): Promise<void>;
  /** Claims the next of `limit` uses for a token, atomically; false when all are spent. */
  claimUse(fingerprint: string, limit: number): Promise<boolean>;
  /** Uses claimed so far (for uses= caveats). */
  usesClaimed(fingerprint: string): Promise<number>;
  /** Newest first. */
  list(fingerprint: string, limit: number): Promise<TokenUse[]>;
}
export const TokenUseStore = Symbol.for('switchyard.TokenUseStore');
