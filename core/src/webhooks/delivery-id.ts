// Delivery-id resolution: which request field names a webhook delivery, so retries of the same
// delivery can be marked duplicates. First found wins, in the spec's order (Events §3):
// well-known headers, then the webhook's own path, then common body fields.

/** Headers as received: [name, value] pairs, order and case kept (repeats allowed). */
export type RawHeaders = ReadonlyArray<readonly [string, string]>;

export interface DeliveryIdInput {
  headers: RawHeaders;
  /** Null when the body was not read (an oversized delivery): only headers can give the id. */
  body: Uint8Array | null;
  contentType: string | null;
  /** The webhook's own rule: a body path like `a.b.c`, or `header:<name>`. */
  webhookPath: string | null;
  /** The body as parsed once for this delivery (lazyBody); parsed here when not given. */
  parsed?: ParsedBody;
}

export interface ResolvedDeliveryId {
  id: string;
  /** Which rule found it, e.g. `header:webhook-id`, `path:data.object.id`, `body:event_id`. */
  rule: string;
}

/**
 * Header rules in precedence order. The spec's list first (webhook-id; <vendor>-id; X-<host>-Delivery;
 * X-<shop>-Webhook-Id; <tracker>-Delivery; X-Delivery-Id), then senders it does not name.
 */
export const HEADER_RULES: ReadonlyArray<{ rule: string; matches(name: string): boolean }> = [
  { rule: 'webhook-id', matches: (n) => n === 'webhook-id' }, // Standard Webhooks
  { rule: '<vendor>-id', matches: (n) => n === 'svix-id' }, // Svix (and the Standard Webhooks family)
  { rule: 'x-github-delivery', matches: (n) => n === 'x-github-delivery' },
  { rule: 'x-shopify-webhook-id', matches: (n) => n === 'x-shopify-webhook-id' || n === 'shopify-webhook-id' },
  { rule: 'linear-delivery', matches: (n) => n === 'linear-delivery' },
  { rule: 'x-delivery-id', matches: (n) => n === 'x-delivery-id' },
  { rule: 'idempotency-key', matches: (n) => n === 'idempotency-key' }, // GitLab
  { rule: 'i-twilio-idempotency-token', matches: (n) => n === 'i-twilio-idempotency-token' },
  { rule: 'x-request-uuid', matches: (n) => n === 'x-request-uuid' }, // Bitbucket
];

export const BODY_FIELDS = ['event_id', 'delivery_id', 'webhook_id', 'id', 'data.id'] as const;

/** Longest delivery id we keep; anything longer is not an id. */
export const MAX_DELIVERY_ID_LENGTH = 200;

const usable = (value: unknown): string | null => {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return null;
  const v = value.trim();
  return v.length > 0 && v.length <= MAX_DELIVERY_ID_LENGTH ? v : null;
};

const headerValue = (headers: RawHeaders, lowerName: string): string | null => {
  for (const [name, value] of headers) if (name.toLowerCase() === lowerName) return usable(value);
  return null;
};

const utf8 = new TextDecoder('utf-8');

/** Bodies larger than this are not parsed for ids or event types. */
export const MAX_PARSED_BODY_BYTES = 5 * 1024 * 1024;

/**
 * The fields of a delivery body: a JSON object or array, or a form's fields (a JSON `payload`
 * field read as JSON); null for anything else. Parse it once per delivery and share it (`lazyBody`).
 */
