// Destination filters: filtrex expressions over a delivery's headers and JSON body. filtrex has no
// loops or assignments and compiles each expression once, so a filter always ends and reaches
// nothing but the data it is given. Its one operator that could run long, the regular expression
// match `~=`, runs on RE2 (re2js, pure JavaScript): linear in the text, whatever the pattern, so
// filters stay synchronous at intake and a sender's body cannot make one backtrack.
import { compileExpression } from 'filtrex';
import { RE2JS } from 're2js';
import type { StoredDelivery } from '../webhooks/index.js';

/** What a filter sees: header names in lower case (the last value of a repeated one), the body parsed as JSON or null. */
export interface FilterInput {
  headers: Record<string, string>;
  body: unknown;
}

export type DeliveryFilter = (input: FilterInput) => boolean;

/** Dotted names walk into the data (body.data.type); a missing step is undefined, never an error. */
const walk = (name: string, _get: (name: string) => unknown, obj: unknown): unknown => {
  let value: unknown = obj;
  for (const step of name.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.prototype.hasOwnProperty.call(value, step)) return undefined;
    value = (value as Record<string, unknown>)[step];
  }
  return value;
};

/** Patterns compiled for `~=`, by source (a pattern may come from the body, so the cache is bounded). */
const patterns = new Map<string, RE2JS>();

function pattern(source: string): RE2JS {
  let re = patterns.get(source);
  if (!re) {
    try {
      re = RE2JS.compile(source);
    } catch (err) {
      throw new Error(`the pattern ${JSON.stringify(source)} is not one RE2 takes (no lookaround or backreferences): ${(err as Error).message}`);
    }
    if (patterns.size >= 1000) patterns.clear();
    patterns.set(source, re);
  }
  return re;
}

/** A string, or a list of one (as filtrex reads a value); anything else is a type error, as filtrex's own `~=` says. */
function text(value: unknown, side: string): string {
  const v = Array.isArray(value) && value.length === 1 ? value[0] : value;
  if (typeof v === 'string') return v;
  throw new TypeError(`~= takes text on its ${side}, not ${v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v}`);
}

/** filtrex's `~=` (a search anywhere in the text, as RegExp.test), on RE2. */
const matches = (a: unknown, b: unknown): boolean => pattern(text(b, 'right')).matcher(text(a, 'left')).find();

/** Each pattern written in the expression as a literal ("…" on the right of ~=), so a bad one is refused on save. */
function literalPatterns(expression: string): string[] {
  return [...expression.matchAll(/~=\s*("(?:[^"\\]|\\.)*")/g)].map((m) => {
    try {
      return JSON.parse(m[1]!) as string;
    } catch {
      // An escape JSON does not know: filtrex reads it its own way, and the match checks it then.
      return null;
    }
  }).filter((p): p is string => p !== null);
}

/** Compiles an expression (throws on a syntax error or a pattern RE2 does not take); the filter passes when the value is truthy and not an error. */
export function compileFilter(expression: string): DeliveryFilter {
  // (filtrex's types require == and != with any override: these are its own.)
  const operators = { '==': (a: unknown, b: unknown) => a === b, '!=': (a: unknown, b: unknown) => a !== b, '~=': matches };
  const compiled = compileExpression(expression, { customProp: walk, operators });
  for (const source of literalPatterns(expression)) pattern(source);
  return (input) => {
    const value: unknown = compiled(input);
    return value !== false && value !== 0 && value !== null && value !== undefined && !(value instanceof Error);
  };
}

/** Headers by lower-case name (the last of a repeated one) and the body as JSON when it is JSON. */
export function filterInput(d: Pick<StoredDelivery, 'headers' | 'body'>): FilterInput {
  const headers: Record<string, string> = {};
  for (const [name, value] of d.headers) headers[name.toLowerCase()] = value;
  let body: unknown = null;
  if (d.body) {
    try {
      body = JSON.parse(Buffer.from(d.body).toString('utf8'));
    } catch {
      body = null;
    }
  }
  return { headers, body };
}
