// Each destination's share of a process's send slots: a destination that hangs or answers slowly
// has at most its share of requests under way, so the other destinations keep the rest.
// A destination's jobs are counted from the moment this process takes them on (leased at intake
// or claimed) until their request ends. Intake takes one on while the destination holds fewer than
// HELD_PER_SLOT times its share, and a claim takes on no more than that (a claim passes over a
// destination holding that many; what it brings past a destination's room goes back to the
// schedule). So the next request is ready (its job committed, its delivery read) when one ends; but
// only its share are sent at once: the rest wait here, in order, for a request of theirs to end.

/** Jobs a destination may hold per request it may have under way. */
export const HELD_PER_SLOT = 2;

/** A destination's share: its own `concurrency` when lower than the service's per-destination share. */
export const destinationShare = (own: number | null, perDestination: number): number => Math.max(1, Math.min(own ?? perDestination, perDestination));

export class SendShares {
  /** Jobs held per destination (taken on, request not ended). */
  private readonly held = new Map<string, number>();
  /** Requests under way per destination, and the jobs waiting for one of them to end. */
  private readonly sendingNow = new Map<string, number>();
  private readonly queues = new Map<string, Array<() => void>>();
  /** Destinations' own settings, as last seen (a destination not seen yet has the service's share). */
  private readonly own = new Map<string, number | null>();
  /** Destinations that had work turned away since a job of theirs last ended. */
  private readonly waiting = new Set<string>();

  constructor(readonly perDestination: number) {}

  /** Notes a destination's own setting. */
  know(destination: { id: string; concurrency: number | null }): void {
    if (this.own.size >= 10_000 && !this.own.has(destination.id)) this.own.clear();
    this.own.set(destination.id, destination.concurrency);
  }

  shareOf(destination: string): number {
    return destinationShare(this.own.get(destination) ?? null, this.perDestination);
  }

  /** The most jobs of one destination a claim should take. */
  get claimCap(): number {
    return this.perDestination * HELD_PER_SLOT;
  }

  /** Jobs this destination may still take on. */
  room(destination: string): number {
    return this.shareOf(destination) * HELD_PER_SLOT - (this.held.get(destination) ?? 0);
  }

  take(destination: string): void {
    this.held.set(destination, (this.held.get(destination) ?? 0) + 1);
  }

  /** A held job ended; true when the destination had work waiting for room. */
  release(destination: string): boolean {
    const n = (this.held.get(destination) ?? 0) - 1;
    if (n <= 0) this.held.delete(destination);
    else this.held.set(destination, n);
    return this.waiting.delete(destination);
  }

  /** Work for this destination was turned away for lack of room: it is due again once a job ends. */
  turnedAway(destination: string): void {
    this.waiting.add(destination);
  }

  /** Destinations without room now: a claim passes over their jobs. */
  full(): string[] {
    const out: string[] = [];
    for (const destination of this.held.keys()) if (this.room(destination) <= 0) out.push(destination);
    return out;
  }

  /**
   * Resolves once the destination has fewer than its share of requests under way, counting this
   * one: false at once, true after waiting for one to end.
   */
  async acquire(destination: string): Promise<boolean> {
    const now = this.sendingNow.get(destination) ?? 0;
    if (now < this.shareOf(destination)) {
      this.sendingNow.set(destination, now + 1);
      return false;
    }
    await new Promise<void>((resolve) => {
      const queue = this.queues.get(destination) ?? [];
      queue.push(resolve);
      this.queues.set(destination, queue);
    });
    return true;
  }

  /** A request ended: its place goes to the next job waiting, or is freed. */
  releaseSend(destination: string): void {
    const queue = this.queues.get(destination);
    const next = queue?.shift();
    if (queue && queue.length === 0) this.queues.delete(destination);
    if (next) return next();
    const n = (this.sendingNow.get(destination) ?? 0) - 1;
    if (n <= 0) this.sendingNow.delete(destination);
    else this.sendingNow.set(destination, n);
  }

  /** Requests under way to this destination. */
  sending(destination: string): number {
    return this.sendingNow.get(destination) ?? 0;
  }
}
