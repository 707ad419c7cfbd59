// Codes and refresh tokens on knex: each row is claimed once, by the one UPDATE that sets used_at
// where it was null (atomic on both engines, across processes); a second claim finds it used.
import type { Knex } from 'knex';
import type { Claimed } from '@switchyard/core';

export async function claimOnce<T>(knex: Knex, table: string, column: string, hash: string, at: string): Promise<Claimed<T>> {
  const changed = Number(await knex(table).where({ [column]: hash }).whereNull('used_at').update({ used_at: at }));
  const row = (await knex(table).where({ [column]: hash }).first()) as (T & { expires_at: number | string }) | undefined;
  if (!row) return { kind: 'unknown' };
  const record = { ...row, expires_at: Number(row.expires_at) } as T;
  return changed > 0 ? { kind: 'claimed', record } : { kind: 'used', record };
}
