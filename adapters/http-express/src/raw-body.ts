// Reads a request body as raw bytes, exactly as sent: no decoding, no inflating (a gzip body is
// kept gzip), any content type or none. Over the limit, reading stops and the error carries the
// size, so the caller can store a refusal.
import type { RequestHandler } from 'express';

export interface TooLarge {
  type: 'entity.too.large';
  limit: number;
  length: number;
}

export const rawBody =
  (limit: number): RequestHandler =>
  (req, res, next) => {
    const tooLarge = (length: number): void => {
      // The rest of an oversized body is not read; close the connection rather than reuse it.
      res.setHeader('connection', 'close');
      req.resume();
      next({ type: 'entity.too.large', limit, length } satisfies TooLarge);
    };
    const announced = Number(req.headers['content-length']);
    if (Number.isFinite(announced) && announced > limit) return tooLarge(announced);
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        chunks.length = 0;
        tooLarge(size);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (failed) return;
      req.body = Buffer.concat(chunks, size);
      next();
    });
    req.on('error', (err) => {
      if (!failed) next(err);
    });
  };
