// A fixed-window limit per client address, in memory (per process): enough to keep keyless minting
// from being a free token fountain and dashboard sign-in from being a key-guessing oracle. Over the
// limit: 429 rate_limited with Retry-After.
import type { Request, RequestHandler } from 'express';
import { SwitchyardError } from '@switchyard/core';

/** `what` names what is counted, for the refusal's message ("tokens", "sign-in attempts"). */
export function perClientLimit(perMinute: number, what: string, now: () => number = Date.now): RequestHandler {
  const windows = new Map<string, { start: number; count: number }>();
  return (req: Request, res, next) => {
    const t = now();
    const client = req.socket.remoteAddress ?? 'unknown';
    let w = windows.get(client);
    if (!w || t - w.start >= 60_000) {
      w = { start: t, count: 0 };
      windows.set(client, w);
      // Old windows go when the map grows; an address that stopped asking needs no entry.
      if (windows.size > 10_000) for (const [k, v] of windows) if (t - v.start >= 60_000) windows.delete(k);
    }
    if (++w.count > perMinute) {
      const retryAfter = Math.ceil((w.start + 60_000 - t) / 1000);
      res.set('Retry-After', String(retryAfter));
      throw new SwitchyardError('rate_limited', `at most ${perMinute} ${what} per minute per client; retry in ${retryAfter} s`, { retry_after_s: retryAfter, limit_per_minute: perMinute });
    }
    next();
  };
}

const mintLimiters = new WeakMap<object, RequestHandler>();
/** The one limiter all keyless minting routes of an app share (/start, workspace enter, self_scope). */
export function mintLimiter(ctx: { mintPerMinute: number }): RequestHandler {
  let limiter = mintLimiters.get(ctx);
  if (!limiter) mintLimiters.set(ctx, (limiter = perClientLimit(ctx.mintPerMinute, 'tokens')));
  return limiter;
}

const signInLimiters = new WeakMap<object, RequestHandler>();
/** Dashboard sign-in attempts per client: the same limit as keyless minting, in a budget of its own
 * (minting tokens does not use up sign-in attempts, nor the reverse). */
export function signInLimiter(ctx: { mintPerMinute: number }): RequestHandler {
  let limiter = signInLimiters.get(ctx);
  if (!limiter) signInLimiters.set(ctx, (limiter = perClientLimit(ctx.mintPerMinute, 'sign-in attempts')));
  return limiter;
}
