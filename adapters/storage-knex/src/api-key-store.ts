// API keys, stored as SHA-256 hashes: a leaked database does not leak a usable key.
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { ApiKeyStore } from '@switchyard/core';

export const hashApiKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

/** How long a verified key is trusted without asking the database again (every request checks one). */
const VERIFIED_TTL_MS = 30_000;
const MAX_CACHED = 1000;

export class KnexApiKeyStore implements ApiKeyStore {
  /** Hashes of keys the database confirmed, with when to ask again. Only hits are cached, so
   * guessing keys cannot grow it, and it is bounded anyway. */
  private readonly verified = new Map<string, number>();

  constructor(
    private readonly knex: Knex,
    private readonly now: () => number = Date.now,
  ) {}

  async add(key: string, label: string): Promise<void> {
    await this.knex('api_keys')
      .insert({ key_hash: hashApiKey(key), label, created_at: new Date().toISOString() })
      .onConflict('key_hash')
      .ignore();
  }

  async verify(key: string): Promise<boolean> {
    if (!key) return false;
    const hash = hashApiKey(key);
    const until = this.verified.get(hash);
    if (until !== undefined && until > this.now()) return true;
    const row = await this.knex('api_keys').select('id').where({ key_hash: hash }).first();
    if (row === undefined) {
      this.verified.delete(hash);
      return false;
    }
    if (this.verified.size >= MAX_CACHED) this.verified.clear();
    this.verified.set(hash, this.now() + VERIFIED_TTL_MS);
    return true;
  }

  async count(): Promise<number> {
    const row = await this.knex('api_keys').count<{ n: number | string }[]>({ n: '*' }).first();
    return Number(row?.n ?? 0);
  }
}
