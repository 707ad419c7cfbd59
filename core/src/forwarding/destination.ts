// A forwarding destination: where a webhook's accepted deliveries go on to, and how its settings are checked.
import { randomBytes } from 'node:crypto';
import { SwitchyardError } from '../errors.js';
import { randomId } from '../ids.js';
import { compileFilter } from './filter.js';
import { compileTransform, TRANSFORM_MAX_EXPRESSION } from './transform.js';
import { readForwardHeaders, type ForwardHeaders } from './forward-headers.js';

export interface RetrySettings {
  max_attempts: number;
  initial_ms: number;
  max_ms: number;
}

export interface Destination {
  id: string;
  hook_id: string;
  name: string;
  url: string;
  /** Which of the delivery's own headers go on with it (forward-headers.ts). */
  forward_headers: ForwardHeaders;
  /** Sent with every attempt, over the delivery's headers of the same name and before the Standard Webhooks headers. */
  headers: Record<string, string>;
  /** whsec_… : the Standard Webhooks signing secret (base64 after the prefix). */
  secret: string;
  /** The secret before the last rotation, also signed with until `previous_secret_until` (ISO). */
  previous_secret: string | null;
  previous_secret_until: string | null;
  timeout_ms: number;
  retry: RetrySettings;
  rate_per_s: number | null;
  /** Sends in flight to it per process, below webhooks.forwarding.perDestinationConcurrency; null: that share. */
  concurrency: number | null;
  ordered: boolean;
  filter: string | null;
  /** A JSONata expression that rewrites a JSON body before it is signed and sent (transform.ts). */
  transform: string | null;
  on: boolean;
  /** Set when deleted: it forwards nothing more, its history stays. */
  deleted_at: string | null;
  created_at: string;
  updated_at: string;
}

export const MAX_DESTINATIONS_PER_WEBHOOK = 10;
export const DESTINATION_ID_PATTERN = /^dst_[A-Za-z0-9]{16}$/;
export const newDestinationId = (): string => randomId('dst_', 16);
export const newDestinationSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

export const DEFAULT_RETRY: RetrySettings = { max_attempts: 8, initial_ms: 5000, max_ms: 3_600_000 };
export const DEFAULT_TIMEOUT_MS = 10_000;

/** The fields a request may set; `on` only when changing. */
export type DestinationSettings = Pick<Destination, 'url' | 'name' | 'forward_headers' | 'headers' | 'timeout_ms' | 'retry' | 'rate_per_s' | 'concurrency' | 'ordered' | 'filter' | 'transform' | 'on'>;

const FIELDS = ['url', 'name', 'forward_headers', 'headers', 'timeout_ms', 'retry', 'rate_per_s', 'concurrency', 'ordered', 'filter', 'transform', 'on'];
/** The most a destination's own `concurrency` may say (the service's share caps it further). */
export const MAX_DESTINATION_CONCURRENCY = 1024;
/** Headers the forwarder sets itself: configuring them would break the signature or the framing. */
const RESERVED_HEADERS = new Set(['webhook-id', 'webhook-timestamp', 'webhook-signature', 'content-type', 'content-length', 'host', 'transfer-encoding', 'connection']);

const invalid = (field: string, message: string): SwitchyardError => new SwitchyardError('invalid_request', `${field}: ${message}`, { field });

const intIn = (value: unknown, field: string, min: number, max: number): number => {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) throw invalid(field, `must be an integer from ${min} to ${max}`);
  return value;
};

function readUrl(value: unknown): string {
  if (typeof value !== 'string' || value.length > 2000) throw invalid('url', 'must be an http or https URL of at most 2000 characters');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid('url', 'must be an absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('url', 'must use http or https');
  if (url.username || url.password) throw invalid('url', 'must not carry credentials; send them as headers');
  return url.toString();
}

function readHeaders(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid('headers', 'must be an object of header names to string values');
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > 20) throw invalid('headers', 'at most 20 headers');
  const out: Record<string, string> = {};
  for (const [name, v] of entries) {
    if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/.test(name)) throw invalid(`headers.${name}`, 'is not a header name');
    if (RESERVED_HEADERS.has(name.toLowerCase())) throw invalid(`headers.${name}`, 'is set by the forwarder');
    if (typeof v !== 'string' || v.length > 4000 || /[\r\n\0]/.test(v)) throw invalid(`headers.${name}`, 'must be a string of at most 4000 characters without line breaks');
    out[name] = v;
  }
  return out;
}

function readRetry(value: unknown, current: RetrySettings): RetrySettings {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid('retry', 'must be an object {max_attempts?, initial_ms?, max_ms?}');
  const v = value as Record<string, unknown>;
  const extra = Object.keys(v).filter((k) => !['max_attempts', 'initial_ms', 'max_ms'].includes(k));
  if (extra.length > 0) throw invalid(`retry.${extra[0]}`, 'is not a retry setting');
  const out = { ...current };
  if (v['max_attempts'] !== undefined) out.max_attempts = intIn(v['max_attempts'], 'retry.max_attempts', 1, 50);
  if (v['initial_ms'] !== undefined) out.initial_ms = intIn(v['initial_ms'], 'retry.initial_ms', 100, 86_400_000);
  if (v['max_ms'] !== undefined) out.max_ms = intIn(v['max_ms'], 'retry.max_ms', 100, 7 * 86_400_000);
  if (out.max_ms < out.initial_ms) throw invalid('retry.max_ms', 'must be at least retry.initial_ms');
  return out;
}

