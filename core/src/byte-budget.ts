// A budget of bytes held at once (request bodies in flight, bodies being stored): reserve before
// holding, release after. tryReserve refuses at once; reserve waits its turn (first come, first
// served), and a single reservation larger than the whole budget goes ahead when nothing else is held.
export class ByteBudget {
  private held = 0;
  private readonly waiting: Array<{ bytes: number; go(): void }> = [];

  constructor(readonly limit: number) {}

  /** Bytes reserved and not yet released. */
  get inFlight(): number {
    return this.held;
  }

  /** Reserves `bytes` if they fit under the limit (and nobody waits); false, with nothing reserved, when not. */
  tryReserve(bytes: number): boolean {
    if (bytes < 0 || this.waiting.length > 0 || this.held + bytes > this.limit) return false;
    this.held += bytes;
    return true;
  }

  /** Reserves `bytes` once they fit, after those who asked before. */
  reserve(bytes: number): Promise<void> {
    if (this.waiting.length === 0 && this.fits(bytes)) {
      this.held += bytes;
      return Promise.resolve();
    }
    return new Promise((go) => this.waiting.push({ bytes, go }));
  }

  release(bytes: number): void {
    this.held = Math.max(0, this.held - bytes);
    while (this.waiting.length > 0 && this.fits(this.waiting[0]!.bytes)) {
      const next = this.waiting.shift()!;
      this.held += next.bytes;
      next.go();
    }
  }

  private fits(bytes: number): boolean {
    return this.held === 0 || this.held + bytes <= this.limit;
  }
}
