// Group commit: writes that arrive while a transaction is in flight wait and then share the next
// one, so each caller still gets its answer only after its row is committed, but a burst of N
// concurrent writes costs one commit (one fsync) instead of N.
/** What a group commit reports, for metrics: batch sizes and batches that had to fall back. */
export interface GroupCommitObserver {
  /** A batch of `size` items went in as one statement. */
  committed(size: number): void;
  /** A batch of `size` items failed as a whole and was retried item by item. */
  fellBack(size: number): void;
}

export class GroupCommit<T, R> {
  private pending: Array<{ item: T; resolve(r: R): void; reject(e: unknown): void }> = [];
  private inFlight = 0;
  private scheduled = false;
  private failedBatches = 0;

  /**
   * @param commitBatch writes a batch in one transaction and answers one result per item, in order.
   * @param commitOne the fallback when a batch fails: each item alone, so one bad item fails alone.
   */
  constructor(
    private readonly commitBatch: (items: T[]) => Promise<R[]>,
    private readonly commitOne: (item: T) => Promise<R>,
    /** Transactions in flight at once: 1 for SQLite (one writer), more where the engine has a pool. */
    private readonly maxInFlight = 1,
    private readonly maxBatch = 256,
    private readonly observer: GroupCommitObserver | null = null,
  ) {}

  /** Batches that failed as a whole and were retried item by item. */
  get fallbacks(): number {
    return this.failedBatches;
  }

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /** Waits one turn of the event loop so writes that arrive together leave together. */
  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.maxInFlight || this.pending.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flushOne();
    });
  }

  private async flushOne(): Promise<void> {
    if (this.inFlight >= this.maxInFlight || this.pending.length === 0) return;
    this.inFlight += 1;
    const batch = this.pending.splice(0, this.maxBatch);
    this.schedule();
    try {
      const results = await this.commitBatch(batch.map((b) => b.item));
      this.observer?.committed(batch.length);
      batch.forEach((b, i) => b.resolve(results[i]!));
    } catch {
      this.failedBatches += 1;
      this.observer?.fellBack(batch.length);
      for (const b of batch) await this.commitOne(b.item).then(b.resolve, b.reject);
    } finally {
      this.inFlight -= 1;
      this.schedule();
    }
  }
}
