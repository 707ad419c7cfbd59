import { expect } from 'chai';
import { SwitchyardError, entryBundle, parseEntryBundle, parseTilePath, tileBytes, tileIndexPath, tilePath, tileRange, tilesOf } from '../../src/index.js';

const code = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    if (SwitchyardError.is(e)) return e.code;
    throw e;
  }
  throw new Error('did not throw');
};

describe('tlog-tiles (c2sp.org/tlog-tiles)', () => {
  it('writes and reads tile indexes in 3-digit groups, "x" before all but the last', () => {
    expect(tileIndexPath(0)).to.equal('000');
    expect(tileIndexPath(999)).to.equal('999');
    expect(tileIndexPath(1000)).to.equal('x001/000');
    expect(tileIndexPath(1234067)).to.equal('x001/x234/067');
    for (const index of [0, 7, 999, 1000, 1234067, 2 ** 40]) expect(parseTilePath(`0/${tileIndexPath(index)}`).index).to.equal(index);
  });

  it('parses levels, entry bundles and partial widths, and formats them back', () => {
    expect(parseTilePath('0/x001/x234/067')).to.deep.equal({ level: 0, index: 1234067, width: 256 });
    expect(parseTilePath('2/005.p/17')).to.deep.equal({ level: 2, index: 5, width: 17 });
    expect(parseTilePath('entries/x001/002.p/255')).to.deep.equal({ level: 'entries', index: 1002, width: 255 });
    expect(parseTilePath('63/000')).to.deep.equal({ level: 63, index: 0, width: 256 });
    for (const path of ['1/x001/x234/067', '0/000.p/1', 'entries/x002/999']) expect(tilePath(parseTilePath(path))).to.equal(`tile/${path}`);
  });

  it('refuses malformed paths with invalid_request', () => {
    for (const bad of ['', '0', 'entries', '00/000', '64/000', '-1/000', 'x/000', '0/1', '0/0000', '0/001/002', '0/x001', '0/x000/123', '0/000.p/0', '0/000.p/256', '0/000.p/07', '0/000.p/', '0/000.p', '0/000.q/3', '0/000/', '0/x1234/000', 'data/000'])
      expect(code(() => parseTilePath(bad)), bad).to.equal('invalid_request');
  });

  it('serves a tile only within the tree; past it, not_found', () => {
    // 70,000 leaves: 273 full level-0 tiles and one of width 112; one full level-1 tile and one of 17; level 2 of width 1.
    expect(tileRange({ level: 0, index: 272, width: 256 }, 70_000)).to.deep.equal({ from: 272 * 256, count: 256 });
    expect(tileRange({ level: 0, index: 273, width: 112 }, 70_000)).to.deep.equal({ from: 273 * 256, count: 112 });
    expect(tileRange({ level: 0, index: 273, width: 100 }, 70_000)).to.deep.equal({ from: 273 * 256, count: 100 });
    expect(code(() => tileRange({ level: 0, index: 273, width: 113 }, 70_000))).to.equal('not_found');
    expect(code(() => tileRange({ level: 0, index: 273, width: 256 }, 70_000))).to.equal('not_found');
    expect(tileRange({ level: 1, index: 1, width: 17 }, 70_000)).to.deep.equal({ from: 256, count: 17 });
    expect(code(() => tileRange({ level: 1, index: 1, width: 18 }, 70_000))).to.equal('not_found');
    expect(tileRange({ level: 2, index: 0, width: 1 }, 70_000)).to.deep.equal({ from: 0, count: 1 });
    expect(code(() => tileRange({ level: 3, index: 0, width: 1 }, 70_000))).to.equal('not_found');
    expect(code(() => tileRange({ level: 'entries', index: 0, width: 1 }, 0))).to.equal('not_found');
  });

  it('lists the tiles of a tree as the spec counts them', () => {
    const t = tilesOf(70_000).map(tilePath);
    expect(t.filter((p) => p.startsWith('tile/0/'))).to.have.length(274);
    expect(t.filter((p) => !p.startsWith('tile/0/'))).to.deep.equal(['tile/1/000', 'tile/1/001.p/17', 'tile/2/000.p/1']);
    expect(tilesOf(256).map(tilePath)).to.deep.equal(['tile/0/000', 'tile/1/000.p/1']);
    expect(tilesOf(0)).to.deep.equal([]);
  });

  it('bundles entries with big-endian uint16 lengths and reads them back', () => {
    const entries = [new Uint8Array(0), new TextEncoder().encode('hello'), new Uint8Array(300).fill(7)];
    const bundle = entryBundle(entries);
    expect(Buffer.from(bundle.subarray(0, 9)).toString('hex')).to.equal('00000005' + Buffer.from('hello').toString('hex').slice(0, 10));
    expect(bundle[9]).to.equal(0x01);
    expect(bundle[10]).to.equal(0x2c);
    expect(parseEntryBundle(bundle).map((e) => Buffer.from(e).toString('hex'))).to.deep.equal(entries.map((e) => Buffer.from(e).toString('hex')));
    expect(() => parseEntryBundle(bundle.subarray(0, bundle.length - 1))).to.throw(/truncated/);
    expect(() => entryBundle([new Uint8Array(0x10000)])).to.throw(/does not fit/);
    expect(tileBytes([new Uint8Array(32).fill(1), new Uint8Array(32).fill(2)])).to.have.length(64);
  });
});
