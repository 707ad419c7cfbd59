// Each request's span (only when traces are on): continued from the caller's traceparent and
// active for everything the request causes, its body events and the close of its answer included
// (so the access log line and the ledger append are in it). Ended when the answer is done, named
// by the route pattern, never the raw path.
import type { RequestHandler } from 'express';
import { startServerSpan } from '@switchyard/telemetry';
import { routePattern } from './route-pattern.js';

export function requestTrace(): RequestHandler {
  return (req, res, next) => {
    const span = startServerSpan(req.method, req.path, req.headers);
    span.bind(req);
    span.bind(res);
    res.once('close', () => span.end(routePattern(req), res.writableFinished ? res.statusCode : 499));
    span.run(() => next());
  };
}
