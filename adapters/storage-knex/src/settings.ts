// Settings made once and shared by every process on the database (generated keys): the first
// writer wins, everyone reads the winner back. Rows are never changed (the table is append-only).
import type { Knex } from 'knex';
import type { SharedSettings } from '@switchyard/core';

export class KnexSettings implements SharedSettings {
  constructor(private readonly knex: Knex) {}

  async once(name: string, make: () => string): Promise<string> {
    await this.knex('ledger_settings').insert({ name, value: make(), created_at: new Date().toISOString() }).onConflict('name').ignore();
    const row = (await this.knex('ledger_settings').where({ name }).first()) as { value: string };
    return row.value;
  }
}
