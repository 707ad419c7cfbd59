// Authorization codes on knex: stored hashed, claimed once (see oauth-single-use.ts).
import type { Knex } from 'knex';
import type { Claimed, OAuthCode, OAuthCodeStore } from '@switchyard/core';
import { claimOnce } from './oauth-single-use.js';

export class KnexOAuthCodeStore implements OAuthCodeStore {
  constructor(private readonly knex: Knex) {}

  async add(code: OAuthCode): Promise<void> {
    await this.knex('oauth_codes').insert(code);
  }

  claim(codeHash: string, at: string): Promise<Claimed<OAuthCode>> {
    return claimOnce<OAuthCode>(this.knex, 'oauth_codes', 'code_hash', codeHash, at);
  }
}
