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

/** On a request whose body is held: the function that releases it. */
const HELD = Symbol('switchyard.bodyHeld');
type Holding = { [HELD]?: () => void };

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

/**
 * Answers with a coded error and closes the connection (the rest of the body is never read); what
 * the body held of the budget is released at once.
 */
export function refuseAndClose(req: IncomingMessage, res: ServerResponse, error: SwitchyardError, headers: Record<string, string> = {}): void {
  (req as IncomingMessage & Holding)[HELD]?.();
  if (res.headersSent) {
    req.socket.destroy();
    return;
  }
  // Counted by the metrics as a request turned away, like the error middleware's answers.
  const locals = (res as { locals?: Record<string, unknown> }).locals;
  if (locals) locals['errorCode'] = error.code;
  const body = JSON.stringify({ ok: false, error: error.toJSON() });
  closeAfterAnswer(res);
  res.writeHead(statusFor(error.code), { ...headers, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

const busy = (limits: RequestLimits): SwitchyardError =>
  new SwitchyardError('service_busy', `request bodies in flight are at their budget of ${limits.budget.limit} bytes; retry later`, { retry_after_seconds: limits.retryAfterSeconds });

const NOTHING_HELD = (): void => {};

/**
 * What gives a request's held bytes back. Made by a factory rather than as a named closure inside
 * holdBody: the TypeScript loader names each named closure as it is made, a cost on every request.
 */
const releaser =
  (budget: ByteBudget, held: { bytes: number }): (() => void) =>
  () => {
    budget.release(held.bytes);
    held.bytes = 0;
  };

/**
 * Reserves the request's body in the budget before it is read. Null (after answering 503 with
 * Retry-After) when it does not fit; otherwise the function that releases what is held, to call
 * once the body is no longer needed. Chunked bodies are counted as they arrive and refused when
 * the budget runs out.
 */
export function holdBody(req: Request, res: Response, limits: RequestLimits): (() => void) | null {
  const r = req as Request & Holding;
  if (r[HELD] || !hasBody(req)) return NOTHING_HELD;
  const held = { bytes: 0 };
  const release = releaser(limits.budget, held);
  r[HELD] = release;
  const retry = { 'retry-after': String(limits.retryAfterSeconds) };
  const declared = declaredLength(req);
  if (declared !== null) {
    if (!limits.budget.tryReserve(declared)) {
      refuseAndClose(req, res, busy(limits), retry);
      return null;
    }
    held.bytes = declared;
    return release;
  }
  // Chunked: count what the parser hands over (and what it already has) before anyone reads it.
  const already = req.readableLength;
  if (!limits.budget.tryReserve(already)) {
    refuseAndClose(req, res, busy(limits), retry);
    return null;
  }
  held.bytes = already;
  const push = req.push.bind(req);
  req.push = (chunk: unknown, encoding?: BufferEncoding): boolean => {
    if (chunk !== null && (chunk as Buffer).length > 0 && !res.writableEnded) {
      if (!limits.budget.tryReserve((chunk as Buffer).length)) {
        refuseAndClose(req, res, busy(limits), retry);
        return false;
      }
      held.bytes += (chunk as Buffer).length;
    }
    return push(chunk, encoding);
  };
  return release;
}

/**
 * Bodies being received, checked a few times per timeout rather than given a timer each: one
 * slower than the timeout is answered 408 and its connection closed.
 */
function bodyWatch(timeoutMs: number): (req: Request, res: Response) => void {
  const watched = new Set<{ req: Request; res: Response; since: number }>();
  let sweeper: NodeJS.Timeout | undefined;
  const sweep = (): void => {
    const now = Date.now();
    for (const w of watched) {
      if (w.req.complete || w.res.writableEnded || w.req.socket.destroyed) watched.delete(w);
      else if (now - w.since >= timeoutMs) {
        watched.delete(w);
        refuseAndClose(w.req, w.res, new SwitchyardError('request_timeout', `the request body did not arrive within ${timeoutMs} ms`, { timeout_ms: timeoutMs }));
      }
    }
    if (watched.size === 0) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  };
  return (req, res) => {
    watched.add({ req, res, since: Date.now() });
    if (!sweeper) {
      sweeper = setInterval(sweep, Math.max(10, Math.min(1000, Math.floor(timeoutMs / 4))));
      sweeper.unref();
    }
  };
}

export interface RequestGate {
  /** The gate as the first middleware of every route but /hook (which calls `check` itself). */
  middleware: RequestHandler;
  /**
   * Too many headers → 431 (false: answered); a body is watched for the timeout (408). The budget
   * is left to the caller: /hook holds a body only once its webhook is known.
   */
  check(req: Request, res: Response): boolean;
}

/**
 * The gate every request passes first: too many headers → 431; a body slower than the timeout →
 * 408; the body held in the budget before it is read (503), except on /hook, which looks its
 * webhook up before it holds a body.
 */
export function requestGate(limits: RequestLimits): RequestGate {
  const watch = bodyWatch(limits.bodyTimeoutMs);
  const check = (req: Request, res: Response): boolean => {
    if (req.rawHeaders.length / 2 > limits.maxHeaders) {
      refuseAndClose(req, res, new SwitchyardError('headers_too_large', `requests may have at most ${limits.maxHeaders} header lines`, { limit: limits.maxHeaders }));
      return false;
    }
    // A body that came with its head (most small ones) is already complete: nothing to watch.
    if (!req.complete && hasBody(req)) watch(req, res);
    return true;
  };
  const middleware: RequestHandler = (req, res, next) => {
    if (!check(req, res)) return;
    const release = holdBody(req, res, limits);
    if (!release) return;
    if (release !== NOTHING_HELD) res.once('close', release);
    next();
  };
  return { middleware, check };
}
