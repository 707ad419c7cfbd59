// A fixed-window limit per client address: enough to keep keyless minting from being a free token
// fountain and dashboard sign-in from being a key-guessing oracle. The windows are the
// ClientRateWindows port: in memory for one process (SQLite), in the database when several share
// PostgreSQL. The client is `req.ip`: the socket's address, or, from a proxy listed in
// server.trustedProxies, the address it forwarded (X-Forwarded-For). Over the limit: 429
// rate_limited with Retry-After.
import type { Request, RequestHandler } from 'express';
import { SwitchyardError, type ClientRateWindows } from '@switchyard/core';

/** The limit's settings: where windows are counted, and the budget per client per minute. */
export interface RateLimitContext {
  rateWindows: ClientRateWindows;
  mintPerMinute: number;
}

/** The client a request is counted for. */
export const clientAddress = (req: Request): string => req.ip ?? req.socket.remoteAddress ?? 'unknown';

/** `bucket` names the budget (one per kind of request); `what` names what is counted, for the refusal's message ("tokens", "sign-in attempts"). */
export function perClientLimit(windows: ClientRateWindows, perMinute: number, bucket: string, what: string, now: () => number = Date.now): RequestHandler {
  // Errors go to next(), never thrown: routes also call the limiter by hand, with a next of their own.
  return (req: Request, res, next) => {
    windows.take(bucket, clientAddress(req), perMinute, now()).then((verdict) => {
      if (verdict.allowed) return next();
      res.set('Retry-After', String(verdict.retryAfterS));
      next(new SwitchyardError('rate_limited', `at most ${perMinute} ${what} per minute per client; retry in ${verdict.retryAfterS} s`, { retry_after_s: verdict.retryAfterS, limit_per_minute: perMinute }));
    }, next);
  };
}

const mintLimiters = new WeakMap<object, RequestHandler>();
/** The one limiter all keyless minting routes of an app share (/start, workspace enter, self_scope). */
export function mintLimiter(ctx: RateLimitContext): RequestHandler {
  let limiter = mintLimiters.get(ctx);
  if (!limiter) mintLimiters.set(ctx, (limiter = perClientLimit(ctx.rateWindows, ctx.mintPerMinute, 'mint', 'tokens')));
  return limiter;
}

const signInLimiters = new WeakMap<object, RequestHandler>();
/** Dashboard sign-in attempts per client: the same limit as keyless minting, in a budget of its own
 * (minting tokens does not use up sign-in attempts, nor the reverse). */
export function signInLimiter(ctx: RateLimitContext): RequestHandler {
  let limiter = signInLimiters.get(ctx);
  if (!limiter) signInLimiters.set(ctx, (limiter = perClientLimit(ctx.rateWindows, ctx.mintPerMinute, 'sign-in', 'sign-in attempts')));
  return limiter;
}
