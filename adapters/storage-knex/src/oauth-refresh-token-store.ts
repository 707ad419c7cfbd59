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
}
