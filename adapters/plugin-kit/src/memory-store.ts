// An in-memory InvocationStore for plugin tests and core unit tests; it passes the store contract's invocation group.
import { cursorPosition, type InvocationRecord, type InvocationStore, type LedgerPageRequest, type Page, type RepairLink, type StoredInvocation } from '@switchyard/core';

export class MemoryInvocationStore implements InvocationStore {
  private readonly rows: StoredInvocation[] = [];

  async append(record: InvocationRecord): Promise<StoredInvocation> {
    // The knex stores refuse this through the primary key.
    if (this.rows.some((r) => r.id === record.id)) throw new Error(`invocation ${record.id} is already recorded`);
    const stored = { ...structuredClone(record), seq: this.rows.length + 1, repaired_by: [] };
    this.rows.push(stored);
    return this.withLinks(stored);
  }

  async get(id: string): Promise<StoredInvocation | undefined> {
    const row = this.rows.find((r) => r.id === id);
    return row ? this.withLinks(row) : undefined;
  }

  async list(options: LedgerPageRequest & { key?: string }): Promise<Page<StoredInvocation>> {
    const position = cursorPosition(options.cursor);
    const newest = options.order === 'newest';
    const ordered = newest ? [...this.rows].reverse() : this.rows;
    const matching = ordered.filter((r) => (options.key === undefined || r.key === options.key) && (position === null || (newest ? r.seq < position : r.seq > position)));
    const items = matching.slice(0, options.limit).map((r) => this.withLinks(r));
    const more = matching.length > options.limit;
    return { items, next_cursor: more ? String(items[items.length - 1]!.seq) : null };
  }

  async repairChain(id: string): Promise<RepairLink[]> {
    const chain: RepairLink[] = [];
    const reached = new Set([id]);
    for (const r of this.rows) {
      if (r.repairs !== null && reached.has(r.repairs)) {
        reached.add(r.id);
        chain.push({ id: r.id, repairs: r.repairs, ok: r.ok, status: r.status, seq: r.seq });
      }
    }
    return chain;
  }

  private withLinks(row: StoredInvocation): StoredInvocation {
    return { ...structuredClone(row), repaired_by: this.rows.filter((r) => r.repairs === row.id).map((r) => r.id) };
  }
}
