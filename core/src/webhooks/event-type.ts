// A delivery's event type: what happened, as its sender names it (GitHub's X-GitHub-Event, Stripe's
// `type`, Shopify's X-Shopify-Topic…), so that deliveries can be listed, counted and filtered by it.
// First found wins: the webhook's own event_type_path; the sender of its signature scheme; a sender
// known by a header of its own; common body fields.
import { type ParsedBody, type RawHeaders, parseDeliveryBody, readPath } from './delivery-id.js';
import { SCHEMES, type SignatureScheme } from './signatures/schemes.js';
import type { EventTypeRule } from './signatures/signature-scheme.js';

export interface EventTypeInput {
  headers: RawHeaders;
  /** Null when the body was not read whole: only headers can give the type. */
  body: Uint8Array | null;
  contentType: string | null;
  /** The webhook's event_type_path: a body path like `data.kind`, or `header:<name>`. */
  webhookPath: string | null;
  /** The webhook's signature scheme, which names its sender. */
  scheme: SignatureScheme | null;
  /** The body as parsed once for this delivery (lazyBody); parsed here when not given. */
  parsed?: ParsedBody;
}

export interface ResolvedEventType {
  type: string;
  /** Which rule found it: `path:<path>`, `header:<name>` or `body:<path>`. */
  rule: string;
}

/** How many deliveries name one event type (null: those that name none). */
export interface EventTypeCount {
  event_type: string | null;
  count: number;
}

/** The most frequent event types first; `more` when others were left out. */
export interface EventTypeCounts {
  items: EventTypeCount[];
  more: boolean;
}

/** Most event types counted in one answer: a sender may name any number of them. */
export const MAX_EVENT_TYPES_COUNTED = 200;

/** Longest event type kept; a longer value is not taken for one. */
export const MAX_EVENT_TYPE_LENGTH = 200;

/** Body fields read when no rule of a known sender applies. */
export const EVENT_TYPE_BODY_FIELDS = ['type', 'event_type', 'event', 'topic'] as const;

/** Control characters: a name has none, and a terminal showing one (the CLI's tables) must not get them. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

const usable = (value: unknown): string | null => {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return null;
  const v = value.trim();
  return v.length > 0 && v.length <= MAX_EVENT_TYPE_LENGTH && !CONTROL.test(v) ? v : null;
};

/** The senders known by a header, in the table's order: each detecting header → (order, rule). */
const DETECTORS = new Map<string, { order: number; rule: EventTypeRule | null }>();
Object.values(SCHEMES).forEach((scheme, order) => {
  for (const name of scheme.detect) if (!DETECTORS.has(name)) DETECTORS.set(name, { order, rule: scheme.eventType });
});

const COMMON_FIELDS: EventTypeRule = { paths: EVENT_TYPE_BODY_FIELDS };

// The helpers below are module functions taking what they read, not closures made per delivery:
// this runs for every delivery, and a closure per call costs more than the lookups themselves.

/** A header's usable value (`lowerName` in lower case; names compare in any case). */
function headerValue(headers: EventTypeInput['headers'], lowerName: string): string | null {
  for (const [name, value] of headers) if (name.length === lowerName.length && name.toLowerCase() === lowerName) return usable(value);
  return null;
}

/** The body's fields, parsed on first use for this delivery (shared with the delivery id's lookup). */
class BodyFields {
  private parsed: Record<string, unknown> | unknown[] | null | undefined;
  constructor(private readonly input: EventTypeInput) {}
  at(path: string): string | null {
    if (this.input.body === null) return null;
    if (this.parsed === undefined) this.parsed = this.input.parsed ? this.input.parsed.get() : parseDeliveryBody(this.input.body, this.input.contentType);
    return this.parsed ? usable(readPath(this.parsed, path)) : null;
  }
}

function byRule(input: EventTypeInput, fields: BodyFields, rule: EventTypeRule): ResolvedEventType | null {
  for (const name of rule.headers ?? []) {
    const type = headerValue(input.headers, name);
    if (type) return { type, rule: `header:${name}` };
  }
  for (const path of rule.paths ?? []) {
    const type = fields.at(path);
    if (type) return { type, rule: `body:${path}` };
  }
  return null;
}

/** The rule of the first sender (in the table's order) one of whose own headers is present. */
function knownSender(headers: EventTypeInput['headers']): EventTypeRule | null {
  let known: { order: number; rule: EventTypeRule | null } | undefined;
  for (const [name] of headers) {
    const found = DETECTORS.get(name.toLowerCase());
    if (found && (!known || found.order < known.order)) known = found;
  }
  return known?.rule ?? null;
}

export function resolveEventType(input: EventTypeInput): ResolvedEventType | null {
  const fields = new BodyFields(input);
  const path = input.webhookPath;
  if (path !== null) {
    const type = path.startsWith('header:') ? headerValue(input.headers, path.slice('header:'.length).toLowerCase()) : fields.at(path);
    if (type) return { type, rule: `path:${path}` };
  }
  const own = input.scheme ? SCHEMES[input.scheme].eventType : null;
  const fromScheme = own ? byRule(input, fields, own) : null;
  if (fromScheme) return fromScheme;
  const sender = knownSender(input.headers);
  const fromSender = sender ? byRule(input, fields, sender) : null;
  return fromSender ?? byRule(input, fields, COMMON_FIELDS);
}

/** A webhook's event_type_path: a dotted body path or header:<name> (the delivery-id path's form). */
export { DELIVERY_ID_PATH_PATTERN as EVENT_TYPE_PATH_PATTERN } from './delivery-id.js';
