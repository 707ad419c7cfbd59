// The rule of client rate limits: a minute-long window opened by the client's first request, the
// budget counted in it, Retry-After until it ends; separate buckets and clients never share one.
import { expect } from 'chai';
import { MemoryRateWindows, RATE_WINDOW_MS, rateVerdict, windowOver } from '../../src/access/rate-window.js';

describe('core: client rate windows', () => {
  it('allows the budget, refuses the next request until the window ends, then opens a new one', async () => {
    const windows = new MemoryRateWindows();
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) expect(await windows.take('mint', '203.0.113.5', 3, t0 + i * 1000)).to.deep.equal({ allowed: true, retryAfterS: 60 - i });
    expect(await windows.take('mint', '203.0.113.5', 3, t0 + 30_500)).to.deep.equal({ allowed: false, retryAfterS: 30 });
    expect((await windows.take('mint', '203.0.113.5', 3, t0 + RATE_WINDOW_MS - 1)).allowed).to.equal(false);
    expect(await windows.take('mint', '203.0.113.5', 3, t0 + RATE_WINDOW_MS)).to.deep.equal({ allowed: true, retryAfterS: 60 });
  });

  it('keeps a budget per bucket and per client', async () => {
    const windows = new MemoryRateWindows();
    expect((await windows.take('mint', 'a', 1, 0)).allowed).to.equal(true);
    expect((await windows.take('mint', 'a', 1, 1)).allowed).to.equal(false);
    expect((await windows.take('sign-in', 'a', 1, 2)).allowed).to.equal(true);
    expect((await windows.take('mint', 'b', 1, 3)).allowed).to.equal(true);
  });

  it('says when a window is over and never answers a Retry-After under 1 s', () => {
    expect(windowOver(0, RATE_WINDOW_MS - 1)).to.equal(false);
    expect(windowOver(0, RATE_WINDOW_MS)).to.equal(true);
    expect(rateVerdict(5, 0, 4, RATE_WINDOW_MS - 10)).to.deep.equal({ allowed: false, retryAfterS: 1 });
    expect(rateVerdict(4, 0, 4, 0)).to.deep.equal({ allowed: true, retryAfterS: 60 });
  });
});
