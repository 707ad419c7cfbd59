// Share-token uses on knex: each use is an append-only ledger row (queued for the Merkle log by
// trigger); a uses= caveat is enforced by claiming numbered slots, which the primary key makes
// atomic across requests and processes.
import type { Knex } from 'knex';
import type { TokenUse, TokenUseStore } from '@switchyard/core';
import type { LedgerSource } from './ledger-source.js';

/** The token uses' place in the ledger (ledger-sources.ts). */
export const TOKEN_USE_SOURCE: LedgerSource<'token_use'> = {
  kind: 'token_use',
  table: 'token_uses',
  idColumn: 'id',
  timeColumn: 'at',
  leafColumns: null,
  toEntry: (r) => ({ kind: 'token_use', entry: r as unknown as TokenUse }),
};

export class KnexTokenUseStore implements TokenUseStore {
  constructor(private readonly knex: Knex) {}

  async record(use: TokenUse): Promise<void> {
    await this.knex('token_uses').insert(use);
  }

  async claimUse(fingerprint: string, limit: number): Promise<boolean> {
    // Start after the slots already taken; a lost race moves on to the next slot.
    for (let slot = (await this.usesClaimed(fingerprint)) + 1; slot <= limit; slot++) {
      const won = (await this.knex('token_use_slots').insert({ fingerprint, slot }).onConflict(['fingerprint', 'slot']).ignore().returning('slot')) as unknown[];
      if (won.length > 0) return true;
    }
    return false;
  }

  async usesClaimed(fingerprint: string): Promise<number> {
    const row = (await this.knex('token_use_slots').where({ fingerprint }).count({ n: '*' }).first()) as { n: number | string } | undefined;
    return Number(row?.n ?? 0);
  }

  async list(fingerprint: string, limit: number): Promise<TokenUse[]> {
    return (await this.knex('token_uses').select('id', 'fingerprint', 'move', 'outcome', 'code', 'route', 'at').where({ fingerprint }).orderBy('seq', 'desc').limit(limit)) as TokenUse[];
  }
}
