// API keys, stored as SHA-256 hashes: a leaked database does not leak a usable key.
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { ApiKeyStore } from '@switchyard/core';

export const hashApiKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

export class KnexApiKeyStore implements ApiKeyStore {
  constructor(private readonly knex: Knex) {}

  async add(key: string, label: string): Promise<void> {
    await this.knex('api_keys')
      .insert({ key_hash: hashApiKey(key), label, created_at: new Date().toISOString() })
      .onConflict('key_hash')
      .ignore();
  }

  async verify(key: string): Promise<boolean> {
    if (!key) return false;
    const row = await this.knex('api_keys').select('id').where({ key_hash: hashApiKey(key) }).first();
    return row !== undefined;
  }

  async count(): Promise<number> {
    const row = await this.knex('api_keys').count<{ n: number | string }[]>({ n: '*' }).first();
    return Number(row?.n ?? 0);
  }
}
