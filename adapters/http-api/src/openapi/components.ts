// Shared pieces of the OpenAPI document: credentials, answer shapes and reusable parameters.
// Shapes list the fields a client can rely on; the prose reference is docs/api.md.
import { INVOCATION_STATUSES, SIGNATURE_SCHEMES } from '@switchyard/core';

export const securitySchemes = {
  apiKey: { type: 'apiKey', in: 'header', name: 'x-sheets-key', description: "The owner's API key: every move." },
  bearerToken: { type: 'http', scheme: 'bearer', bearerFormat: 'sy1 share token', description: 'A share token: the moves its caveats allow.' },
  shareToken: { type: 'apiKey', in: 'query', name: 'share', description: 'A share token in the query (the same token as the Bearer form).' },
  dashboardSession: { type: 'apiKey', in: 'cookie', name: 'sy_dashboard', description: 'The dashboard session, from signing in with the API key at /dashboard/login; accepted by /dashboard pages only.' },
} as const;

export const dashboardSession = [{ dashboardSession: [] }];

/** Who may call: the public credential (no security entry), a token, the API key. */
export const anyCredential = [{}, { bearerToken: [] }, { shareToken: [] }, { apiKey: [] }];
export const tokenOrKey = [{ bearerToken: [] }, { shareToken: [] }, { apiKey: [] }];
export const ownerOnly = [{ apiKey: [] }];
export const publicOnly = [{}];

const obj = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, ...(required.length ? { required } : {}) });
const str = { type: 'string' };
const bool = { type: 'boolean' };
const int = { type: 'integer' };
const anyValue = {};

