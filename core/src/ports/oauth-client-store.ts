// The OAuth clients' port: registered clients and cached client ID metadata documents.
import type { OAuthClient } from '../oauth/records.js';

export interface OAuthClientStore {
  add(client: OAuthClient): Promise<void>;
  /** Inserts or replaces a metadata-document client (its document may change between uses). */
  put(client: OAuthClient): Promise<void>;
  get(id: string): Promise<OAuthClient | undefined>;
  /** Newest first. */
  list(limit: number): Promise<OAuthClient[]>;
}
export const OAuthClientStore = Symbol.for('switchyard.OAuthClientStore');
