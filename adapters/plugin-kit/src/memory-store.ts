// An in-memory InvocationStore for plugin tests and core unit tests; it passes the store contract's invocation group.
import { SwitchyardError, type InvocationRecord, type InvocationStore, type Page, type RepairLink, type StoredInvocation } from '@switchyard/core';

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

  async listByKey(key: string, options: { after?: string | null; limit: number }): Promise<Page<StoredInvocation>> {
    const after = options.after ? cursorSeq(options.after) : 0;
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

/** A cursor is a ledger position this store gave out; anything else is refused, as the knex store does. */
function cursorSeq(cursor: string): number {
  const seq = Number(cursor);
  if (!Number.isSafeInteger(seq) || seq < 0) throw new SwitchyardError('invalid_request', 'after must be a cursor from next_cursor');
  return seq;
}