export const schemas = {
  Error: obj({ ok: { const: false }, error: obj({ code: str, message: str }, ['code', 'message']) }, ['ok', 'error']),
  SelfDescription: obj(
    {
      Path: str, Capability: str, run_now: { type: 'string' }, 'Example call': str, 'type · runner': str,
      inputs: { type: 'object' }, outputs: { type: 'object' }, 'auth · risk': str, 'From the router': str,
    },
    ['Path', 'Capability', 'run_now', 'Example call', 'type · runner', 'inputs', 'outputs', 'auth · risk'],
  ),
  Yield: obj({ tokens: obj({ in: int, out: int }), cost: int, material: int, waste: obj({ bytes: int, cost: int }) }),
  Invocation: obj(
    {
      id: { type: 'string', pattern: '^inv_' }, seq: int, key: str, path: str, actor: str, fingerprint: { type: ['string', 'null'] },
      body: anyValue, args: anyValue, status: { enum: [...INVOCATION_STATUSES] }, ok: bool, ran: bool,
      error: { oneOf: [{ type: 'null' }, obj({ code: str, message: str })] }, result: anyValue, yield: { $ref: '#/components/schemas/Yield' },
      content: {
        type: 'array',
        description: "A tool run's MCP content blocks exactly as the upstream sent them; a binary part over the blob threshold carries `_blob: {sha256, size, mimeType, url}` in place of its bytes",
        items: { type: 'object', properties: { type: { type: 'string', enum: ['text', 'image', 'audio', 'resource_link', 'resource'] } }, required: ['type'] },
      },
      structured_content: { description: "The upstream tool's structuredContent, when it gave one", ...anyValue },
      logs: { type: 'array', description: 'Log messages (notifications/message) the upstream sent while the call ran', items: obj({ level: str, logger: str, data: anyValue }, ['level', 'data']) },
      rounds: {
        type: 'array',
        description: "The questions the upstream asked the caller while the call ran (elicitation, sampling; in the 2026-07-28 era each a round of InputRequiredResult): when asked and answered, never the question or the answer",
        items: obj({ kind: { type: 'string', enum: ['elicitation', 'sampling', 'roots'] }, asked_at: { type: 'string', format: 'date-time' }, answered_at: { type: ['string', 'null'], format: 'date-time' } }, ['kind', 'asked_at', 'answered_at']),
      },
      repairs: { type: ['string', 'null'] }, replays: { type: ['string', 'null'] }, repaired_by: { type: 'array', items: str },
      source: str, created_at: { type: 'string', format: 'date-time' }, duration_ms: { type: 'number' },
      request_id: { type: ['string', 'null'], description: 'The x-request-id of the request that caused the run' },
      trace_id: { type: ['string', 'null'], description: "The OpenTelemetry trace the run belongs to (traces on): a forwarding attempt's is its delivery's" },
      // Shown to a credential that does not own the run: only the public (leaf) fields, and what was left out.
      withheld: { type: 'array', items: str },
    },
    ['id', 'key', 'status', 'ok', 'ran'],
  ),
  RunAnswer: obj(
    { ok: bool, error: obj({ code: str, message: str }, ['code', 'message']), result: anyValue, invocation: { $ref: '#/components/schemas/Invocation' }, yield: { $ref: '#/components/schemas/Yield' }, _self: { $ref: '#/components/schemas/SelfDescription' } },
    ['ok', 'result', 'invocation', 'yield', '_self'],
  ),
  Webhook: obj(
    {
      id: { type: 'string', pattern: '^hk_[A-Za-z0-9]{12}$' }, name: str, address: str, on: bool, delivery_id_path: { type: ['string', 'null'] },
      event_type_path: { type: ['string', 'null'], description: 'Where deliveries name their event type when the sender is not known: a body path or header:<name>' },
      retention_private_days: { type: ['number', 'null'], description: 'Its deliveries’ private fields are erased after this many days; null: retention.privateDays' },
      signature: { type: ['object', 'null'], description: 'The check of inbound signatures: {scheme, header, require, tolerance_s, secret_set}; the secret is write-only' },
      created_at: str,
    },
    ['id', 'name', 'address', 'on'],
  ),
  SignatureSetting: obj(
    {
      scheme: { type: 'string', enum: [...SIGNATURE_SCHEMES], description: 'The sender’s scheme (docs/webhooks.md has the table)' },
      secret: { type: 'string', minLength: 8, maxLength: 500, description: 'The key the sender signs with (Discord, SendGrid: its public key); write-only' },
      header: { type: ['string', 'null'], description: 'hmac-sha256 only: the header carrying the signature (default X-Signature)' },
      require: { type: 'boolean', description: 'Refuse (401 signature_invalid, stored as a refusal) anything not verified' },
      tolerance_s: { type: ['integer', 'null'], minimum: 1, maximum: 86400, description: 'Timestamped schemes: seconds a signed time may be from now; null for the sender’s own window' },
    },
    ['scheme', 'secret'],
  ),
  EventTypeCount: obj({ event_type: { type: ['string', 'null'] }, count: int }, ['event_type', 'count']),
  Delivery: obj(
    {
      id: str, event: { type: 'string', enum: ['webhook delivery'] }, hook_id: str, seq: int, received_at: str, method: str, path: str, query: str,
      client_address: { type: ['string', 'null'] }, headers: { type: 'array', items: { type: 'array', items: str, minItems: 2, maxItems: 2 } },
      body: { type: ['string', 'null'] }, body_encoding: { type: ['string', 'null'], enum: ['utf8', 'base64', null] }, body_size: int,
      body_omitted: bool, body_sha256: { type: ['string', 'null'], pattern: '^[0-9a-f]{64}$' }, body_url: { type: ['string', 'null'] },
      delivery_id: { type: ['string', 'null'] }, delivery_id_rule: { type: ['string', 'null'] }, signature: { type: ['string', 'null'], enum: ['verified', 'invalid', 'missing', null] },
      event_type: { type: ['string', 'null'], description: 'What happened, as the sender names it (push, invoice.paid, orders/create)' },
      event_type_rule: { type: ['string', 'null'], description: 'Where the event type was found: header:<name>, body:<path> or path:<the webhook’s event_type_path>' },
      duplicate: bool, duplicate_of: { type: ['string', 'null'] }, outcome: { type: 'string', enum: ['accepted', 'duplicate', 'refused'] },
      refusal: { type: ['object', 'null'] }, action: { type: ['string', 'null'] }, action_run: { type: ['object', 'null'] },
      forwarding: { type: 'array', items: { $ref: '#/components/schemas/Forwarding' }, description: 'Where it went on to: one entry per destination it was scheduled for' },
      request_id: { type: ['string', 'null'], description: 'The x-request-id of the request that brought it' },
    },
    ['id', 'hook_id', 'seq', 'received_at', 'headers', 'body_size', 'body_omitted', 'body_sha256', 'body_url', 'duplicate', 'outcome'],
  ),
  Forwarding: obj(
    {
      destination: { type: 'string', pattern: '^dst_' }, state: { enum: ['pending', 'retrying', 'delivered', 'dead', 'skipped'] }, attempts: int,
      last_status: { type: ['integer', 'null'] }, next_attempt_at: { type: ['string', 'null'] }, invocations: { type: 'array', items: str },
    },
    ['destination', 'state', 'attempts', 'last_status', 'next_attempt_at', 'invocations'],
  ),
  ForwardHeaders: {
    description: 'Which of a delivery\'s headers a destination receives: "all" (the default: every header but hop-by-hop ones, Host, Content-Length, Cookie, Authorization and x-sheets-key), "none", or a list of names (one never forwarded is refused). Content-Type and Content-Encoding always go as received',
    oneOf: [{ type: 'string', enum: ['all', 'none'] }, { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 50 }],
  },
  Destination: obj(
    {
      id: { type: 'string', pattern: '^dst_[A-Za-z0-9]{16}$' }, hook: str, name: str, url: str, forward_headers: { $ref: '#/components/schemas/ForwardHeaders' }, headers: { type: 'object', additionalProperties: str },
      timeout_ms: int, retry: obj({ max_attempts: int, initial_ms: int, max_ms: int }), rate_per_s: { type: ['number', 'null'] },
      concurrency: { type: ['integer', 'null'], description: 'Sends in flight to it per process, below webhooks.forwarding.perDestinationConcurrency' }, ordered: bool,
      filter: { type: ['string', 'null'] }, transform: { type: ['string', 'null'] }, on: bool, deleted_at: { type: ['string', 'null'] }, created_at: str, updated_at: str,
      secret: { type: 'string', pattern: '^whsec_', description: 'The signing secret: in the answers to POST and rotate-secret only' },
      previous_secret_until: { type: ['string', 'null'], description: 'Until when attempts are signed with the secret before the last rotation too' },
      circuit: obj(
        { state: { enum: ['closed', 'open', 'probing'] }, until: { type: ['string', 'null'], description: 'When an open circuit lets a probe through' }, failures: int },
        ['state', 'until', 'failures'],
      ),
    },
    ['id', 'hook', 'url', 'on', 'retry'],
  ),
  DestinationSettings: obj({
    url: { type: 'string', format: 'uri' }, name: str, forward_headers: { $ref: '#/components/schemas/ForwardHeaders' }, headers: { type: 'object', additionalProperties: str }, timeout_ms: { type: 'integer', minimum: 100, maximum: 60000 },
    retry: obj({ max_attempts: { type: 'integer', minimum: 1, maximum: 50 }, initial_ms: { type: 'integer', minimum: 100 }, max_ms: { type: 'integer', minimum: 100 } }),
    rate_per_s: { type: ['number', 'null'], exclusiveMinimum: 0 },
    concurrency: { type: ['integer', 'null'], minimum: 1, maximum: 1024, description: 'At most this many sends in flight to it per process (the service\'s per-destination share caps it); null for that share' },
    ordered: bool, filter: { type: ['string', 'null'], description: 'A filtrex expression over headers and body' },
    transform: { type: ['string', 'null'], description: 'A JSONata expression that rewrites a JSON body before it is signed and sent ($headers: the delivery headers)' },
    on: { type: 'boolean', description: 'PATCH only' },
  }),
  /** What POST /hook/<id> answers: what was stored. */
  DeliveryReceipt: obj(
    {
      ok: bool, entry: str, hook: str, outcome: { type: 'string', enum: ['accepted', 'duplicate', 'refused'] },
      delivery_id: { type: ['string', 'null'] }, delivery_id_rule: { type: ['string', 'null'] }, event_type: { type: ['string', 'null'] },
      duplicate: bool, duplicate_of: { type: ['string', 'null'] }, bytes: int, signature: { type: ['string', 'null'] },
    },
    ['entry', 'hook', 'outcome', 'duplicate', 'bytes'],
  ),
  Token: obj({ ok: bool, token: { type: 'string', pattern: '^sy1\\.' }, fingerprint: str, moves: { type: 'array', items: str }, keys: { type: 'array', items: str }, expires_at: { type: ['string', 'null'] } }, ['token']),
  OAuthError: obj({ error: str, error_description: str }, ['error', 'error_description']),
  Checkpoint: obj({ size: int, root: str, note: str, created_at: str }),
} as const;

