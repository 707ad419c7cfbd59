// One log line per answered request at debug level: method, route pattern (never the raw path: a
// webhook's address is a secret, a query may hold a token), status, time and the request id (the
// line is written after the answer, outside the request's scope, so it names it).
import type { RequestHandler } from 'express';
import type { HttpLogger } from './context.js';
import { routePattern } from './route-pattern.js';
import { requestIdOf } from './request-id.js';

export const accessLog =
  (logger: HttpLogger): RequestHandler =>
  (req, res, next) => {
    const debug = logger.debug;
    if (!debug) return next();
    const started = process.hrtime.bigint();
    res.once('close', () => {
      debug.call(logger, 'request', {
        request_id: requestIdOf(res),
        method: req.method,
        route: routePattern(req),
        status: res.writableFinished ? res.statusCode : 'aborted',
        ms: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
      });
    });
    next();
  };
