// Destination transforms: a JSONata expression that rewrites a JSON body before it is signed and
// sent. JSONata can recurse, so each evaluation is bounded by its own guardrails (time, depth and
// sequence length, checked at every step) and the result by its size once written as JSON. Those
// guardrails are checked between steps only: a regular expression that backtracks, or a string
// built past V8's limits (a fatal error no try/catch sees), gets past them. So the service runs
// the evaluation behind a TransformSandbox (ports.ts) with a hard deadline and a memory bound of
// its own, and what happens when one is passed is decided here (sandboxStopped).
import jsonata from 'jsonata';

/** How long one evaluation may run before it is stopped (a loop ends here). */
export const TRANSFORM_TIMEOUT_MS = 500;
/** How deep evaluation may nest (unbounded recursion ends here). */
export const TRANSFORM_MAX_DEPTH = 200;
/** The longest sequence an evaluation may build. */
export const TRANSFORM_MAX_SEQUENCE = 100_000;
/** The most a transformed body may weigh, as JSON (it is kept in the attempt's ledger entry). */
export const TRANSFORM_MAX_OUTPUT_BYTES = 256 * 1024;
export const TRANSFORM_MAX_EXPRESSION = 10_000;
/**
 * The hard deadline of one evaluation in the sandbox, from when its evaluator takes it: past
 * JSONata's own timeout (which names the loop it stopped, D1012), for what that timeout cannot
 * stop (a backtracking regular expression, one long native call).
 */
export const TRANSFORM_DEADLINE_MS = 2000;
/** The heap an evaluator may use (a 10 MiB body parsed, and room to transform it); past it, it is stopped. */
export const TRANSFORM_MAX_HEAP_MB = 256;

/** Why the sandbox stopped an evaluation before it answered. */
export type SandboxStop =
  /** It ran past the sandbox's deadline (TRANSFORM_DEADLINE_MS unless the sandbox was given another). */
  | { kind: 'deadline'; ms: number }
  /** The evaluator died: out of memory (its bound: heapMb), a V8 size limit, or any other abort (`detail`: what it said, its exit code or signal). */
  | { kind: 'died'; detail: string; heapMb: number }
  /** The service is stopping, or its evaluator could not be started. */
  | { kind: 'unavailable'; detail: string };

/** The attempt's outcome when the sandbox stopped its transform: a failure with the reason, never a crash. */
export function sandboxStopped(stop: SandboxStop): TransformResult {
  switch (stop.kind) {
    case 'deadline':
      return { ok: false, message: `the transform was stopped after ${stop.ms} ms (its hard deadline; a regular expression that backtracks, or one step that runs long, ends here)` };
    case 'died':
      return { ok: false, message: `the transform was stopped: its evaluator died (${stop.detail}); at most ${stop.heapMb} MiB of memory and V8's string and array sizes are allowed` };
    case 'unavailable':
      return { ok: false, message: `the transform could not be run: ${stop.detail}` };
  }
}

/** What a transform sees: the body as `$`, the delivery's headers (lower-case names) as `$headers`. */
export interface TransformInput {
  headers: Record<string, string>;
  body: unknown;
}

export type TransformResult = { ok: true; body: string } | { ok: false; message: string };

export type DeliveryTransform = (input: TransformInput) => Promise<TransformResult>;

interface JsonataFailure {
  code?: string;
  position?: number;
  token?: string;
  message?: string;
}

/** The most of a failure's message kept: `$error()` of a string of megabytes would otherwise go into the ledger whole. */
export const TRANSFORM_MAX_MESSAGE = 2000;

/** A JSONata error in full (its message cut at TRANSFORM_MAX_MESSAGE characters): its code, where it happened and its message. */
export function describeJsonataError(err: unknown): string {
  const e = (err ?? {}) as JsonataFailure;
  const whole = typeof e.message === 'string' && e.message.length > 0 ? e.message : String(err);
  const message = whole.length > TRANSFORM_MAX_MESSAGE ? `${whole.slice(0, TRANSFORM_MAX_MESSAGE)}… (${whole.length} characters)` : whole;
  const where = typeof e.position === 'number' && e.position > 0 ? ` at position ${e.position}` : '';
  return e.code ? `${e.code}${where}: ${message}` : message;
}

/**
 * JSONata's $pad builds its padding at once, whatever the width: a transform could ask for a string
 * of gigabytes before any bound is checked. This one refuses a width past the output bound first
 * (it shadows the built-in, with the same meaning: a negative width pads on the left).
 */
function boundedPad(text: unknown, width: unknown, char?: unknown): string | undefined {
  if (text === undefined) return undefined;
  if (typeof text !== 'string' || typeof width !== 'number' || (char !== undefined && (typeof char !== 'string' || char.length === 0))) {
    throw new Error('$pad takes a string, a width and an optional non-empty string to pad with');
  }
  if (Math.abs(width) > TRANSFORM_MAX_OUTPUT_BYTES) throw new Error(`$pad: a width of ${width} passes the ${TRANSFORM_MAX_OUTPUT_BYTES}-byte bound on a transform's output`);
  const fill = [...((char as string | undefined) ?? ' ')];
  const missing = Math.abs(width) - [...text].length;
  if (missing <= 0) return text;
  const padding = Array.from({ length: missing }, (_, i) => fill[i % fill.length]).join('');
  return width < 0 ? padding + text : text + padding;
}

const options = { timeout: TRANSFORM_TIMEOUT_MS, stack: TRANSFORM_MAX_DEPTH, sequence: TRANSFORM_MAX_SEQUENCE };

/** Parses an expression (throws the full JSONata message on a syntax error) into a bounded transform. */
export function compileTransform(expression: string): DeliveryTransform {
  let compiled: jsonata.Expression;
  try {
    compiled = jsonata(expression, options);
  } catch (err) {
    throw new Error(describeJsonataError(err));
  }
  return async ({ headers, body }) => {
    if (body === undefined) return { ok: false, message: 'the delivery body is not JSON, so it cannot be transformed' };
    let value: unknown;
    try {
      value = await compiled.evaluate(body, { headers, pad: boundedPad });
    } catch (err) {
      return { ok: false, message: describeJsonataError(err) };
    }
    if (value === undefined) return { ok: false, message: 'the transform produced nothing (no part of the body matched)' };
    let text: string;
    try {
      text = JSON.stringify(value);
    } catch (err) {
      return { ok: false, message: `the transform's result cannot be written as JSON: ${(err as Error).message}` };
    }
    if (text === undefined) return { ok: false, message: 'the transform produced a function, which cannot be sent as JSON' };
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes > TRANSFORM_MAX_OUTPUT_BYTES) return { ok: false, message: `the transform produced ${bytes} bytes of JSON; at most ${TRANSFORM_MAX_OUTPUT_BYTES} may be sent` };
    return { ok: true, body: text };
  };
}
