// Refresh tokens on knex: stored hashed, claimed once (rotation; see oauth-single-use.ts).
import type { Knex } from 'knex';
import type { Claimed, OAuthRefreshToken, OAuthRefreshTokenStore } from '@switchyard/core';
import { claimOnce } from './oauth-single-use.js';

export class KnexOAuthRefreshTokenStore implements OAuthRefreshTokenStore {
  constructor(private readonly knex: Knex) {}

  async add(token: OAuthRefreshToken): Promise<void> {
    await this.knex('oauth_refresh_tokens').insert(token);
  }

  claim(tokenHash: string, at: string): Promise<Claimed<OAuthRefreshToken>> {
    return claimOnce<OAuthRefreshToken>(this.knex, 'oauth_refresh_tokens', 'token_hash', tokenHash, at);
  }

  async pruneExpired(grantId: string, nowMs: number): Promise<number> {
    // By grant_id (indexed): a grant's own rows, never a scan of the table.
    return Number(await this.knex('oauth_refresh_tokens').where({ grant_id: grantId }).where('expires_at', '<', nowMs).delete());
  }
}
