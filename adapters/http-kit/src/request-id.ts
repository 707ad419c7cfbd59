// The request id: a well-formed incoming x-request-id is kept, anything else replaced by a new
// one; it is echoed in the answer and carried (AsyncLocalStorage) to what the request causes, so
// log lines and ledger records (invocations, deliveries) name it.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Response } from 'express';
import type { RequestScope } from '@switchyard/core';

export const REQUEST_ID_HEADER = 'x-request-id';

/** Ids that proxies and tracers send (UUIDs, ULIDs, hex, "edge-4711.3"): safe in a header, a log line and a column. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

export type { BytesInFlight } from '@switchyard/telemetry';

const scope = new AsyncLocalStorage<string>();

/** The id of the request being handled, or null outside one. */
export const currentRequestId = (): string | null => scope.getStore() ?? null;

/** The core's RequestScope port, answered from the request being handled. */
export const httpRequestScope: RequestScope = { requestId: currentRequestId };

export const requestIdOf = (res: Response): string => res.locals['requestId'] as string;

/** The scope a request and what it causes run in (request-observer.ts enters it). */
export const requestScope: Pick<AsyncLocalStorage<string>, 'run'> = scope;

/** A well-formed incoming id, or a new one. */
export const requestIdFrom = (incoming: string | string[] | undefined): string =>
  typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