/**
 * Checks a create (every field but url optional) or a change (any field) and answers the settings
 * that result; a bad field is invalid_request naming it in `field`.
 */
export function readDestinationSettings(payload: unknown, current: DestinationSettings | null): DestinationSettings {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw new SwitchyardError('invalid_request', 'send a JSON object, e.g. {"url": "https://example.com/hooks"}');
  const p = payload as Record<string, unknown>;
  const extra = Object.keys(p).filter((k) => !FIELDS.includes(k) || (current === null && k === 'on'));
  if (extra.length > 0) throw invalid(extra[0]!, 'is not a destination setting');
  if (current !== null && Object.keys(p).length === 0) throw new SwitchyardError('invalid_request', `nothing to change: send any of ${FIELDS.join(', ')}`);
  const base: DestinationSettings = current ?? { url: '', name: '', forward_headers: 'all', headers: {}, timeout_ms: DEFAULT_TIMEOUT_MS, retry: DEFAULT_RETRY, rate_per_s: null, concurrency: null, ordered: false, filter: null, transform: null, on: true };
  const out: DestinationSettings = { ...base, retry: { ...base.retry }, headers: { ...base.headers }, forward_headers: Array.isArray(base.forward_headers) ? [...base.forward_headers] : base.forward_headers };
  if (current === null && p['url'] === undefined) throw invalid('url', 'is required');
  if (p['url'] !== undefined) out.url = readUrl(p['url']);
  if (p['name'] !== undefined) {
    if (typeof p['name'] !== 'string' || p['name'].length > 200) throw invalid('name', 'must be a string of at most 200 characters');
    out.name = p['name'];
  } else if (current === null) out.name = new URL(out.url).host;
  if (p['forward_headers'] !== undefined) out.forward_headers = readForwardHeaders(p['forward_headers']);
  if (p['headers'] !== undefined) out.headers = readHeaders(p['headers']);
  if (p['timeout_ms'] !== undefined) out.timeout_ms = intIn(p['timeout_ms'], 'timeout_ms', 100, 60_000);
  if (p['retry'] !== undefined) out.retry = readRetry(p['retry'], base.retry);
  if (p['rate_per_s'] !== undefined) {
    const r = p['rate_per_s'];
    if (r !== null && (typeof r !== 'number' || !Number.isFinite(r) || r <= 0 || r > 10_000)) throw invalid('rate_per_s', 'must be a number above 0 and at most 10000, or null for no limit');
    out.rate_per_s = r as number | null;
  }
  if (p['concurrency'] !== undefined) {
    const c = p['concurrency'];
    out.concurrency = c === null ? null : intIn(c, 'concurrency', 1, MAX_DESTINATION_CONCURRENCY);
  }
  if (p['ordered'] !== undefined) {
    if (typeof p['ordered'] !== 'boolean') throw invalid('ordered', 'must be true or false');
    out.ordered = p['ordered'];
  }
  if (p['on'] !== undefined) {
    if (typeof p['on'] !== 'boolean') throw invalid('on', 'must be true or false');
    out.on = p['on'];
  }
  if (p['filter'] !== undefined) {
    const f = p['filter'];
    if (f !== null && (typeof f !== 'string' || f.trim().length === 0 || f.length > 2000)) throw invalid('filter', 'must be an expression of at most 2000 characters, or null');
    if (typeof f === 'string') {
      // Parsing, and compiling the literal patterns of ~= (RE2: no lookaround, no backreferences).
      try {
        compileFilter(f);
      } catch (err) {
        throw invalid('filter', `does not parse: ${(err as Error).message}`);
      }
    }
    out.filter = f as string | null;
  }
  if (p['transform'] !== undefined) {
    const t = p['transform'];
    if (t !== null && (typeof t !== 'string' || t.trim().length === 0 || t.length > TRANSFORM_MAX_EXPRESSION)) throw invalid('transform', `must be a JSONata expression of at most ${TRANSFORM_MAX_EXPRESSION} characters, or null`);
    if (typeof t === 'string') {
      // A syntax check only, here in the request: parsing is linear in the expression (at most
      // TRANSFORM_MAX_EXPRESSION characters) and runs none of it. Evaluating it is the sandbox's.
      try {
        compileTransform(t);
      } catch (err) {
        throw invalid('transform', `does not parse: ${(err as Error).message}`);
      }
    }
    out.transform = t as string | null;
  }
  return out;
}

/** A destination as its owner reads it; the secret only at creation. */
export const destinationView = (d: Destination, withSecret = false) => ({
  id: d.id,
  hook: d.hook_id,
  name: d.name,
  url: d.url,
  forward_headers: d.forward_headers,
  headers: d.headers,
  timeout_ms: d.timeout_ms,
  retry: d.retry,
  rate_per_s: d.rate_per_s,
  concurrency: d.concurrency,
  ordered: d.ordered,
  filter: d.filter,
  transform: d.transform,
  on: d.on,
  previous_secret_until: d.previous_secret_until,
  deleted_at: d.deleted_at,
  created_at: d.created_at,
  updated_at: d.updated_at,
  ...(withSecret ? { secret: d.secret } : {}),
});
