// The run-time allowlist of forwarding destinations on knex: one row per entry, shared by every process.
import type { Knex } from 'knex';
import type { ForwardAllowStore } from '@switchyard/core';

export class KnexForwardAllowStore implements ForwardAllowStore {
  constructor(private readonly knex: Knex) {}

  async list(): Promise<Array<{ entry: string; created_at: string }>> {
    return this.knex('forwarding_allow').select('entry', 'created_at').orderBy('created_at').orderBy('entry');
  }

  async add(entry: string, createdAt: string): Promise<boolean> {
    // Two processes adding the same entry at once: one row, and each answer says whether it was there.
    const existed = await this.knex('forwarding_allow').where({ entry }).first();
    if (existed) return false;
    await this.knex('forwarding_allow').insert({ entry, created_at: createdAt }).onConflict('entry').ignore();
    return true;
  }

  async remove(entry: string): Promise<boolean> {
    return (await this.knex('forwarding_allow').where({ entry }).delete()) > 0;
  }
}
