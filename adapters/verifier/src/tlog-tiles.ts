// c2sp.org/tlog-tiles as a client reads it: tile paths, which tiles a tree of a given size has,
// and entry bundles. A tile at level L holds up to 256 consecutive hashes of complete subtrees of
// 256^L leaves (RFC 6962 tree level 8·L); an entry bundle holds up to 256 consecutive leaves, each
// after its length as a big-endian uint16. Paths: tile/<L>/<N>[.p/<W>] and
// tile/entries/<N>[.p/<W>], N in zero-padded 3-digit groups, all but the last prefixed with "x".
import { HASH_SIZE } from './merkle.js';

/** Hashes (or entries) in a full tile. */
export const TILE_WIDTH = 256;
/** Tree levels a tile spans. */
export const TILE_HEIGHT = 8;

/** A tile or an entry bundle: its level ('entries' for a bundle), index and width (256 when full). */
export interface TileRef {
  level: number | 'entries';
  index: number;
  width: number;
}

/** The index in path form: 1234067 → "x001/x234/067". */
export function tileIndexPath(index: number): string {
  const groups: string[] = [];
  let rest = index;
  do {
    groups.unshift(String(rest % 1000).padStart(3, '0'));
    rest = Math.floor(rest / 1000);
  } while (rest > 0);
  return groups.map((g, i) => (i < groups.length - 1 ? `x${g}` : g)).join('/');
}

/** The path of a tile below the log's prefix: "tile/0/x001/234.p/17". */
export const tilePath = (t: TileRef): string => `tile/${t.level}/${tileIndexPath(t.index)}${t.width < TILE_WIDTH ? `.p/${t.width}` : ''}`;

/** How many complete subtrees of 256^level leaves a tree of `size` holds (leaves for level 0 and bundles). */
export const hashesAtTileLevel = (level: number | 'entries', size: number): number => (level === 'entries' || level === 0 ? size : Math.floor(size / TILE_WIDTH ** level));

/** The RFC 6962 tree level whose hashes a tile holds. */
export const treeLevelOf = (level: number): number => level * TILE_HEIGHT;

/** The tiles a tree of `size` consists of, at every level (full ones, then the level's partial one). */
export function tilesOf(size: number): TileRef[] {
  const tiles: TileRef[] = [];
  for (let level = 0; level === 0 || hashesAtTileLevel(level, size) > 0; level++) {
    const count = hashesAtTileLevel(level, size);
    for (let index = 0; index < Math.floor(count / TILE_WIDTH); index++) tiles.push({ level, index, width: TILE_WIDTH });
    if (count % TILE_WIDTH > 0) tiles.push({ level, index: Math.floor(count / TILE_WIDTH), width: count % TILE_WIDTH });
  }
  return tiles;
}

/** The entry bundle that holds leaf `index` of a tree of `size`. */
export const bundleFor = (index: number, size: number): TileRef => {
  const n = Math.floor(index / TILE_WIDTH);
  return { level: 'entries', index: n, width: Math.min(TILE_WIDTH, size - n * TILE_WIDTH) };
};

/** A tile's bytes: its hashes, concatenated. */
export function tileBytes(hashes: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(hashes.length * HASH_SIZE);
  hashes.forEach((h, i) => {
    if (h.length !== HASH_SIZE) throw new Error(`a tile hash has ${h.length} bytes`);
    out.set(h, i * HASH_SIZE);
  });
  return out;
}

/** The hashes of a tile's bytes; throws unless it holds exactly `width` of them. */
export function tileHashes(bytes: Uint8Array, width: number): Uint8Array[] {
  if (bytes.length !== width * HASH_SIZE) throw new Error(`a tile of width ${width} has ${width * HASH_SIZE} bytes, not ${bytes.length}`);
  return Array.from({ length: width }, (_, i) => bytes.slice(i * HASH_SIZE, (i + 1) * HASH_SIZE));
}

/** The largest entry a bundle can carry (its length is a uint16). */
export const MAX_BUNDLE_ENTRY = 0xffff;

/** An entry bundle: each entry as a big-endian uint16 length and its bytes. */
export function entryBundle(entries: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(entries.reduce((n, e) => n + 2 + e.length, 0));
  let at = 0;
  for (const e of entries) {
    if (e.length > MAX_BUNDLE_ENTRY) throw new Error(`an entry of ${e.length} bytes does not fit an entry bundle`);
    out[at] = e.length >> 8;
    out[at + 1] = e.length & 0xff;
    out.set(e, at + 2);
    at += 2 + e.length;
  }
  return out;
}

/** The entries of a bundle; throws on a truncated one. */
export function parseEntryBundle(bundle: Uint8Array): Uint8Array[] {
  const entries: Uint8Array[] = [];
  for (let at = 0; at < bundle.length; ) {
    if (at + 2 > bundle.length) throw new Error('truncated entry bundle');
    const length = (bundle[at]! << 8) | bundle[at + 1]!;
    if (at + 2 + length > bundle.length) throw new Error('truncated entry bundle');
    entries.push(bundle.subarray(at + 2, at + 2 + length));
    at += 2 + length;
  }
  return entries;
}
