// c2sp.org/tlog-tiles: the log served as static resources. A tile at level L holds up to 256
// consecutive hashes of complete subtrees of 256^L leaves (RFC 6962 tree level 8·L); an entry
// bundle holds up to 256 consecutive leaves, each prefixed by its length (big-endian uint16).
// Paths: tile/<L>/<N>[.p/<W>] and tile/entries/<N>[.p/<W>], N in zero-padded 3-digit groups,
// every group but the last prefixed with "x" (1234067 → x001/x234/067). Pure: no storage, no HTTP.
import { SwitchyardError } from './errors.js';
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

const MAX_LEVEL = 63;
// Indexes past this are far beyond any tree this service could hold, and stay exact as numbers.
const MAX_INDEX = Number.MAX_SAFE_INTEGER;

const malformed = (path: string, why: string) => new SwitchyardError('invalid_request', `malformed tile path ${JSON.stringify(path)}: ${why}`);

/** Parses the part of a tile path after "tile/": "<L>/<N>[.p/<W>]" or "entries/<N>[.p/<W>]". */
export function parseTilePath(path: string): TileRef {
  const parts = path.split('/');
  const levelPart = parts.shift() ?? '';
  let level: number | 'entries';
  if (levelPart === 'entries') level = 'entries';
  else if (/^(0|[1-9][0-9]?)$/.test(levelPart) && Number(levelPart) <= MAX_LEVEL) level = Number(levelPart);
  else throw malformed(path, 'the level is "entries" or a number from 0 to 63 without leading zeroes');

  let width = TILE_WIDTH;
  if (parts.length >= 2 && parts[parts.length - 2]!.endsWith('.p')) {
    const w = parts.pop()!;
    if (!/^[1-9][0-9]{0,2}$/.test(w) || Number(w) >= TILE_WIDTH) throw malformed(path, 'a partial width is a number from 1 to 255 without leading zeroes');
    width = Number(w);
    parts[parts.length - 1] = parts[parts.length - 1]!.slice(0, -2);
  }
  if (parts.length === 0) throw malformed(path, 'no tile index');
  let digits = '';
  parts.forEach((group, i) => {
    const last = i === parts.length - 1;
    if (!(last ? /^[0-9]{3}$/ : /^x[0-9]{3}$/).test(group)) throw malformed(path, 'the index is 3-digit groups, all but the last starting with "x"');
    digits += last ? group : group.slice(1);
  });
  // One canonical spelling per index: no leading all-zero groups.
  if (parts.length > 1 && parts[0] === 'x000') throw malformed(path, 'the index has a leading x000 group');
  const index = Number(digits);
  if (!Number.isSafeInteger(index) || index > MAX_INDEX) throw malformed(path, 'the index is too large');
  return { level, index, width };
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

/**
 * The positions a tile holds in its level, once it is known to exist in a tree of `size`: a full
 * tile once its 256 hashes are complete, a partial one for any width the tree has reached (every
 * such width is fixed for ever once reached, so it is served whether or not a checkpoint was signed
 * at exactly that size). Anything past the tree is `not_found`.
 */
export function tileRange(t: TileRef, size: number): { from: number; count: number } {
  const available = hashesAtTileLevel(t.level, size);
  const from = t.index * TILE_WIDTH;
  if (from + t.width > available) {
    const what = t.level === 'entries' ? 'entry bundle' : 'tile';
    throw new SwitchyardError('not_found', `${what} ${tilePath(t).slice(5)} is past the tree: the latest checkpoint has ${size} ${size === 1 ? 'leaf' : 'leaves'}`, { tree_size: size });
  }
  return { from, count: t.width };
}

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

/** A tile's bytes: its hashes, concatenated. */
export function tileBytes(hashes: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(hashes.length * HASH_SIZE);
  hashes.forEach((h, i) => {
    if (h.length !== HASH_SIZE) throw new Error(`a tile hash has ${h.length} bytes`);
    out.set(h, i * HASH_SIZE);
  });
  return out;
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
