// An in-memory InvocationStore for unit tests of the pure core (the real stores run the store contract).
import type { InvocationRecord, InvocationStore, Page, RepairLink, StoredInvocation } from '@switchyard/core';

export class MemoryInvocationStore implements InvocationStore {
  private readonly rows: StoredInvocation[] = [];

  async append(record: InvocationRecord): Promise<StoredInvocation> {
    const stored = { ...structuredClone(record), seq: this.rows.length + 1, repaired_by: [] };
    this.rows.push(stored);
    return this.withLinks(stored);
  }

  async get(id: string): Promise<StoredInvocation | undefined> {
    const row = this.rows.find((r) => r.id === id);
    return row ? this.withLinks(row) : undefined;
  }

  async listByKey(key: string, options: { after?: string | null; limit: number }): Promise<Page<StoredInvocation>> {
    const after = options.after ? Number(options.after) : 0;
    const matching = this.rows.filter((r) => r.key === key && r.seq > after);
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
