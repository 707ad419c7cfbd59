// Query parameters shared by the ledger listings (docs/api.md, "Ledger listings"): limit (1–1000,
// default 50), order (newest or append; newest by default), and a cursor passed back as `before`
// (newest first) or `after` (append order); and the answer, written within the page byte budget.
import type { Response } from 'express';
import { SwitchyardError, type BudgetedPage, type LedgerOrder, type LedgerPageRequest } from '@switchyard/core';

export const MAX_LIMIT = 1000;
export const DEFAULT_LIMIT = 50;

export function parseLimit(value: unknown): number {
  if (value === undefined) return DEFAULT_LIMIT;
  const n = typeof value === 'string' && /^[0-9]+$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_LIMIT) throw new SwitchyardError('invalid_request', `limit must be an integer from 1 to ${MAX_LIMIT}`);
  return n;
}

export function parseCursor(value: unknown, name: string): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'string' || !/^[0-9]{1,15}$/.test(value)) throw new SwitchyardError('invalid_request', `${name} must be a cursor from next_cursor`);
  return value;
}

/** How each order is named in an answer's `order`. */
export const ORDER_NAMES: Record<LedgerOrder, string> = { newest: 'newest first', append: 'append' };

/**
 * The one paging rule of every ledger listing: `before=<cursor>` reads newest first past it,
 * `after=<cursor>` in append order past it, `order=newest|append` names the order of a first page.
 */
export function parseLedgerPage(query: Record<string, unknown>): LedgerPageRequest {
  const order = query['order'];
  if (order !== undefined && order !== 'newest' && order !== 'append') throw new SwitchyardError('invalid_request', 'order must be newest or append');
  const before = parseCursor(query['before'], 'before');
  const after = parseCursor(query['after'], 'after');
  if (before !== null && after !== null) throw new SwitchyardError('invalid_request', 'give before (newest first) or after (append order), not both');
  if ((before !== null && order === 'append') || (after !== null && order === 'newest')) {
    throw new SwitchyardError('invalid_request', 'before pages newest first and after in append order: drop order or the other cursor');
  }
  const limit = parseLimit(query['limit']);
  if (after !== null || order === 'append') return { order: 'append', cursor: after, limit };
  return { order: 'newest', cursor: before, limit };
}

/** The query parameter that carries a page's next_cursor in its order. */
export const cursorParam = (order: LedgerOrder): 'before' | 'after' => (order === 'newest' ? 'before' : 'after');

/**
 * Writes `{...head, items, next_cursor}` from the items' texts as filled within the byte budget:
 * the items are serialised once, by the page, and never again as a whole.
 */
export function writePage(res: Response, head: Record<string, unknown>, page: BudgetedPage<unknown>): void {
  const open = JSON.stringify(head).slice(0, -1);
  const json = `${open}${open.length > 1 ? ',' : ''}"items":[${page.texts.join(',')}],"next_cursor":${JSON.stringify(page.next_cursor)}}`;
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) }).end(json);
}

/** What a page's envelope takes of the byte budget, so that the whole answer stays within it. */
export const envelopeBytes = (head: Record<string, unknown>): number => Buffer.byteLength(JSON.stringify(head)) + 64;
