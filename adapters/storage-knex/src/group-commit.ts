// Group commit: writes that arrive while a transaction is in flight wait and then share the next
// one, so each caller still gets its answer only after its row is committed, but a burst of N
// concurrent writes costs one commit (one fsync) instead of N.
export class GroupCommit<T, R> {
  private pending: Array<{ item: T; resolve(r: R): void; reject(e: unknown): void }> = [];
  private flushing = false;

  /**
   * @param commitBatch writes a batch in one transaction and answers one result per item, in order.
   * @param commitOne the fallback when a batch fails: each item alone, so one bad item fails alone.
   */
  constructor(
    private readonly commitBatch: (items: T[]) => Promise<R[]>,
    private readonly commitOne: (item: T) => Promise<R>,
    private readonly maxBatch = 256,
  ) {}

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.pending.length > 0) {
        const batch = this.pending.splice(0, this.maxBatch);
        try {
          const results = await this.commitBatch(batch.map((b) => b.item));
          batch.forEach((b, i) => b.resolve(results[i]!));
        } catch {
          for (const b of batch) await this.commitOne(b.item).then(b.resolve, b.reject);
        }
      }
    } finally {
      this.flushing = false;
    }
  }
}
