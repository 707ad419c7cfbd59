// Forwarding destinations on knex: settings that change, beside their webhook.
import type { Knex } from 'knex';
import type { Destination, DestinationStore } from '@switchyard/core';

interface DestinationRow {
  id: string;
  hook_id: string;
  name: string;
  url: string;
  headers: string;
  /** JSON: "all", "none" or a list of names; null (destinations made before migration 019): "all". */
  forward_headers: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: string | null;
  timeout_ms: number;
  retry: string;
  rate_per_s: number | null;
  concurrency: number | string | null;
  ordered: number;
  filter: string | null;
  /** Null too for destinations made before migration 023. */
  transform: string | null;
  is_on: number;
  deleted_at: string | null;
  created_at: string;
  updated_at: string;
}

const toDestination = (r: DestinationRow): Destination => ({
  id: r.id,
  hook_id: r.hook_id,
  name: r.name,
  url: r.url,
  headers: JSON.parse(r.headers) as Record<string, string>,
  forward_headers: r.forward_headers === null ? 'all' : (JSON.parse(r.forward_headers) as Destination['forward_headers']),
  secret: r.secret,
  previous_secret: r.previous_secret,
  previous_secret_until: r.previous_secret_until,
  timeout_ms: Number(r.timeout_ms),
  retry: JSON.parse(r.retry) as Destination['retry'],
  rate_per_s: r.rate_per_s === null ? null : Number(r.rate_per_s),
  concurrency: r.concurrency === null ? null : Number(r.concurrency),
  ordered: Number(r.ordered) === 1,
  filter: r.filter,
  transform: r.transform ?? null,
  on: Number(r.is_on) === 1,
  deleted_at: r.deleted_at,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

function toColumns(d: Partial<Destination>): Partial<DestinationRow> {
  const { headers, forward_headers, retry, ordered, on, ...rest } = d;
  const out: Partial<DestinationRow> = { ...rest };
  if (forward_headers !== undefined) out.forward_headers = JSON.stringify(forward_headers);
  if (headers !== undefined) out.headers = JSON.stringify(headers);
  if (retry !== undefined) out.retry = JSON.stringify(retry);
  if (ordered !== undefined) out.ordered = ordered ? 1 : 0;
  if (on !== undefined) out.is_on = on ? 1 : 0;
  return out;
}

export class KnexDestinationStore implements DestinationStore {
  constructor(private readonly knex: Knex) {}

  async create(destination: Destination): Promise<Destination> {
    await this.knex('destinations').insert(toColumns(destination));
    return { ...destination };
  }

  async list(hookId: string, options: { includeDeleted?: boolean } = {}): Promise<Destination[]> {
    const q = this.knex<DestinationRow>('destinations').where({ hook_id: hookId });
    if (!options.includeDeleted) q.whereNull('deleted_at');
    return (await q.orderBy('created_at', 'asc').orderBy('id', 'asc')).map(toDestination);
  }

  async get(hookId: string, id: string): Promise<Destination | undefined> {
    const row = await this.knex<DestinationRow>('destinations').where({ hook_id: hookId, id }).first();
    return row ? toDestination(row) : undefined;
  }

  async update(hookId: string, id: string, changes: Partial<Destination>): Promise<Destination | undefined> {
    const { id: _id, hook_id: _hook, secret: _secret, previous_secret: _previous, previous_secret_until: _until, created_at: _created, ...rest } = changes;
    const count = await this.knex('destinations').where({ hook_id: hookId, id }).update(toColumns(rest));
    return count > 0 ? this.get(hookId, id) : undefined;
  }

  async rotate(hookId: string, id: string, expected: string, next: Pick<Destination, 'secret' | 'previous_secret' | 'previous_secret_until' | 'updated_at'>): Promise<boolean> {
    return (await this.knex('destinations').where({ hook_id: hookId, id, secret: expected }).update(next)) > 0;
  }
}
