// The upstream OAuth port: upstreams that sign in with OAuth, as the owner sees and connects them.
import type { UpstreamAuthState } from './upstream-credential-store.js';

export type UpstreamOAuthGrant = 'client_credentials' | 'authorization_code';

export interface UpstreamOAuthStatus {
  /** The upstream's name in config upstreams.servers. */
  name: string;
  grant: UpstreamOAuthGrant;
  state: UpstreamAuthState;
  /** When the state last changed (connected, refreshed, refused), or null when nothing is stored. */
  updated_at: string | null;
}

export interface UpstreamOAuth {
  list(): Promise<UpstreamOAuthStatus[]>;
  /**
   * Starts the owner's consent for an authorization-code upstream: the authorization server's URL
   * the owner's browser goes to. `state` binds the answer to this start; `redirectUri` is where it comes back.
   */
  begin(name: string, redirectUri: string, state: string): Promise<string>;
  /**
   * Exchanges the code the authorization server sent back (with its state) and stores the tokens.
   * `iss` is the answer's iss parameter (RFC 9207), null when it had none: checked before the code is used.
   */
  complete(name: string, state: string, code: string, iss?: string | null): Promise<void>;
}
export const UpstreamOAuth = Symbol.for('switchyard.UpstreamOAuth');