export function parseDeliveryBody(body: Uint8Array | null, contentType: string | null): Record<string, unknown> | unknown[] | null {
  if (!body || body.length === 0 || body.length > MAX_PARSED_BODY_BYTES) return null;
  const type = (contentType ?? '').toLowerCase();
  // Not fatal: a stray invalid byte elsewhere in the body should not hide a valid id.
  const text = utf8.decode(body);
  if (type.includes('application/x-www-form-urlencoded')) {
    // A JSON body sent under the form type (what `curl -d` does without a content type) is read
    // as JSON; anything that does not parse as JSON is read as the form it says it is.
    if (text.trimStart().startsWith('{')) {
      const json = parseJson(text);
      if (json) return json;
    }
    const form = new URLSearchParams(text);
    // Some senders (e.g. GitHub's form mode, Slack's interactivity) put the JSON in a `payload` field.
    const payload = form.get('payload');
    if (payload) {
      const parsed = parseJson(payload);
      if (parsed) return parsed;
    }
    return Object.fromEntries(form.entries());
  }
  return parseJson(text);
}

/** A delivery's body fields, parsed on first use and then kept. */
export interface ParsedBody {
  get(): Record<string, unknown> | unknown[] | null;
}

/**
 * The body parsed once, when first asked: the delivery id and the event type read the same one.
 * An object rather than a closure, since one is made for every delivery (see event-type.ts).
 */
export const lazyBody = (body: Uint8Array | null, contentType: string | null): ParsedBody => new ParsedOnce(body, contentType);

class ParsedOnce implements ParsedBody {
  private parsed: Record<string, unknown> | unknown[] | null | undefined;
  constructor(
    private readonly body: Uint8Array | null,
    private readonly contentType: string | null,
  ) {}
  get(): Record<string, unknown> | unknown[] | null {
    if (this.parsed === undefined) this.parsed = parseDeliveryBody(this.body, this.contentType);
    return this.parsed;
  }
}

function parseJson(text: string): Record<string, unknown> | unknown[] | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown> | unknown[]) : null;
  } catch {
    return null;
  }
}

/** Reads `a.b.c` from an object (a flat key containing dots wins over nesting); a number segment indexes an array (`0.event`). */
export function readPath(root: Record<string, unknown> | unknown[], path: string): unknown {
  if (!Array.isArray(root) && Object.hasOwn(root, path)) return root[path];
  let cur: unknown = root;
  for (const part of path.split('.')) {
    if (Array.isArray(cur)) {
      if (!/^(0|[1-9][0-9]{0,5})$/.test(part)) return undefined;
      cur = cur[Number(part)];
    } else if (typeof cur === 'object' && cur !== null && Object.hasOwn(cur, part)) {
      cur = (cur as Record<string, unknown>)[part];
    } else {
      return undefined;
    }
  }
  return cur;
}

export function resolveDeliveryId(input: DeliveryIdInput): ResolvedDeliveryId | null {
  // A loop, not a map with an arrow: this runs for every delivery, and a closure per call is dearer than the lowering.
  const lowered: Array<readonly [string, string]> = [];
  for (const [n, v] of input.headers) lowered.push([n.toLowerCase(), v]);
  for (const { rule, matches } of HEADER_RULES) {
    for (const [name, value] of lowered) {
      if (!matches(name)) continue;
      const id = usable(value);
      if (id) return { id, rule: `header:${name}` };
    }
  }
  const path = input.webhookPath;
  const headerPath = path !== null && path.startsWith('header:');
  if (headerPath) {
    const id = headerValue(input.headers, path.slice('header:'.length).toLowerCase());
    if (id) return { id, rule: `path:${path}` };
  }
  // Parsed once: the configured body path and the known fields read the same object.
  const b = input.parsed ? input.parsed.get() : parseDeliveryBody(input.body, input.contentType);
  if (b && path && !headerPath) {
    const id = usable(readPath(b, path));
    if (id) return { id, rule: `path:${path}` };
  }
  if (b && !Array.isArray(b)) {
    for (const field of BODY_FIELDS) {
      const id = usable(readPath(b, field));
      if (id) return { id, rule: `body:${field}` };
    }
  }
  return null;
}

/** A webhook's delivery_id_path: a dotted body path or header:<name>. */
export const DELIVERY_ID_PATH_PATTERN = /^(header:[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}|[A-Za-z0-9_$-]{1,100}(\.[A-Za-z0-9_$-]{1,100}){0,19})$/;
