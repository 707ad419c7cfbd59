// c2sp.org/tlog-tiles as the log serves it: a requested tile path read strictly (one spelling per
// tile, else invalid_request) and held to the tree (past it, not_found). The formats themselves
// (paths, tiles, entry bundles) are the verifier's, which clients use too. Pure: no storage, no HTTP.
import { TILE_WIDTH, hashesAtTileLevel, tilePath, type TileRef } from '@switchyard/verifier';
import { SwitchyardError } from '../errors.js';

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

