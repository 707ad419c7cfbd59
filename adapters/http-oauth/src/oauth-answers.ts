// How the OAuth endpoints answer: JSON never cached (RFC 6749 §5.1), errors in RFC 6749 form
// ({error, error_description}) with the RFC's status, whatever went wrong — our coded errors and the
// body parsers' included. CORS is open on them (and on the metadata): browser-based MCP clients
// call them cross-origin, and they carry no cookie.
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import { OAuthError, SwitchyardError } from '@switchyard/core';
import type { HttpLogger, StorageFailures } from '@switchyard/http-kit';
import { STORAGE_RETRY_AFTER_SECONDS, storageFailure } from '@switchyard/http-kit';
import { statusFor } from '@switchyard/http-kit';
import { routePattern } from '@switchyard/http-kit';

export function sendOAuth(res: Response, status: number, body: unknown): void {
  res.status(status).set({ 'cache-control': 'no-store', pragma: 'no-cache' }).json(body);
}

export const openCors: RequestHandler = (req, res, next) => {
  res.set('access-control-allow-origin', '*');
  if (req.method === 'OPTIONS') {
    res.set({ 'access-control-allow-methods': 'GET, POST', 'access-control-allow-headers': 'authorization, content-type, mcp-protocol-version', 'access-control-max-age': '600' });
    res.status(204).end();
    return;
  }
  next();
};

/** The OAuth form of anything thrown on an OAuth endpoint. */
export function toOAuthError(err: unknown): { error: OAuthError; status: number } | null {
  if (OAuthError.is(err)) return { error: err, status: err.status };
  if (SwitchyardError.is(err)) {
    // A rate limit or a busy service keeps its status; anything else the caller sent is invalid_request.
    const status = statusFor(err.code);
    const code = status === 429 || status >= 500 ? 'temporarily_unavailable' : 'invalid_request';
    return { error: new OAuthError(code, err.message), status };
  }
  const type = (err as { type?: string } | null)?.type;
  if (type === 'entity.parse.failed') return { error: new OAuthError('invalid_request', 'the body does not parse'), status: 400 };
  if (type === 'entity.too.large') return { error: new OAuthError('invalid_request', 'the body is too large'), status: 413 };
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') return { error: new OAuthError('invalid_request', 'unsupported body encoding'), status: 415 };
  return null;
}

export const oauthErrors = (logger: HttpLogger, failures?: StorageFailures): ErrorRequestHandler => (err, req, res, _next) => {
  if (res.headersSent) return;
  // A database that did not serve the request: temporarily_unavailable (503, Retry-After), never server_error.
  const storage = storageFailure(err, failures);
  if (storage) res.set('Retry-After', String(STORAGE_RETRY_AFTER_SECONDS));
  const known = toOAuthError(storage ?? err);
  if (!known) logger.error('unhandled error', { route: routePattern(req), error: (err as Error)?.stack ?? String(err) });
  const { error, status } = known ?? { error: new OAuthError('server_error', 'internal error'), status: 500 };
  res.locals['errorCode'] = error.error;
  // RFC 6749 §5.2: a client that tried HTTP Basic and failed is told so with a challenge.
  if (error.error === 'invalid_client' && /^Basic\s/i.test(req.get('authorization') ?? '')) res.set('www-authenticate', 'Basic realm="switchyard", charset="UTF-8"');
  sendOAuth(res, status, error.toJSON());
};
