// The request id: a well-formed incoming x-request-id is kept, anything else replaced by a new
// one; it is echoed in the answer and carried (AsyncLocalStorage) to what the request causes, so
// log lines and ledger records (invocations, deliveries) name it.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import type { RequestScope } from '@switchyard/core';

export const REQUEST_ID_HEADER = 'x-request-id';

/** Ids that proxies and tracers send (UUIDs, ULIDs, hex, "edge-4711.3"): safe in a header, a log line and a column. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** Bytes of request bodies read and not yet answered; a body budget can own it, a gauge reads it. */
export interface BytesInFlight {
  add(bytes: number): void;
  release(bytes: number): void;
}

const scope = new AsyncLocalStorage<string>();

/** The id of the request being handled, or null outside one. */
export const currentRequestId = (): string | null => scope.getStore() ?? null;

/** The core's RequestScope port, answered from the request being handled. */
export const httpRequestScope: RequestScope = { requestId: currentRequestId };

export const requestIdOf = (res: Response): string => res.locals['requestId'] as string;

/**
 * Names the request, and runs the request stream's events in its scope: body readers continue
 * from a 'data' or 'end' listener, which would otherwise run outside it (the socket's context).
 * Seeing every chunk there is also the one place that counts body bytes in flight, whichever
 * reader (raw or JSON) consumes them; they are released when the answer is finished or aborted.
 */
export const requestIds =
  (bodies: BytesInFlight | null = null): RequestHandler =>
  (req, res, next) => {
    const incoming = req.headers[REQUEST_ID_HEADER];
    const id = typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
    res.locals['requestId'] = id;
    res.setHeader(REQUEST_ID_HEADER, id);
    let held = 0;
    let answered = false;
    const emit = req.emit;
    req.emit = function (this: typeof req, event: string | symbol, ...args: unknown[]): boolean {
      if (bodies && event === 'data' && !answered) {
        const size = (args[0] as { length?: number } | undefined)?.length ?? 0;
        held += size;
        bodies.add(size);
      }
      return scope.run(id, () => emit.call(this, event, ...args));
    } as typeof req.emit;
    if (bodies) {
      res.once('close', () => {
        answered = true;
        bodies.release(held);
        held = 0;
      });
    }
    scope.run(id, next);
  };
