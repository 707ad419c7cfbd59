// The ledger listings' order and cursor on knex: by seq, newest first or in append order, past the cursor.
import type { Knex } from 'knex';
import type { LedgerPageRequest } from '@switchyard/core';
import { cursorPosition } from '@switchyard/core/ledger-paging';

/** Orders `query` by `seq` and keeps the rows past the cursor; one row more than the limit tells whether more follow. */
export function seqPage<Q extends Knex.QueryBuilder>(query: Q, request: LedgerPageRequest): Q {
  const position = cursorPosition(request.cursor);
  const newest = request.order === 'newest';
  if (position !== null) query.where('seq', newest ? '<' : '>', position);
  return query.orderBy('seq', newest ? 'desc' : 'asc').limit(request.limit + 1) as Q;
}

/** The page of at most `limit` rows, and the cursor at its last row when more follow. */
export function pageOf<T extends { seq: number }>(items: T[], fetched: number, limit: number): { items: T[]; next_cursor: string | null } {
  return { items, next_cursor: fetched > limit && items.length > 0 ? String(items[items.length - 1]!.seq) : null };
}
