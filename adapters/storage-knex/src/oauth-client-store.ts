// OAuth clients on knex: one row per client; lists and metadata are JSON text.
import type { Knex } from 'knex';
import type { OAuthClient, OAuthClientStore } from '@switchyard/core';

interface Row {
  id: string;
  kind: OAuthClient['kind'];
  name: string;
  redirect_uris: string;
  auth_method: OAuthClient['auth_method'];
  secret_hash: string | null;
  metadata: string;
  created_at: string;
}

const toRow = (c: OAuthClient): Row => ({ ...c, redirect_uris: JSON.stringify(c.redirect_uris), metadata: JSON.stringify(c.metadata) });
const fromRow = (r: Row): OAuthClient => ({
  id: r.id,
  kind: r.kind,
  name: r.name,
  redirect_uris: JSON.parse(r.redirect_uris) as string[],
  auth_method: r.auth_method,
  secret_hash: r.secret_hash,
  metadata: JSON.parse(r.metadata) as Record<string, unknown>,
  created_at: r.created_at,
});
const COLUMNS = ['id', 'kind', 'name', 'redirect_uris', 'auth_method', 'secret_hash', 'metadata', 'created_at'];

export class KnexOAuthClientStore implements OAuthClientStore {
  constructor(private readonly knex: Knex) {}

  async add(client: OAuthClient): Promise<void> {
    await this.knex('oauth_clients').insert(toRow(client));
  }

  async put(client: OAuthClient): Promise<void> {
    const { id: _id, created_at: _created, ...changed } = toRow(client);
    await this.knex('oauth_clients').insert(toRow(client)).onConflict('id').merge(changed);
  }

  async get(id: string): Promise<OAuthClient | undefined> {
    const row = (await this.knex('oauth_clients').select(COLUMNS).where({ id }).first()) as Row | undefined;
    return row ? fromRow(row) : undefined;
  }

  async list(limit: number): Promise<OAuthClient[]> {
    const rows = await this.knex('oauth_clients')
      .select(COLUMNS)
      .orderByRaw('case when exists (select 1 from oauth_grants where oauth_grants.client_id = oauth_clients.id) then 0 else 1 end')
      .orderBy('seq', 'desc')
      .limit(limit);
    return (rows as Row[]).map(fromRow);
  }

  async pruneUnconsented(keep: number): Promise<number> {
    const unconsented = (q: Knex.QueryBuilder) => q.where('kind', 'registered').whereNotExists((sub) => sub.select(this.knex.raw('1')).from('oauth_grants').whereRaw('oauth_grants.client_id = oauth_clients.id'));
    const oldestKept = (await unconsented(this.knex('oauth_clients')).orderBy('seq', 'desc').offset(keep).first('seq')) as { seq: number | string } | undefined;
    if (!oldestKept) return 0;
    return Number(await unconsented(this.knex('oauth_clients')).where('seq', '<=', oldestKept.seq).delete());
  }
}
