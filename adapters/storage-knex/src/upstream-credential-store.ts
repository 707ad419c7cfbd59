// Upstream OAuth credentials: one sealed record per upstream, written by compare-and-swap on its
// version so two processes never overwrite each other's tokens, and a lease so one refreshes at a time.
import type { Knex } from 'knex';
import type { StoredUpstreamCredentials, UpstreamAuthState, UpstreamCredentialStore } from '@switchyard/core';

interface Row {
  upstream: string;
  sealed: string;
  version: number | string;
  state: string;
  updated_at: string;
}

export class KnexUpstreamCredentialStore implements UpstreamCredentialStore {
  constructor(
    private readonly knex: Knex,
    private readonly now: () => number = Date.now,
  ) {}

  async get(upstream: string): Promise<StoredUpstreamCredentials | undefined> {
    const row = (await this.knex('upstream_credentials').select('upstream', 'sealed', 'version', 'state', 'updated_at').where({ upstream }).first()) as Row | undefined;
    return row && { upstream: row.upstream, sealed: row.sealed, version: Number(row.version), state: row.state as UpstreamAuthState, updatedAt: row.updated_at };
  }

  async put(upstream: string, sealed: string, state: UpstreamAuthState, expected: number | null): Promise<boolean> {
    const updatedAt = new Date(this.now()).toISOString();
    if (expected === null) {
      await this.knex('upstream_credentials').insert({ upstream, sealed, version: 1, state, updated_at: updatedAt }).onConflict('upstream').ignore();
      // A random nonce makes every sealed record unique: it is ours only if our write won.
      return (await this.get(upstream))?.sealed === sealed;
    }
    const changed = await this.knex('upstream_credentials').where({ upstream, version: expected }).update({ sealed, state, version: expected + 1, updated_at: updatedAt });
    return changed === 1;
  }

  async lease(upstream: string, holder: string, ms: number): Promise<boolean> {
    const now = this.now();
    const changed = await this.knex('upstream_credentials')
      .where({ upstream })
      .andWhere((q) => q.whereNull('lease_until').orWhere('lease_until', '<', now).orWhere('lease_holder', holder))
      .update({ lease_holder: holder, lease_until: now + ms });
    return changed === 1;
  }

  async release(upstream: string, holder: string): Promise<void> {
    await this.knex('upstream_credentials').where({ upstream, lease_holder: holder }).update({ lease_holder: null, lease_until: null });
  }

  async states(): Promise<Array<{ upstream: string; state: UpstreamAuthState; updatedAt: string }>> {
    const rows = (await this.knex('upstream_credentials').select('upstream', 'state', 'updated_at').orderBy('upstream')) as Row[];
    return rows.map((r) => ({ upstream: r.upstream, state: r.state as UpstreamAuthState, updatedAt: r.updated_at }));
  }
}
