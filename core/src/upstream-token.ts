// When a stored upstream access token is used no longer: a little before the expiry it was given
// with, so a request does not leave with a token that lapses on the way.

/** Seconds before expiry from which a token counts as expired. */
export const TOKEN_EXPIRY_MARGIN_S = 30;

/** True when a token obtained at `obtainedAtMs` and valid `expiresInS` seconds should be refreshed at `nowMs`; a token without expiry is used until refused. */
export function tokenNeedsRefresh(obtainedAtMs: number, expiresInS: number | undefined, nowMs: number): boolean {
  if (expiresInS === undefined || !Number.isFinite(expiresInS)) return false;
  return nowMs >= obtainedAtMs + Math.max(0, expiresInS - TOKEN_EXPIRY_MARGIN_S) * 1000;
}
