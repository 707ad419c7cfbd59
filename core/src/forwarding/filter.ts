// Destination filters: filtrex expressions over a delivery's headers and JSON body. filtrex has no
// loops or assignments and compiles each expression once, so a filter always ends and reaches
// nothing but the data it is given.
import { compileExpression } from 'filtrex';
import type { StoredDelivery } from '../webhook.js';

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

/** Compiles an expression (throws on a syntax error); the filter passes when the value is truthy and not an error. */
export function compileFilter(expression: string): DeliveryFilter {
  const compiled = compileExpression(expression, { customProp: walk });
  return (input) => {
    const value: unknown = compiled(input);
    return value !== false && value !== 0 && value !== null && value !== undefined && !(value instanceof Error);
  };
}

/** Headers by lower-case name (the last of a repeated one) and the body as JSON when it is JSON. */
export function filterInput(d: StoredDelivery): FilterInput {
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
