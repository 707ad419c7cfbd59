// When a stored upstream access token is used no longer: a little before the expiry it was given
// with, so a request does not leave with a token that lapses on the way.

/** At most this long before expiry a token counts as expired (less for short-lived tokens: half their life). */
export const TOKEN_EXPIRY_MARGIN_MS = 30_000;

/** True when a token obtained at `obtainedAtMs` and valid `expiresInS` seconds should be refreshed at `nowMs`; a token without expiry is used until refused. */
export function tokenNeedsRefresh(obtainedAtMs: number, expiresInS: number | undefined, nowMs: number): boolean {
  if (expiresInS === undefined || !Number.isFinite(expiresInS)) return false;
  const lifeMs = Math.max(0, expiresInS * 1000);
  return nowMs >= obtainedAtMs + lifeMs - Math.min(TOKEN_EXPIRY_MARGIN_MS, lifeMs / 2);
}
