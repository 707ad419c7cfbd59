// Streams a delivery's stored body as it was received: its original content type, read from the
// database a slice at a time (never whole), each slice written before the next is read.
import type { Response } from 'express';
import { SwitchyardError, type DeliveryStore } from '@switchyard/core';

/** Bytes read from the database per query. */
export const BODY_SLICE_BYTES = 4 * 1024 * 1024;

const contentTypeOf = (headers: ReadonlyArray<readonly [string, string]>): string =>
  headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? 'application/octet-stream';

/** Resolves when the socket takes more, or the client has gone. */
const drained = (res: Response): Promise<void> =>
  new Promise((resolve) => {
    const done = () => {
      res.off('drain', done).off('close', done);
      resolve();
    };
    res.on('drain', done).on('close', done);
  });

export async function streamDeliveryBody(deliveries: DeliveryStore, entry: string, res: Response): Promise<void> {
  // Headers, size and hash only: a zero inline threshold leaves every body out of this read.
  const delivery = await deliveries.get(entry, { inlineBodyBytes: 0 });
  if (!delivery) throw new SwitchyardError('not_found', `no ledger entry ${entry}`);
  if (delivery.body_sha256 === null) throw new SwitchyardError('not_found', `delivery ${entry} has no stored body (it was refused for its size and not read)`, { entry });
  res.writeHead(200, {
    'content-type': contentTypeOf(delivery.headers),
    // RFC 9530: the receiver can check the bytes against the hash the listing gave.
    'repr-digest': `sha-256=:${Buffer.from(delivery.body_sha256, 'hex').toString('base64')}:`,
    // The bytes are a sender's, not ours: never sniffed, never run as a page of this origin.
    'x-content-type-options': 'nosniff',
    'content-security-policy': "sandbox; default-src 'none'",
    'cache-control': 'private, no-store',
  });
  for (let offset = 0; !res.destroyed; ) {
    const slice = await deliveries.readBody(entry, offset, BODY_SLICE_BYTES);
    if (!slice || slice.byteLength === 0) break;
    offset += slice.byteLength;
    if (!res.write(slice)) await drained(res);
    if (slice.byteLength < BODY_SLICE_BYTES) break;
  }
  res.end();
}
