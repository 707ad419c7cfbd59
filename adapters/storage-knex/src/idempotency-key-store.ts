// Idempotency keys on knex: one row per (credential, key), so every process on the database agrees
// on which request a key belongs to and which run it started. Not a ledger table.
import type { Knex } from 'knex';
import type { IdempotencyClaim, IdempotencyKeyStore } from '@switchyard/core';

interface ClaimRow {
  scope: string;
  key: string;
  request_hash: string;
  invocation: string;
  lease_until: number | string;
  created_at: number | string;
}

const toClaim = (r: ClaimRow): IdempotencyClaim => ({ ...r, lease_until: Number(r.lease_until), created_at: Number(r.created_at) });

export class KnexIdempotencyKeyStore implements IdempotencyKeyStore {
  constructor(private readonly knex: Knex) {}

  async claim(claim: IdempotencyClaim): Promise<IdempotencyClaim | null> {
    await this.knex('idempotency_keys').insert(claim).onConflict(['scope', 'key']).ignore();
    const row = (await this.knex('idempotency_keys').where({ scope: claim.scope, key: claim.key }).first()) as ClaimRow | undefined;
    // Gone between the two statements only if deleted by hand; then nobody holds it, and neither does this request.
    if (!row) throw new Error(`idempotency key ${claim.key} vanished while being claimed`);
    return row.invocation === claim.invocation ? null : toClaim(row);
  }

  async takeOver(from: IdempotencyClaim, to: IdempotencyClaim): Promise<boolean> {
    const changed = await this.knex('idempotency_keys')
      .where({ scope: from.scope, key: from.key, invocation: from.invocation })
      .update({ request_hash: to.request_hash, invocation: to.invocation, lease_until: to.lease_until, created_at: to.created_at });
    return Number(changed) === 1;
  }

  async release(claim: IdempotencyClaim): Promise<void> {
    await this.knex('idempotency_keys').where({ scope: claim.scope, key: claim.key, invocation: claim.invocation }).update({ lease_until: 0 });
  }

  async forgetUsedBy(cutoff: number, limit: number): Promise<number> {
    // Row values (scope, key) IN (…): PostgreSQL and SQLite alike; the subquery bounds the DELETE
    // (neither engine's DELETE takes a LIMIT everywhere) and walks the created_at index (migration 024b).
    const deleted = await this.knex.raw(
      'DELETE FROM idempotency_keys WHERE (scope, key) IN (SELECT scope, key FROM idempotency_keys WHERE created_at <= ? ORDER BY created_at LIMIT ?) RETURNING key',
      [cutoff, limit],
    );
    return (Array.isArray(deleted) ? deleted : (deleted as { rows: unknown[] }).rows).length;
  }
}
