// Writes a JSON answer straight to the socket. Express's res.json also hashes the body for an
// ETag and checks freshness, which nothing does with the answer to a write (a run, a delivery);
// on the hot paths that was measurable CPU per request.
import type { Response } from 'express';

export function writeJson(res: Response, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) }).end(json);
}
