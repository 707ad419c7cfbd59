// The HTTP server around the app: header bytes bounded by the parser (431), every header line kept
// for the gate to count (Node otherwise drops lines past about a thousand without a word).
import { createServer, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';
import { statusFor } from './status.js';

export interface ServerLimits {
  /** Most bytes of a request's head (request line and headers). */
  maxHeaderBytes: number;
  /** Told of each request the parser turns away before the app sees it (the metrics count them). */
  refused?: (code: 'headers_too_large' | 'request_timeout') => void;
}

const HEADERS_TOO_LARGE = (limit: number): string => {
  const body = JSON.stringify({ ok: false, error: { code: 'headers_too_large', message: `request headers may total at most ${limit} bytes`, limit } });
  return `HTTP/1.1 ${statusFor('headers_too_large')} Request Header Fields Too Large\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
};

export function createHttpServer(app: Express, limits: ServerLimits): Server {
  const server = createServer({ maxHeaderSize: limits.maxHeaderBytes }, app);
  // No count limit in the parser: its bytes are bounded above, and the gate answers 431 past the count.
  server.maxHeadersCount = 0;
  server.on('clientError', (err: Error, socket: Duplex) => {
    if (!socket.writable) return void socket.destroy();
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'HPE_HEADER_OVERFLOW') {
      limits.refused?.('headers_too_large');
      socket.end(HEADERS_TOO_LARGE(limits.maxHeaderBytes));
    } else if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      limits.refused?.('request_timeout');
      socket.end('HTTP/1.1 408 Request Timeout\r\nconnection: close\r\n\r\n');
    } else socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
  });
  return server;
}
