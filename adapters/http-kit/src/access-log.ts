// One log line per answered request at debug level: method, route pattern (never the raw path: a
// webhook's address is a secret, a query may hold a token), status, time and the request id (the
// line is written after the answer, outside the request's scope, so it names it). Written by the
// request observer (request-observer.ts) when the answer is out; nothing is built when the level
// leaves debug lines out.
import type { Request, Response } from 'express';
import type { HttpLogger } from './context.js';
import { routePattern } from './route-pattern.js';
import { requestIdOf } from './request-id.js';

export type AccessLog = (req: Request, res: Response, ms: number) => void;

/** The access log of `logger`, or null when it writes no debug lines. */
export function accessLog(logger: HttpLogger): AccessLog | null {
  const debug = logger.debug;
  if (!debug || logger.debugEnabled?.() === false) return null;
  return (req, res, ms) => {
    debug.call(logger, 'request', {
      request_id: requestIdOf(res),
      method: req.method,
      route: routePattern(req),
      status: res.writableFinished ? res.statusCode : 'aborted',
      ms: Math.round(ms * 100) / 100,
    });
  };
}
