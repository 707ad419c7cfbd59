// The gate every request passes first: the header count (431), the body-read timeout (408) and the
// global budget of body bytes in flight (503 with Retry-After, before the body is read). Bodies
// with a content-length reserve it whole; chunked bodies reserve each chunk as it arrives.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { SwitchyardError, type ByteBudget } from '@switchyard/core';
import { statusFor } from './status.js';

export interface RequestLimits {
  /** Bytes of request bodies held at once, over every route. */
  budget: ByteBudget;
  /** How long a body may take to arrive, from the request's head to its last byte. */
  bodyTimeoutMs: number;
  /** Most header lines a request may have. */
  maxHeaders: number;
  /** Seconds a refused sender is asked to wait. */
  retryAfterSeconds: number;
}

const HELD = Symbol('switchyard.bodyHeld');

/** The announced length, or null for a chunked (or otherwise unannounced) body. */
export const declaredLength = (req: IncomingMessage): number | null => {
  const raw = req.headers['content-length'];
  if (raw === undefined || !/^\d+$/.test(raw)) return null;
  return Number(raw);
};

const hasBody = (req: IncomingMessage): boolean => {
  const length = declaredLength(req);
  return length !== null ? length > 0 : req.headers['transfer-encoding'] !== undefined;
};

/** How long a connection answered before its body was read goes on discarding what still arrives. */
const LINGER_MS = 2000;

/**
 * Closes the connection once the answer is out, without reading the rest of the body into anything:
 * the answer is followed by a FIN, what still arrives is discarded for a moment (so the sender,
 * still sending, reads the answer rather than a reset), then the socket is destroyed.
 */
export function closeAfterAnswer(res: ServerResponse): void {
  res.setHeader('connection', 'close');
  const socket = res.req.socket;
  // Node ends a `connection: close` answer with destroySoon(): a reset if the sender is still sending.
  socket.destroySoon = () => {
    socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  };
}

/** Answers with a coded error and closes the connection (the rest of the body is never read). */
export function refuseAndClose(req: IncomingMessage, res: ServerResponse, error: SwitchyardError, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    req.socket.destroy();
    return;
  }
  const body = JSON.stringify({ ok: false, error: error.toJSON() });
  closeAfterAnswer(res);
  res.writeHead(statusFor(error.code), { ...headers, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

const busy = (limits: RequestLimits): SwitchyardError =>
  new SwitchyardError('service_busy', `request bodies in flight are at their budget of ${limits.budget.limit} bytes; retry later`, { retry_after_seconds: limits.retryAfterSeconds });

/**
 * Reserves the request's body in the budget before it is read: false (after answering 503 with
 * Retry-After) when it does not fit. Chunked bodies are counted as they arrive and refused when
 * the budget runs out. Everything held is released when the response is done.
 */
export function holdBody(req: Request, res: Response, limits: RequestLimits): boolean {
  const r = req as Request & { [HELD]?: boolean };
  if (r[HELD] || !hasBody(req)) return true;
  r[HELD] = true;
  let held = 0;
  res.once('close', () => {
    limits.budget.release(held);
    held = 0;
  });
  const retry = { 'retry-after': String(limits.retryAfterSeconds) };
  const declared = declaredLength(req);
  if (declared !== null) {
    if (!limits.budget.tryReserve(declared)) {
      refuseAndClose(req, res, busy(limits), retry);
      return false;
    }
    held = declared;
    return true;
  }
  // Chunked: count what the parser hands over (and what it already has) before anyone reads it.
  const already = req.readableLength;
  if (!limits.budget.tryReserve(already)) {
    refuseAndClose(req, res, busy(limits), retry);
    return false;
  }
  held = already;
  const push = req.push.bind(req);
  req.push = (chunk: unknown, encoding?: BufferEncoding): boolean => {
    if (chunk !== null && (chunk as Buffer).length > 0 && !res.writableEnded) {
      if (!limits.budget.tryReserve((chunk as Buffer).length)) {
        refuseAndClose(req, res, busy(limits), retry);
        return false;
      }
      held += (chunk as Buffer).length;
    }
    return push(chunk, encoding);
  };
  return true;
}

/**
 * The first middleware: too many headers → 431; a body that takes longer than the timeout → 408;
 * the body budget for every route but /hook, which looks its webhook up before it holds a body.
 */
export const requestGate =
  (limits: RequestLimits): RequestHandler =>
  (req, res, next) => {
    if (req.rawHeaders.length / 2 > limits.maxHeaders) {
      return refuseAndClose(req, res, new SwitchyardError('headers_too_large', `requests may have at most ${limits.maxHeaders} header lines`, { limit: limits.maxHeaders }));
    }
    if (!hasBody(req)) return next();
    const timer = setTimeout(() => {
      if (req.complete) return;
      refuseAndClose(req, res, new SwitchyardError('request_timeout', `the request body did not arrive within ${limits.bodyTimeoutMs} ms`, { timeout_ms: limits.bodyTimeoutMs }));
    }, limits.bodyTimeoutMs);
    timer.unref();
    const clear = (): void => clearTimeout(timer);
    req.once('end', clear);
    res.once('close', clear);
    if (!req.path.startsWith('/hook/') && !holdBody(req, res, limits)) return;
    next();
  };
