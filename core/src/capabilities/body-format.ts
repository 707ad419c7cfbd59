// Turning the dispatch body (a string of arguments, or an object) into arguments, per body format.
import type { BodyFormat } from './capability.js';
import { SwitchyardError } from '../errors.js';

const invalid = (message: string): SwitchyardError =>
  new SwitchyardError('invalid_arguments', message, { errors: [{ path: '/', message, keyword: 'body', params: {} }] });

/** JSON arguments: an object as is, or a string of JSON text; an absent or empty body means {}. */
function parseJsonBody(body: unknown): unknown {
  if (body === undefined || body === null || body === '') return {};
  if (typeof body === 'object') return body;
  if (typeof body !== 'string') throw invalid('body must be a string of JSON arguments or an object');
  try {
    return JSON.parse(body);
  } catch (err) {
    throw invalid(`body is not valid JSON: ${(err as Error).message}`);
  }
}

/**
 * The pipe form `METHOD|URL||request body` (the request body after the two pipes is optional).
 * A JSON object (or its text) with {method, url, headers, body} is accepted too.
 */
function parsePipeBody(body: unknown): unknown {
  if (typeof body === 'object' && body !== null) return body;
  if (typeof body !== 'string') throw invalid('body must be METHOD|URL|| or a JSON object');
  const text = body.trim();
  if (text.startsWith('{')) return parseJsonBody(text);
  const firstPipe = body.indexOf('|');
  const doublePipe = body.indexOf('||', firstPipe + 1);
  if (firstPipe < 1 || doublePipe < 0) throw invalid('body must have the form METHOD|URL|| with an optional request body after the two pipes');
  const method = body.slice(0, firstPipe).trim().toUpperCase();
  const url = body.slice(firstPipe + 1, doublePipe).trim();
  const rest = body.slice(doublePipe + 2);
  return rest.length > 0 ? { method, url, body: rest } : { method, url };
}

export function parseBody(format: BodyFormat, body: unknown): unknown {
  return format === 'pipe' ? parsePipeBody(body) : parseJsonBody(body);
}

/** The body as text, for the ledger and for yield accounting. */
export const bodyText = (body: unknown): string =>
  body === undefined || body === null ? '' : typeof body === 'string' ? body : JSON.stringify(body);
