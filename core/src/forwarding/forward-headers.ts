// Which of a delivery's headers a destination receives: by default all of them but the ones that
// belong to one connection or to the sender's access to Switchyard; "none"; or a list of names.
// The body's own Content-Type and Content-Encoding always go with it: they describe its bytes.
import { SwitchyardError } from '../errors.js';
import type { RawHeaders } from '../webhooks/index.js';

export type ForwardHeaders = 'all' | 'none' | string[];

/** Hop-by-hop headers (RFC 9110 §7.6.1), and the framing the forwarder sets for its own request. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'expect', 'host', 'content-length'];
/** The sender's credentials for Switchyard, never a destination's business. */
const CREDENTIALS = ['cookie', 'authorization', 'x-sheets-key'];
/** Never forwarded, whatever the setting. */
export const NEVER_FORWARDED: ReadonlySet<string> = new Set([...HOP_BY_HOP, ...CREDENTIALS]);
/** Always sent as received (they describe the body's bytes). */
const BODY_HEADERS = new Set(['content-type', 'content-encoding']);
/** Set by the forwarder on every attempt (Standard Webhooks). */
const SIGNING_HEADERS = new Set(['webhook-id', 'webhook-timestamp', 'webhook-signature']);

const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/;
export const MAX_FORWARD_HEADER_NAMES = 50;

const invalid = (field: string, message: string): SwitchyardError => new SwitchyardError('invalid_request', `${field}: ${message}`, { field });

/** Checks a `forward_headers` setting: "all", "none" or a list of header names (case does not matter). */
export function readForwardHeaders(value: unknown): ForwardHeaders {
  if (value === 'all' || value === 'none') return value;
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_FORWARD_HEADER_NAMES) {
    throw invalid('forward_headers', `must be "all", "none" or a list of 1 to ${MAX_FORWARD_HEADER_NAMES} header names`);
  }
  const out: string[] = [];
  for (const name of value) {
    if (typeof name !== 'string' || !HEADER_NAME.test(name)) throw invalid('forward_headers', `${JSON.stringify(name)} is not a header name`);
    const lower = name.toLowerCase();
    if (NEVER_FORWARDED.has(lower)) {
      const why = CREDENTIALS.includes(lower) ? 'a credential for Switchyard' : 'hop-by-hop or framing';
      throw invalid(`forward_headers.${name}`, `is never forwarded (${why}); see docs/webhooks.md#what-a-destination-receives`);
    }
    if (SIGNING_HEADERS.has(lower)) throw invalid(`forward_headers.${name}`, 'is set by the forwarder');
    if (!out.includes(lower)) out.push(lower);
  }
  return out;
}

/** The names a Connection header lists: hop-by-hop for that connection too. */
function connectionOptions(headers: RawHeaders): Set<string> {
  const out = new Set<string>();
  for (const [name, value] of headers) {
    if (name.toLowerCase() === 'connection') for (const option of value.split(',')) out.add(option.trim().toLowerCase());
  }
  return out;
}

/**
 * The headers of one attempt, before its signature: the delivery's headers the setting passes
 * (repeated ones kept in order), then the destination's configured headers (which replace a
 * delivery header of the same name), then the body's type and encoding as received.
 */
export function forwardedHeaders(delivery: RawHeaders, setting: ForwardHeaders, configured: Record<string, string>): Record<string, string | string[]> {
  const out = new Map<string, { name: string; values: string[] }>();
  const add = (name: string, value: string, replace: boolean) => {
    const lower = name.toLowerCase();
    const had = out.get(lower);
    if (had && !replace) had.values.push(value);
    else out.set(lower, { name, values: [value] });
  };
  if (setting !== 'none') {
    const listed = setting === 'all' ? null : new Set(setting);
    const perConnection = connectionOptions(delivery);
    for (const [name, value] of delivery) {
      const lower = name.toLowerCase();
      if (NEVER_FORWARDED.has(lower) || perConnection.has(lower) || SIGNING_HEADERS.has(lower) || BODY_HEADERS.has(lower)) continue;
      if (listed && !listed.has(lower)) continue;
      add(name, value, false);
    }
  }
  for (const [name, value] of Object.entries(configured)) add(name, value, true);
  // The body's own headers, the last of each as received; a body without a type is bytes.
  let type: string | undefined;
  let encoding: string | undefined;
  for (const [name, value] of delivery) {
    const lower = name.toLowerCase();
    if (lower === 'content-type') type = value;
    else if (lower === 'content-encoding') encoding = value;
  }
  add('content-type', type ?? 'application/octet-stream', true);
  if (encoding !== undefined) add('content-encoding', encoding, true);
  const headers: Record<string, string | string[]> = {};
  for (const { name, values } of out.values()) headers[name] = values.length === 1 ? values[0]! : values;
  return headers;
}
