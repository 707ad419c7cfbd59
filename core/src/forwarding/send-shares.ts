// Each destination's share of a process's send slots: a destination that hangs or answers slowly
// holds at most its share, so the other destinations keep the rest of the slots.

/** A destination's share: its own `concurrency` when lower than the service's per-destination share. */
export const destinationShare = (own: number | null, perDestination: number): number => Math.max(1, Math.min(own ?? perDestination, perDestination));

/** Sends in flight per destination in this process, against each destination's share. */
export class SendShares {
  private readonly inFlight = new Map<string, number>();
  /** Destinations' own settings, as last seen (a destination not seen yet has the service's share). */
  private readonly own = new Map<string, number | null>();
  /** Destinations that had work turned away at their share since a slot of theirs last freed up. */
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

  /** Sends this destination may still start. */
  room(destination: string): number {
    return this.shareOf(destination) - (this.inFlight.get(destination) ?? 0);
  }

  take(destination: string): void {
    this.inFlight.set(destination, (this.inFlight.get(destination) ?? 0) + 1);
  }

  /** A send ended; true when the destination had work waiting for this slot. */
  release(destination: string): boolean {
    const n = (this.inFlight.get(destination) ?? 0) - 1;
    if (n <= 0) this.inFlight.delete(destination);
    else this.inFlight.set(destination, n);
    return this.waiting.delete(destination);
  }

  /** Work for this destination was turned away at its share: it is due again once a slot frees up. */
  turnedAway(destination: string): void {
    this.waiting.add(destination);
  }

  /** Destinations at their share now: a claim passes over their jobs. */
  full(): string[] {
    const out: string[] = [];
    for (const destination of this.inFlight.keys()) if (this.room(destination) <= 0) out.push(destination);
    return out;
  }

  /** Sends in flight to this destination. */
  sending(destination: string): number {
    return this.inFlight.get(destination) ?? 0;
  }
}