export const ref = (name: keyof typeof schemas) => ({ $ref: `#/components/schemas/${name}` });

/** A JSON answer with a schema. */
export const json = (description: string, schema: unknown = { type: 'object' }) => ({ description, content: { 'application/json': { schema } } });
export const errors = (...codes: Array<[status: number, codes: string]>) =>
  Object.fromEntries(codes.map(([status, list]) => [String(status), json(`Error: ${list}`, ref('Error'))]));

export const htmlPage = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });

export const query = (name: string, description: string, schema: unknown = str, required = false) => ({ name, in: 'query', description, required, schema });
export const pathParam = (name: string, description: string, schema: unknown = str) => ({ name, in: 'path', description, required: true, schema });
/** The paging parameters every ledger listing shares (docs/api.md, "Ledger listings"). */
export const ledgerPageParams = () => [
  query('order', '`newest` (newest first, the default) or `append` (oldest first)', { enum: ['newest', 'append'] }),
  query('before', 'next_cursor of a newest-first page', { type: 'string', pattern: '^[0-9]{1,15}$' }),
  query('after', 'next_cursor of an append-order page', { type: 'string', pattern: '^[0-9]{1,15}$' }),
  limitParam(),
];

/** A ledger listing's answer: a page within the byte budget, a cursor when more follow. */
export const ledgerPage = (items: unknown, extra: Record<string, unknown> = {}) =>
  obj({ ok: bool, ...extra, order: { enum: ['newest first', 'append'] }, items: { type: 'array', items }, next_cursor: { type: ['string', 'null'] } }, ['ok', 'order', 'items', 'next_cursor']);

export const limitParam = (max = 1000, def = 50) => query('limit', `Page size, 1–${max} (default ${def})`, { type: 'integer', minimum: 1, maximum: max, default: def });

export const credentialErrors = errors([401, 'credential_required, invalid_api_key, token_corrupted, token_expired, token_revoked, token_wrong_resource'], [403, 'scope_denied']);
