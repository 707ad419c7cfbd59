// Splits a byte stream into lines without ever holding more than `limit` bytes of one: a longer
// line is dropped as it arrives and reported, when it ends, by its size and its first and last
// bytes (enough to read a JSON-RPC id), so the stream stays in step for the lines after it.

/** How much of an oversized line's start and end is kept. */
const EDGE_BYTES = 256;
const NEWLINE = 0x0a;

export type LineEvent = { line: string } | { oversized: { bytes: number; head: string; tail: string } };

export class BoundedLineReader {
  private parts: Buffer[] = [];
  private size = 0;
  /** Set while an oversized line is being dropped: its first bytes, and the last seen so far. */
  private dropping: { head: Buffer; tail: Buffer } | null = null;

  constructor(private readonly limit: number) {}

  /** The lines (and oversized lines) that this chunk completes, in order. */
  feed(chunk: Buffer): LineEvent[] {
    const events: LineEvent[] = [];
    let rest = chunk;
    while (rest.length > 0) {
      const end = rest.indexOf(NEWLINE);
      const piece = end === -1 ? rest : rest.subarray(0, end);
      this.take(piece);
      if (end === -1) break;
      events.push(this.finishLine());
      rest = rest.subarray(end + 1);
    }
    return events;
  }

  /** Whether the line begun and not ended still holds bytes of this chunk (so it must not be freed). */
  holds(chunk: Buffer): boolean {
    return this.parts.some((part) => part.buffer === chunk.buffer);
  }

  /** Forgets a line begun and not ended (the stream was closed). */
  clear(): void {
    this.parts = [];
    this.size = 0;
    this.dropping = null;
  }

  private take(piece: Buffer): void {
    this.size += piece.length;
    if (this.dropping) {
      this.dropping.tail = lastBytes([this.dropping.tail, piece]);
      return;
    }
    if (this.size <= this.limit) {
      if (piece.length > 0) this.parts.push(piece);
      return;
    }
    // Past the bound: keep only the edges from here on.
    const held = [...this.parts, piece];
    this.dropping = { head: firstBytes(held), tail: lastBytes(held) };
    this.parts = [];
  }

  private finishLine(): LineEvent {
    const event: LineEvent = this.dropping
      ? { oversized: { bytes: this.size, head: this.dropping.head.toString('utf8'), tail: this.dropping.tail.toString('utf8') } }
      : { line: Buffer.concat(this.parts, this.size).toString('utf8').replace(/\r$/, '') };
    this.clear();
    return event;
  }
}

function firstBytes(buffers: Buffer[]): Buffer {
  const out: Buffer[] = [];
  let n = 0;
  for (const b of buffers) {
    if (n >= EDGE_BYTES) break;
    const slice = b.subarray(0, EDGE_BYTES - n);
    out.push(slice);
    n += slice.length;
  }
  return Buffer.from(Buffer.concat(out, n));
}

function lastBytes(buffers: Buffer[]): Buffer {
  const out: Buffer[] = [];
  let n = 0;
  for (let i = buffers.length - 1; i >= 0 && n < EDGE_BYTES; i--) {
    const b = buffers[i]!;
    const slice = b.subarray(Math.max(0, b.length - (EDGE_BYTES - n)));
    out.unshift(slice);
    n += slice.length;
  }
  // A copy: a slice would keep the whole chunk it came from alive.
  return Buffer.from(Buffer.concat(out, n));
}
