// Reads a request body as raw bytes, exactly as sent: no decoding, no inflating (a gzip body is
// kept gzip), any content type or none. Reading stops at a limit; the caller decides what follows
// (a refusal, and the connection closed rather than drained).
import type { IncomingMessage } from 'node:http';

export type BodyRead =
  | { kind: 'body'; bytes: Buffer }
  /** More than `limit` arrived; `size` is how much had when reading stopped. */
  | { kind: 'too_large'; size: number }
  /** The connection closed or failed before the body ended. */
  | { kind: 'aborted' };

/**
 * The whole body, or too_large as soon as it passes `limit`. A body with a content-length within
 * the limit is copied into one buffer of that size as it arrives (one copy of the body held, not
 * its chunks and then their concatenation).
 */
export function readBody(req: IncomingMessage, limit: number, declared: number | null = null): Promise<BodyRead> {
  return new Promise((resolve) => new BodyReader(req, limit, declared, resolve).listen());
}

/**
 * One body being read. Its listeners are methods bound once per read rather than closures: the
 * TypeScript loader the service runs under names every named closure as it is made (a property
 * definition each), a cost paid on every delivery.
 */
class BodyReader {
  private readonly whole: Buffer | null;
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private readonly onData = this.data.bind(this);
  private readonly onEnd = this.end.bind(this);
  private readonly onAbort = this.abort.bind(this);
  private readonly onClose = this.close.bind(this);

  constructor(
    private readonly req: IncomingMessage,
    private readonly limit: number,
    declared: number | null,
    private readonly resolve: (read: BodyRead) => void,
  ) {
    this.whole = declared !== null && declared <= limit ? Buffer.allocUnsafe(declared) : null;
  }

  listen(): void {
    this.req.on('data', this.onData).on('end', this.onEnd).on('error', this.onAbort).on('close', this.onClose);
  }

  private done(result: BodyRead): void {
    this.req.off('data', this.onData).off('end', this.onEnd).off('error', this.onAbort).off('close', this.onClose);
    if (result.kind !== 'body') this.req.pause();
    this.resolve(result);
  }

  private data(chunk: Buffer): void {
    // The parser frames a body by its content-length, so `whole` is never passed.
    if (this.whole) {
      chunk.copy(this.whole, this.size);
      this.size += chunk.length;
      return;
    }
    this.size += chunk.length;
    if (this.size > this.limit) {
      this.chunks.length = 0;
      this.done({ kind: 'too_large', size: this.size });
      return;
    }
    this.chunks.push(chunk);
  }

  private end(): void {
    this.done({ kind: 'body', bytes: this.whole ? this.whole.subarray(0, this.size) : Buffer.concat(this.chunks, this.size) });
  }

  private abort(): void {
    this.done({ kind: 'aborted' });
  }

  private close(): void {
    if (!this.req.complete) this.abort();
  }
}

/**
 * At most the first `max` bytes: whatever arrives within `waitMs` (a refusal does not wait for a
 * slow sender); `complete` when that was the whole body.
 */
export function readFirstBytes(req: IncomingMessage, max: number, waitMs: number): Promise<{ bytes: Buffer; complete: boolean }> {
  if (req.complete && req.readableLength === 0) return Promise.resolve({ bytes: Buffer.alloc(0), complete: true });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (complete: boolean): void => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('error', onStop).off('close', onStop);
      req.pause();
      resolve({ bytes: Buffer.concat(chunks, size).subarray(0, max), complete });
    };
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > max) done(false);
      else if (size === max && req.complete && req.readableLength === 0) done(true);
    };
    const onEnd = (): void => done(true);
    const onStop = (): void => done(false);
    const timer = setTimeout(() => done(false), waitMs);
    timer.unref();
    req.on('data', onData).on('end', onEnd).on('error', onStop).on('close', onStop);
  });
}

/** Bodies smaller than this are left to the collector (and may share Node's pool of small buffers). */
const RELEASED_FROM_BYTES = 64 * 1024;

/**
 * Frees a large body's memory now, once nothing needs it any more (it is stored): a body that
 * took a slow sender many seconds to send has outlived the collector's young generation, so its
 * bytes would otherwise stay resident until the next full collection, while the budget already
 * admits the next bodies. Its buffer is handed (transferred, not copied) to a throwaway that the
 * next minor collection frees; the body reads as empty afterwards.
 */
export function releaseBody(bytes: Uint8Array): void {
  const buffer = bytes.buffer;
  if (bytes.byteLength < RELEASED_FROM_BYTES || bytes.byteOffset !== 0 || buffer.byteLength !== bytes.byteLength || !(buffer instanceof ArrayBuffer)) return;
  structuredClone(buffer, { transfer: [buffer] });
}
