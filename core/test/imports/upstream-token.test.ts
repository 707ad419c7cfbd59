// When a stored upstream access token is refreshed before use.
import { expect } from 'chai';
import { TOKEN_EXPIRY_MARGIN_MS, tokenNeedsRefresh } from '../../src/imports/upstream-token.js';

describe('tokenNeedsRefresh', () => {
  const at = 1_000_000;

  it('keeps a token until the margin before its expiry, then refreshes it', () => {
    expect(tokenNeedsRefresh(at, 3600, at + 3600_000 - TOKEN_EXPIRY_MARGIN_MS - 1)).to.equal(false);
    expect(tokenNeedsRefresh(at, 3600, at + 3600_000 - TOKEN_EXPIRY_MARGIN_MS)).to.equal(true);
    expect(tokenNeedsRefresh(at, 3600, at + 7200_000)).to.equal(true);
  });

  it('gives a short-lived token half its life, not a refresh before every use', () => {
    expect(tokenNeedsRefresh(at, 10, at + 4_999)).to.equal(false);
    expect(tokenNeedsRefresh(at, 10, at + 5_000)).to.equal(true);
  });

  it('uses a token without expires_in until the upstream refuses it', () => {
    expect(tokenNeedsRefresh(at, undefined, at + 365 * 86_400_000)).to.equal(false);
    expect(tokenNeedsRefresh(at, Number.NaN, at + 1)).to.equal(false);
  });
});
