// A budget of bytes held at once (request bodies in flight): reserve before holding, release after.
export class ByteBudget {
  private held = 0;

  constructor(readonly limit: number) {}

  /** Bytes reserved and not yet released. */
  get inFlight(): number {
    return this.held;
  }

  /** Reserves `bytes` if they fit under the limit; false (and nothing reserved) when they do not. */
  tryReserve(bytes: number): boolean {
    if (bytes < 0 || this.held + bytes > this.limit) return false;
    this.held += bytes;
    return true;
  }

  release(bytes: number): void {
    this.held = Math.max(0, this.held - bytes);
  }
}
