// The one order and cursor rule of every ledger listing, and the byte budget a page keeps to.
import { SwitchyardError } from './errors.js';
import type { Page } from './page.js';

/**
 * Entries are listed by ledger position (`seq`): `newest` first, or in `append` order (oldest
 * first). A cursor is the `seq` of the last entry of the previous page; the next page continues
 * past it in the same order.
 */
export type LedgerOrder = 'append' | 'newest';

export interface LedgerPageRequest {
  order: LedgerOrder;
  /** The previous page's next_cursor, or null for the first page. */
  cursor: string | null;
  limit: number;
}

/** The cursor as a ledger position (0: before the first entry); anything else is invalid_request. */
export function cursorPosition(cursor: string | null): number | null {
  if (cursor === null) return null;
  const n = /^[0-9]{1,15}$/.test(cursor) ? Number(cursor) : NaN;
  if (!Number.isSafeInteger(n) || n < 0) throw new SwitchyardError('invalid_request', 'a cursor must be a next_cursor from an earlier page');
  return n;
}

export interface BudgetedPage<T> {
  items: T[];
  /** The text of each item, as it goes into the answer. */
  texts: string[];
  next_cursor: string | null;
}

/** Entries read from the store per query while a page is filled, so a page's rows are never all held at once. */
export const PAGE_BATCH = 100;

/**
 * Fills a page of at most `request.limit` entries whose texts (rendered by `render`, joined by
 * commas) take at most `maxBytes`. Entries are read in batches; when the next one would not fit,
 * the page ends early with a cursor at the last one taken. A page holds at least one entry, so a
 * listing always moves on; an entry that alone would pass the budget is given in its small form
 * when it has one (the inline threshold on bodies already keeps most entries small).
 */
export async function fillPage<T extends { seq: number }>(
  read: (request: LedgerPageRequest) => Promise<Page<T>>,
  request: LedgerPageRequest,
  render: (item: T) => string,
  maxBytes: number,
  /** A smaller text for an entry that alone would pass the budget (a delivery without its body). */
  renderSmall?: (item: T) => string,
): Promise<BudgetedPage<T>> {
  const items: T[] = [];
  const texts: string[] = [];
  let used = 0;
  let cursor = request.cursor;
  for (;;) {
    const batch = await read({ order: request.order, cursor, limit: Math.min(request.limit - items.length, PAGE_BATCH) });
    for (const item of batch.items) {
      let text = render(item);
      if (items.length === 0 && renderSmall && Buffer.byteLength(text) > maxBytes) text = renderSmall(item);
      const size = Buffer.byteLength(text) + (items.length > 0 ? 1 : 0);
      if (items.length > 0 && used + size > maxBytes) return { items, texts, next_cursor: String(items[items.length - 1]!.seq) };
      items.push(item);
      texts.push(text);
      used += size;
    }
    if (batch.next_cursor === null || items.length >= request.limit) return { items, texts, next_cursor: batch.next_cursor };
    cursor = batch.next_cursor;
  }
}
