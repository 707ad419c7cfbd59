// OAuth grants on knex. isLive reads the row on every call (no cache): revoking a grant refuses its
// tokens from the next request on, on every process sharing the database.
import type { Knex } from 'knex';
import type { OAuthGrant, OAuthGrantStore } from '@switchyard/core';

interface Row {
  id: string;
  client_id: string;
  resource: string;
  moves: string;
  keys: string;
  created_at: string;
  revoked_at: string | null;
  revoked_reason: string | null;
}

const COLUMNS = ['id', 'client_id', 'resource', 'moves', 'keys', 'created_at', 'revoked_at', 'revoked_reason'];
const fromRow = (r: Row): OAuthGrant => ({ ...r, moves: JSON.parse(r.moves) as string[], keys: JSON.parse(r.keys) as string[] });

export class KnexOAuthGrantStore implements OAuthGrantStore {
  constructor(
    private readonly knex: Knex,
    /** Where isLive reads: SQLite's reader connection, so a token check never waits behind a write (a committed revocation is seen at once). */
    private readonly readKnex: Knex = knex,
  ) {}

  async add(grant: OAuthGrant): Promise<void> {
    await this.knex('oauth_grants').insert({ ...grant, moves: JSON.stringify(grant.moves), keys: JSON.stringify(grant.keys) });
  }

  async get(id: string): Promise<OAuthGrant | undefined> {
    const row = (await this.knex('oauth_grants').select(COLUMNS).where({ id }).first()) as Row | undefined;
    return row ? fromRow(row) : undefined;
  }

  async isLive(id: string): Promise<boolean> {
    const row = (await this.readKnex('oauth_grants').select('revoked_at').where({ id }).first()) as { revoked_at: string | null } | undefined;
    return row !== undefined && row.revoked_at === null;
  }

  async revoke(id: string, at: string, reason: string): Promise<boolean> {
    const changed = await this.knex('oauth_grants').where({ id }).whereNull('revoked_at').update({ revoked_at: at, revoked_reason: reason });
    return Number(changed) > 0;
  }

  async list(limit: number): Promise<OAuthGrant[]> {
    return ((await this.knex('oauth_grants').select(COLUMNS).orderBy('seq', 'desc').limit(limit)) as Row[]).map(fromRow);
  }
}
