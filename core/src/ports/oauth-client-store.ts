// The OAuth clients' port: registered clients and cached client ID metadata documents.
import type { OAuthClient } from '../oauth/records.js';

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
