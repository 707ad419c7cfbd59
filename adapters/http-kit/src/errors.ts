// Error middleware: every failure leaves as { ok: false, error: { code, message, ...details } }.
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { SwitchyardError } from '@switchyard/core';
import type { HttpLogger } from './context.js';
import { routePattern } from './route-pattern.js';
import { statusFor } from './status.js';
import { STORAGE_RETRY_AFTER_SECONDS, storageFailure, type StorageFailures } from './storage-failures.js';

/** Errors raised by Express's own body parsers carry a `type`; give them our codes. */
function fromBodyParser(err: { type?: string; message?: string; limit?: number }): SwitchyardError | undefined {
  switch (err.type) {
    case 'entity.too.large':
      return new SwitchyardError('payload_too_large', `request body is larger than ${err.limit} bytes`, { limit: err.limit });
    case 'entity.parse.failed':
      return new SwitchyardError('invalid_request', `request body is not valid JSON: ${err.message}`);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new SwitchyardError('unsupported_media_type', err.message ?? 'unsupported encoding');
    default:
      return undefined;
  }
}

export const errorMiddleware = (logger: HttpLogger, failures?: StorageFailures): ErrorRequestHandler => (err, req, res, _next) => {
  const coded = storageFailure(err, failures) ?? (SwitchyardError.is(err) ? err : fromBodyParser(err as { type?: string }));
  if (!coded) {
    logger.error('unhandled error', { route: routePattern(req), error: (err as Error)?.stack ?? String(err) });
  }
  const error = coded ?? new SwitchyardError('internal_error', 'internal error');
  // Already answered (a timeout or a budget refusal while a body was being read, counted then): nothing to add.
  if (res.headersSent) return;
  res.locals['errorCode'] = error.code; // for the metrics' refusals by reason
  // The database did not take a write: nothing was done, and the same request may be sent again.
  if (error.code === 'storage_unavailable') res.set('Retry-After', String(STORAGE_RETRY_AFTER_SECONDS));
  res.status(statusFor(error.code)).json({ ok: false, error: error.toJSON() });
};

export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new SwitchyardError('not_found', `no route ${req.method} ${req.path}`));
};
