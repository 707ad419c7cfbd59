// Every entry of a ledger listing (/api/ledger?event=…), oldest first, following next_cursor to the
// end: a short page with a cursor is not the end (pages are bounded in bytes too).
export async function allLedgerItems<T>(url: string, query: string, headers: Record<string, string>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  for (;;) {
    const page: Response = await fetch(`${url}/api/ledger?${query}&order=append&limit=1000${cursor === null ? '' : `&after=${cursor}`}`, { headers, signal: AbortSignal.timeout(30_000) });
    if (page.status !== 200) throw new Error(`the ledger listing ${query} answered ${page.status}: ${(await page.text()).slice(0, 300)}`);
    const body = (await page.json()) as { items: T[]; next_cursor: string | number | null };
    items.push(...body.items);
    if (body.next_cursor === null) return items;
    cursor = String(body.next_cursor);
  }
}
