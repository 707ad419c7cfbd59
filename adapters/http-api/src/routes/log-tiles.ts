// /api/proven-work/log/: the log as c2sp.org/tlog-tiles, so the transparency ecosystem's own tools
// (Go's sumdb/tlog, Tessera and Sigsum clients, witnesses) read it: the latest signed checkpoint,
// the Merkle tree as tiles of hashes and the leaves as entry bundles. Public, like proven-work.
import { gzipSync } from 'node:zlib';
import { Router, type Request, type Response } from 'express';
import { SwitchyardError, TILE_WIDTH, entryBundle, parseTilePath, tileBytes, tilePath, tileRange, treeLevelOf } from '@switchyard/core';
import type { Needs } from '@switchyard/http-kit';

/** What this module uses of the HTTP context: it receives nothing else. */
type Ctx = Needs<'access' | 'apiKeys' | 'ledger' | 'tokenUses' | 'tokens'>;

export const LOG_PREFIX = '/api/proven-work/log';

// A tile's bytes never change once its path exists (a partial tile is named by its width), so every
// tile is cacheable for ever; the checkpoint moves, so it is not cached.
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The last full tiles and bundles served (their bytes and, for bundles, the gzip), least recently
 * used out first: a full tile never changes, so clients tailing the log read it from memory
 * instead of 256 rows and a compression each time. 64 bundles of ~100 KiB is a few MiB at most.
 */
class FullTileCache {
  private readonly entries = new Map<string, Buffer>();
  constructor(private readonly max = 64) {}
  get(key: string): Buffer | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }
  set(key: string, value: Buffer): Buffer {
    this.entries.set(key, value);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }
}

/** Entry bundles are compressed at the HTTP layer, as the spec asks, when the client takes gzip. */
function sendBytes(req: Request, res: Response, bytes: () => Promise<Uint8Array>, options: { compress: boolean; cacheKey: string | null; cache: FullTileCache }): Promise<void> {
  res.set('Content-Type', 'application/octet-stream').set('Cache-Control', IMMUTABLE);
  if (options.compress) res.vary('Accept-Encoding');
  const gzip = options.compress && req.acceptsEncodings('gzip', 'identity') === 'gzip';
  const key = options.cacheKey === null ? null : `${options.cacheKey}${gzip ? ' gzip' : ''}`;
  const cached = key === null ? undefined : options.cache.get(key);
  const body = cached
    ? Promise.resolve(cached)
    : bytes().then((b) => {
        const out = gzip ? gzipSync(b) : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
        return key === null ? out : options.cache.set(key, out);
      });
  return body.then((out) => {
    if (gzip) res.set('Content-Encoding', 'gzip');
    res.send(out);
  });
}

export function logTileRoutes(ctx: Ctx): Router {
  const router = Router();
  const latestSize = async (): Promise<number> => (await ctx.ledger.latestCheckpoint())?.size ?? 0;
  const cache = new FullTileCache();

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
    const cacheKey = tile.width === TILE_WIDTH ? tilePath(tile) : null;
    if (tile.level === 'entries') {
      const encoder = new TextEncoder();
      await sendBytes(req, res, async () => entryBundle((await ctx.ledger.leaves(from, count)).map((l) => encoder.encode(l.leaf))), { compress: true, cacheKey, cache });
      return;
    }
    const level = tile.level;
    await sendBytes(req, res, async () => tileBytes(await ctx.ledger.subtreeHashes(treeLevelOf(level), from, count)), { compress: false, cacheKey, cache });
  });

  return router;
}
