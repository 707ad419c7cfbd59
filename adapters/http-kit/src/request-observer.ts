// The first middleware of every request: what is kept of each request, in one layer with one
// 'close' listener (each layer and listener is paid by every request, /hook deliveries included):
// - its id, echoed in the answer, and the scope (request-id.ts) in which the rest of the request
//   and its stream's events run, so log lines and ledger records name it;
// - its body bytes in flight, counted as the parser hands them over, whichever reader takes them;
// - the malformed-encoding guard (malformed-encoding.ts), before any route decodes anything;
// - once the answer is out or the client has gone: the bytes released, the duration metric by
//   route pattern and status, a refusal by reason, the access log line.
import { performance } from 'node:perf_hooks';
import type { Request, RequestHandler, Response } from 'express';
import type { AccessLog } from './access-log.js';
import type { ReadCookie } from './malformed-encoding.js';
import { malformedEncodingGuard } from './malformed-encoding.js';
import type { ServiceMetrics } from '@switchyard/telemetry';
import { REQUEST_ID_HEADER, requestIdFrom, requestScope, type BytesInFlight } from './request-id.js';
import { routePattern } from './route-pattern.js';

export interface RequestObserverOptions {
  /** Where body bytes read and not yet answered are counted (a gauge), if anywhere. */
  bodies: BytesInFlight | null;
  metrics: Pick<ServiceMetrics, 'requestAnswered'> | null;
  accessLog: AccessLog | null;
  /** The cookies the service decodes (the guard checks those only). */
  readCookies: readonly ReadCookie[];
}

const OBSERVED = Symbol('switchyard.observed');

/** What is kept of a request while it is handled: one object, no closure per request. */
interface Observed {
  id: string;
  started: number;
  /** Body bytes counted in flight. */
  held: number;
  answered: boolean;
  /** The request stream's own emit. */
  emit: Request['emit'];
}

type ObservedRequest = Request & { [OBSERVED]: Observed };

export function requestObserver(options: RequestObserverOptions): RequestHandler {
  const { bodies, metrics, accessLog } = options;
  const guard = malformedEncodingGuard(options.readCookies);

  // Shared by every request (they read their state from it): body readers continue from a 'data'
  // or 'end' listener, which would otherwise run outside the request's scope (the socket's).
  function scopedEmit(this: ObservedRequest, event: string | symbol, chunk?: unknown): boolean {
    const seen = this[OBSERVED];
    if (bodies !== null && event === 'data' && !seen.answered) {
      const size = (chunk as { length?: number } | undefined)?.length ?? 0;
      seen.held += size;
      bodies.add(size);
    }
    // `arguments`: every argument the stream passes on, without a rest array per event.
    // eslint-disable-next-line prefer-rest-params
    return requestScope.run(seen.id, Reflect.apply, seen.emit, this, arguments) as boolean;
  }

  function onClose(this: Response): void {
    const req = this.req as ObservedRequest;
    const seen = req[OBSERVED];
    seen.answered = true;
    if (bodies !== null) {
      bodies.release(seen.held);
      seen.held = 0;
    }
    const ms = performance.now() - seen.started;
    if (metrics !== null) metrics.requestAnswered(req.method, routePattern(req), this.writableFinished ? this.statusCode : null, ms / 1000, this.statusCode, this.locals['errorCode'] as string | undefined);
    if (accessLog !== null) accessLog(req, this, ms);
  }

  /** Inside the request's scope: the guard's refusal goes to the error middleware, named. */
  const guarded = (req: Request, res: Response, next: (err?: unknown) => void): void => {
    const malformed = guard(req, res);
    if (malformed) throw malformed;
    next();
  };

  return (req, res, next) => {
    const id = requestIdFrom(req.headers[REQUEST_ID_HEADER]);
    res.locals['requestId'] = id;
    res.setHeader(REQUEST_ID_HEADER, id);
    // Every answer is read as the type it names, never sniffed: a markdown or plain-text echo of a
    // caller's words cannot turn into a page that runs script.
    res.setHeader('x-content-type-options', 'nosniff');
    (req as ObservedRequest)[OBSERVED] = { id, started: performance.now(), held: 0, answered: false, emit: req.emit };
    req.emit = scopedEmit as Request['emit'];
    res.on('close', onClose);
    requestScope.run(id, guarded, req, res, next);
  };
}
