// /api/proven-work/log/: the log as c2sp.org/tlog-tiles, so the transparency ecosystem's own tools
// (Go's sumdb/tlog, Tessera and Sigsum clients, witnesses) read it: the latest signed checkpoint,
// the Merkle tree as tiles of hashes and the leaves as entry bundles. Public, like proven-work.
import { gzipSync } from 'node:zlib';
import { Router, type Request, type Response } from 'express';
import { SwitchyardError, entryBundle, parseTilePath, tileBytes, tileRange, treeLevelOf } from '@switchyard/core';
import type { Needs } from '@switchyard/http-kit';

/** What this module uses of the HTTP context: it receives nothing else. */
type Ctx = Needs<'access' | 'apiKeys' | 'ledger' | 'tokenUses' | 'tokens'>;

export const LOG_PREFIX = '/api/proven-work/log';

// A tile's bytes never change once its path exists (a partial tile is named by its width), so every
// tile is cacheable for ever; the checkpoint moves, so it is not cached.
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Entry bundles are compressed at the HTTP layer, as the spec asks, when the client takes gzip. */
function sendBytes(req: Request, res: Response, bytes: Uint8Array, compress: boolean): void {
  res.set('Content-Type', 'application/octet-stream').set('Cache-Control', IMMUTABLE);
  if (compress) res.vary('Accept-Encoding');
  if (compress && req.acceptsEncodings('gzip', 'identity') === 'gzip') {
    res.set('Content-Encoding', 'gzip').send(gzipSync(bytes));
    return;
  }
  res.send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}

export function logTileRoutes(ctx: Ctx): Router {
  const router = Router();
  const latestSize = async (): Promise<number> => (await ctx.ledger.latestCheckpoint())?.size ?? 0;

  router.get(`${LOG_PREFIX}/checkpoint`, ctx.access.requireMove('confirm:read'), async (_req, res) => {
    const latest = await ctx.ledger.latestCheckpoint();
    if (!latest) throw new SwitchyardError('not_found', 'the log has no checkpoint yet: nothing has been integrated');
    res.set('Cache-Control', 'no-cache').type('text/plain; charset=utf-8').send(latest.note);
  });

  router.get(`${LOG_PREFIX}/tile/*tile`, ctx.access.requireMove('confirm:read'), async (req, res) => {
    const segments = (req.params as { tile: string[] }).tile;
    const tile = parseTilePath(segments.join('/'));
    // Served only below the latest checkpoint's size, so every tile is one the log has signed for.
    const { from, count } = tileRange(tile, await latestSize());
    if (tile.level === 'entries') {
      const leaves = await ctx.ledger.leaves(from, count);
      const encoder = new TextEncoder();
      sendBytes(req, res, entryBundle(leaves.map((l) => encoder.encode(l.leaf))), true);
      return;
    }
    sendBytes(req, res, tileBytes(await ctx.ledger.subtreeHashes(treeLevelOf(tile.level), from, count)), false);
  });

  return router;
}
