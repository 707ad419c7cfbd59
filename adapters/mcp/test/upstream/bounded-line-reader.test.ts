// BoundedLineReader: lines split across chunks come out whole; a line past the bound is reported
// by its size and edges; and `holds` says truly whether a chunk's bytes are still needed, so the
// transport may free every chunk it does not hold (freeing one it holds would corrupt the line).
import { expect } from 'chai';
import { BoundedLineReader } from '../../src/upstream/bounded-line-reader.js';

/** A chunk as a pipe read gives it: its own ArrayBuffer (Buffer.from would share the pool's). */
const chunk = (text: string | Buffer) => {
  const bytes = Buffer.alloc(Buffer.byteLength(text));
  (typeof text === 'string' ? Buffer.from(text) : text).copy(bytes);
  return bytes;
};
/** Frees a chunk as the stdio transport does: detached, its bytes are gone. */
const free = (buffer: Buffer) => (buffer.buffer as ArrayBuffer & { transfer?: (n: number) => ArrayBuffer }).transfer?.(0);

describe('BoundedLineReader', () => {
  it('holds a chunk while a line begun in it is unfinished, and lets it go once the line ends', () => {
    const reader = new BoundedLineReader(100);
    const first = chunk('{"id":1,');
    expect(reader.feed(first)).to.deep.equal([]);
    expect(reader.holds(first)).to.equal(true);
    const second = chunk('"ok":true}\n{"id":');
    expect(reader.feed(second)).to.deep.equal([{ line: '{"id":1,"ok":true}' }]);
    expect(reader.holds(first)).to.equal(false);
    expect(reader.holds(second)).to.equal(true);
    const third = chunk('2}\n');
    free(first);
    expect(reader.feed(third)).to.deep.equal([{ line: '{"id":2}' }]);
    expect(reader.holds(second)).to.equal(false);
    expect(reader.holds(third)).to.equal(false);
  });

  it('reads every line whole when each chunk it does not hold is freed at once', () => {
    const lines = Array.from({ length: 200 }, (_, i) => JSON.stringify({ id: i, text: 'y'.repeat(i * 7) }));
    const stream = Buffer.from(lines.join('\n') + '\n');
    const reader = new BoundedLineReader(10_000);
    const read: string[] = [];
    for (let at = 0; at < stream.length; at += 97) {
      const piece = chunk(stream.subarray(at, at + 97));
      for (const event of reader.feed(piece)) if ('line' in event) read.push(event.line);
      if (!reader.holds(piece)) free(piece);
    }
    expect(read).to.deep.equal(lines);
  });

  it('holds nothing of a line once it passes the bound, and reports its size, head and tail', () => {
    const reader = new BoundedLineReader(1000);
    const pieces = [chunk('{"id":7,"text":"' + 'x'.repeat(600)), chunk('x'.repeat(600)), chunk('x'.repeat(600) + '"}\n')];
    const events = pieces.flatMap((piece, i) => {
      const out = reader.feed(piece);
      // The first 616 bytes are within the bound and kept; once past it, only copied edges are.
      expect(reader.holds(piece)).to.equal(i === 0);
      if (i === 1) expect(reader.holds(pieces[0]!)).to.equal(false);
      return out;
    });
    expect(events).to.have.length(1);
    const { oversized } = events[0] as { oversized: { bytes: number; head: string; tail: string } };
    expect(oversized.bytes).to.equal(16 + 1800 + 2);
    expect(oversized.head.startsWith('{"id":7,')).to.equal(true);
    expect(oversized.tail.endsWith('x"}')).to.equal(true);
  });
});
