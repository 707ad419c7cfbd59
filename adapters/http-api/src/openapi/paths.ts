// Every endpoint of the service, as OpenAPI path items. A test compares these paths with the routes
// Express actually mounts, so an endpoint cannot be added without being described here.
import { anyCredential, credentialErrors, errors, json, ledgerPage, ledgerPageParams, limitParam, ownerOnly, pathParam, publicOnly, query, ref, tokenOrKey } from './components.js';

const formatParam = query('format', '`markdown` for the markdown form', { enum: ['markdown'] });

const dispatchGet = {
  operationId: 'dispatchQuery',
  tags: ['dispatch'],
  summary: 'Read contracts, ask, build, confirm, receipt, explain, invoke or self_scope: one query per request',
  description: [
    'Exactly one of the mode parameters is given:',
    '- `key=KEY[&format=markdown]`: the capability contract (public)',
    '- `ask=<question or key>[&limit=1..20][&format=markdown]`: plain-language lookup; runs nothing (public)',
    '- `build=1[&format=markdown]`: the whole registry as one map with its terminal key (public)',
    '- `registry=1`: every capability, self-describing (public)',
    '- `map=1 | map=SYSTEM [&format=markdown]`: the root tree or one system (public)',
    '- `confirm=inv_…`: public proof that an entry is in the ledger (public)',
    '- `receipt=inv_…`: the opened record of an invocation (API key, or a token for its own runs); `receipt=dlv_…`: a delivery\'s record and the opening of its leaf\'s commitments (API key)',
    '- `explain=1`: what the presented credential may do (any credential; without one, the public credential)',
    '- `invoke=KEY&body=<url-encoded args>`: runs the capability, answered like POST (token or API key)',
    '- `self_scope=1&keys=A,B[&purpose][&actor][&narrow=1]`: a keyless token for the listed public keys (rate limited)',
  ].join('\n'),
  security: anyCredential,
  parameters: [
    query('key', 'Capability key'),
    query('ask', 'A question in plain words, or a key', { type: 'string', maxLength: 500 }),
    query('limit', 'Matches for ask (1–20, default 5)', { type: 'integer', minimum: 1, maximum: 20 }),
    query('build', '1 for the whole build', { enum: ['1'] }),
    query('registry', '1 for every capability', { enum: ['1'] }),
    query('map', '1 for the root tree, or a system name'),
    formatParam,
    query('confirm', 'An invocation or delivery id'),
    query('receipt', 'An invocation id (inv_…) or a delivery id (dlv_…)'),
    query('explain', '1 to explain the presented credential', { enum: ['1'] }),
    query('invoke', 'Capability key to run'),
    query('body', 'URL-encoded arguments for invoke'),
    query('self_scope', '1 to mint a token for listed keys', { enum: ['1'] }),
    query('keys', 'Comma-separated keys for self_scope'),
    query('purpose', 'Purpose caveat for self_scope'),
    query('actor', 'Actor caveat for self_scope'),
    query('narrow', '1 to narrow further (with share=: the parent ∩ keys; without: invoke-only, one use, 10 minutes)', { enum: ['1'] }),
  ],
  responses: {
    '200': {
      description: 'The answer of the chosen mode (a run answers RunAnswer)',
      content: { 'application/json': { schema: { oneOf: [ref('RunAnswer'), { type: 'object' }] } }, 'text/markdown': { schema: { type: 'string' } } },
    },
    '202': json('The run waits for the owner\'s approval (invocation.status awaiting_approval)', ref('RunAnswer')),
    ...errors([400, 'invalid_request (no query verb, or two: verbs)'], [404, 'unknown_capability (did_you_mean, ask), unknown_system, invocation_not_found, not_found'], [422, 'invalid_arguments, tool_error'], [429, 'rate_limited'], [502, 'upstream_unavailable, upstream_answer_too_large'], [504, 'upstream_timeout']),
    ...credentialErrors,
  },
};

const dispatchPost = {
  operationId: 'dispatch',
  tags: ['dispatch'],
  summary: 'Run a capability: {key, body}, {key, body, repairs} or {replay}',
  security: tokenOrKey,
  parameters: [
    {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'Run at most once per key and credential for 24 h: a retry answers the first run (Idempotent-Replayed: true); another request under the key is 422 idempotency_key_reused; 409 idempotency_key_in_progress while the first run has not ended',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7e]+$' },
    },
  ],
  requestBody: {
    required: true,
    content: {
      'application/json': {
        schema: {
          oneOf: [
            { type: 'object', properties: { key: { type: 'string' }, body: {}, repairs: { type: 'string', pattern: '^inv_' } }, required: ['key'], additionalProperties: false },
            { type: 'object', properties: { replay: { type: 'string', pattern: '^inv_' } }, required: ['replay'], additionalProperties: false },
          ],
        },
      },
    },
  },
  responses: {
    '200': json('The run succeeded', ref('RunAnswer')),
    '202': json('The run waits for approval', ref('RunAnswer')),
    ...errors([400, 'invalid_request'], [404, 'unknown_capability, invocation_not_found'], [409, 'lineage_closed (closed_by), repair_in_progress (in_progress), idempotency_key_in_progress, tool_changed (a held imported tool: pinned_hash, listed_hash, review; nothing ran)'], [413, 'payload_too_large'], [415, 'unsupported_media_type'], [422, 'invalid_arguments, invalid_repair, tool_error (a failed run: RunAnswer), idempotency_key_reused'], [502, 'upstream_unavailable, upstream_answer_too_large'], [503, 'storage_unavailable (Retry-After): the run was not reserved, nothing ran; or ran: true, its outcome not recorded'], [504, 'upstream_timeout']),
    ...credentialErrors,
  },
};

const route = {
  operationId: 'route',
  tags: ['dispatch'],
  summary: 'Run the router tags ([KEY]args[/KEY]) in a text, in order',
  security: tokenOrKey,
  requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false } } } },
  responses: {
    '200': json('One entry per tag, in order; a tag\'s failure is reported in its place', {
      type: 'object',
      properties: { ok: { type: 'boolean' }, count: { type: 'integer' }, runs: { type: 'array', items: { type: 'object' } }, problems: { type: 'array', items: { type: 'object' } } },
      required: ['ok', 'count', 'runs', 'problems'],
    }),
    ...errors([400, 'invalid_request (more than 20 tags, bad body)'], [415, 'unsupported_media_type']),
    ...credentialErrors,
  },
};

const hookId = pathParam('id', 'Webhook id', { type: 'string', pattern: '^hk_[A-Za-z0-9]{12}$' });
const dstId = pathParam('dst', 'Destination id', { type: 'string', pattern: '^dst_[A-Za-z0-9]{16}$' });
const anyBody = { required: false, content: { '*/*': { schema: { type: 'string', format: 'binary' } } } };

/** A JSON-RPC request to one of the MCP faces. */
const mcpBody = { required: true, content: { 'application/json': { schema: { type: 'object', properties: { jsonrpc: { const: '2.0' }, id: {}, method: { type: 'string' }, params: { type: 'object' } }, required: ['jsonrpc', 'method'] } } } };
const mcpResponses = {
  '200': json('The JSON-RPC response (a JSON-RPC error object for unknown methods, bad params and bad cursors)'),
  '202': { description: 'A notification was accepted' },
  '400': json('Parse error: the body is not JSON (JSON-RPC -32700)'),
  '403': json('The Host or Origin does not name this service (DNS-rebinding guard; config mcp.allowedHosts, mcp.allowedOrigins)'),
  '413': json('The body is larger than server.bodyLimitBytes (JSON-RPC -32600)'),
  ...credentialErrors,
};

export const paths = {
  '/api/dispatch': { get: dispatchGet, post: dispatchPost },
  '/api/route': { post: route },
  '/mcp': {
    post: {
      operationId: 'mcp', tags: ['mcp'], summary: 'Switchyard as an MCP server (streamable HTTP, stateless): tools/list and tools/call over JSON-RPC',
      description: 'tools/list shows the capabilities the credential may invoke (key = tool name, inputs = inputSchema), a page at a time (nextCursor; a cursor we did not make is -32602); tools/call runs exactly as POST /api/dispatch and returns content plus structuredContent with the invocation id. An unknown tool is JSON-RPC error -32602 with did_you_mean. A body that is not JSON is -32700; a Host or Origin that does not name this service is 403; a 401 carries WWW-Authenticate: Bearer with resource_metadata (RFC 9728) and scope, and error="invalid_token" for a bad, expired, revoked or wrong-resource token.',
      security: tokenOrKey,
      requestBody: mcpBody,
      responses: mcpResponses,
    },
    get: { operationId: 'mcpStream', tags: ['mcp'], summary: 'No stream to open: the server is stateless (405, a JSON-RPC error)', security: tokenOrKey, responses: { '405': json('Method not allowed') } },
    delete: { operationId: 'mcpEndSession', tags: ['mcp'], summary: 'Ends the session named by mcp-session-id: the log level it set goes (200); without the header 405', security: tokenOrKey, responses: { '200': { description: 'What this process held for the session is gone' }, '405': json('Method not allowed: no mcp-session-id') } },
  },
  '/mcp/servers/{name}': {
    post: {
      operationId: 'mcpImportedServer', tags: ['mcp'], summary: 'One imported MCP server as itself: its tools under their own names, its resources, templates, prompts and completions forwarded',
      description: 'Tools are the server\'s imported capabilities the credential may invoke, named as the server names them; each call is a run of its capability key through POST /api/dispatch\'s path (ledger, approvals). resources/*, prompts/* and completion/complete go to the server unchanged, for the owner or a credential offered every tool of the server; resources/subscribe is kept with the session, and the updates come on its GET stream.',
      security: tokenOrKey,
      parameters: [pathParam('name', 'The server\'s name in config upstreams.servers')],
      requestBody: mcpBody,
      responses: { ...mcpResponses, ...errors([404, 'upstream_not_found']) },
    },
    get: {
      operationId: 'mcpImportedServerStream', tags: ['mcp'], summary: 'The session\'s stream (mcp-session-id): notifications/resources/updated for the resources it subscribed to',
      description: 'Server-sent events, one stream per session, bound to the credential that opened the session. Without mcp-session-id 405.',
      security: tokenOrKey,
      parameters: [pathParam('name', 'The server\'s name')],
      responses: { '200': { description: 'An event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } }, '405': json('Method not allowed: no mcp-session-id'), ...errors([403, 'scope_denied (another credential\'s session)'], [404, 'upstream_not_found'], [429, 'session_limit (a stream is open already, or config mcp.sessions.maxSessions)']), ...credentialErrors },
    },
    delete: { operationId: 'mcpImportedServerEndSession', tags: ['mcp'], summary: 'Ends the session named by mcp-session-id: its log level and resource subscriptions go (200); without the header 405', security: tokenOrKey, parameters: [pathParam('name', 'The server\'s name')], responses: { '200': { description: 'What this process held for the session is gone' }, '405': json('Method not allowed: no mcp-session-id'), ...errors([404, 'upstream_not_found']) } },
  },
  '/mcp/v/{name}': {
    post: {
      operationId: 'mcpVirtualServer', tags: ['mcp'], summary: 'A named virtual MCP server: the capabilities config mcp.virtualServers.<name> lists, as tools named by key',
      security: tokenOrKey,
      parameters: [pathParam('name', 'The virtual server\'s name in config mcp.virtualServers')],
      requestBody: mcpBody,
      responses: { ...mcpResponses, ...errors([404, 'not_found']) },
    },
    get: { operationId: 'mcpVirtualServerStream', tags: ['mcp'], summary: 'No stream to open: stateless (405, a JSON-RPC error)', security: tokenOrKey, parameters: [pathParam('name', 'The virtual server\'s name')], responses: { '405': json('Method not allowed') } },
    delete: { operationId: 'mcpVirtualServerEndSession', tags: ['mcp'], summary: 'Ends the session named by mcp-session-id: the log level it set goes (200); without the header 405', security: tokenOrKey, parameters: [pathParam('name', 'The virtual server\'s name')], responses: { '200': { description: 'What this process held for the session is gone' }, '405': json('Method not allowed: no mcp-session-id') } },
  },
  '/api/invocations': {
    get: {
      operationId: 'listInvocations', tags: ['ledger'], summary: 'Invocations of one key, newest first or in append order',
      description: 'Paged like every ledger listing: `before`/`after` with next_cursor, and a page ends early before it would pass `ledger.pageBytes`.',
      security: tokenOrKey,
      parameters: [query('object_id', 'The capability key', undefined, true), ...ledgerPageParams()],
      responses: { '200': json('A page', ledgerPage(ref('Invocation'), { object_id: { type: 'string' } })), ...errors([400, 'invalid_request']), ...credentialErrors },
    },
  },
  '/api/invocations/{id}': {
    get: {
      operationId: 'getInvocation', tags: ['ledger'], summary: 'One invocation', security: tokenOrKey,
      parameters: [pathParam('id', 'Invocation id')],
      responses: { '200': json('The invocation', { type: 'object', properties: { ok: { type: 'boolean' }, invocation: ref('Invocation') } }), ...errors([404, 'invocation_not_found']), ...credentialErrors },
    },
  },
  '/api/invocations/{id}/blobs/{sha256}': {
    get: {
      operationId: 'getInvocationBlob', tags: ['ledger'], summary: "A large binary part of a run's content (stored once, named by its SHA-256 in the record)", security: tokenOrKey,
      parameters: [pathParam('id', 'Invocation id'), pathParam('sha256', 'The SHA-256 of the bytes, 64 hex digits', { type: 'string', pattern: '^[0-9a-f]{64}$' })],
      responses: {
        '200': { description: "The bytes, with the part's media type", content: { '*/*': { schema: { type: 'string', format: 'binary' } } } },
        ...errors([400, 'invalid_request'], [404, 'invocation_not_found (not a run of this credential), not_found (the run names no such blob)']),
        ...credentialErrors,
      },
    },
  },
  '/api/ledger': {
    get: {
      operationId: 'listLedger', tags: ['ledger'], summary: 'Ledger entries of one event: webhook deliveries or invocations, newest first or in append order', security: ownerOnly,
      description: 'Paged like every ledger listing: `before`/`after` with next_cursor, and a page ends early before it would pass `ledger.pageBytes`. A delivery body over `ledger.inlineBodyBytes` is left out (`body: null`, `body_omitted: true`); `body_size`, `body_sha256` and `body_url` stand for it.',
      parameters: [
        query('event', '`webhook delivery` or `invocation`', { enum: ['webhook delivery', 'invocation'] }, true),
        query('hook', 'Deliveries: only this webhook'),
        query('event_type', 'Deliveries: only those of this event type (exactly as `event_type` shows it: `push`, `invoice.paid`, `orders/create`)'),
        query('key', 'Invocations: only this capability key'),
        ...ledgerPageParams(),
      ],
      responses: {
        '200': json('A page', { oneOf: [ledgerPage(ref('Delivery'), { event: { const: 'webhook delivery' }, hook: { type: 'string' }, event_type: { type: 'string' } }), ledgerPage({ allOf: [ref('Invocation'), { type: 'object', properties: { event: { const: 'invocation' } }, required: ['event'] }] }, { event: { const: 'invocation' }, key: { type: 'string' } })] }),
        ...errors([400, 'invalid_request'], [404, 'webhook_not_found']),
        ...credentialErrors,
      },
    },
  },
  '/api/ledger/event-types': {
    get: {
      operationId: 'countEventTypes', tags: ['webhooks'], summary: 'How many deliveries name each event type, most frequent first', security: ownerOnly,
      description: 'Over every delivery, or one webhook\'s (`hook`). At most 200 types, the most frequent first (ties by name); `more` says others were left out. `event_type: null` counts the deliveries that name none.',
      parameters: [query('hook', 'Only this webhook')],
      responses: {
        '200': json('The counts', {
          type: 'object',
          properties: { ok: { const: true }, event: { const: 'webhook delivery' }, hook: { type: 'string' }, items: { type: 'array', items: ref('EventTypeCount') }, more: { type: 'boolean' } },
          required: ['ok', 'items', 'more'],
        }),
        ...errors([400, 'invalid_request'], [404, 'webhook_not_found']),
        ...credentialErrors,
      },
    },
  },
  '/api/ledger/{entry}': {
    get: {
      operationId: 'getDelivery', tags: ['webhooks'], summary: 'One delivery, whole', security: ownerOnly,
      parameters: [pathParam('entry', 'Delivery entry id (dlv_…)')],
      responses: { '200': json('The delivery', { type: 'object', properties: { entry: ref('Delivery') } }), ...errors([404, 'not_found']), ...credentialErrors },
    },
  },
  '/api/ledger/{entry}/body': {
    get: {
      operationId: 'getDeliveryBody', tags: ['webhooks'], summary: "A delivery's body, byte for byte, with its original content type (streamed)", security: ownerOnly,
      description: 'The `body_url` of a delivery. The answer carries `Repr-Digest: sha-256=:…:` (the `body_sha256` of the listing), `X-Content-Type-Options: nosniff` and a sandboxing Content-Security-Policy.',
      parameters: [pathParam('entry', 'Delivery entry id (dlv_…)')],
      responses: { '200': { description: 'The body as received', content: { '*/*': { schema: { type: 'string', format: 'binary' } } } }, ...errors([404, 'not_found']), ...credentialErrors },
    },
  },
  '/api/ledger/{entry}/erase': {
    post: {
      operationId: 'eraseLedgerEntry', tags: ['webhooks'], summary: "Erase an invocation's or a delivery's private payload; its leaf and every proof stay valid", security: ownerOnly,
      description: 'The owner\'s move `ledger:erase`. Empties the payload (an invocation\'s args, body, content, logs, result, structured_content; a delivery\'s body, headers and query) and appends an erasure entry (`ers_…`, its own leaf: which entry, which fields, when, the reason\'s SHA-256). Once per entry, and only once the entry is in the tree. See docs/proofs.md#erasure.',
      parameters: [pathParam('entry', 'Invocation (inv_…) or delivery (dlv_…) entry id')],
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { reason: { type: 'string', minLength: 1, maxLength: 500 } }, required: ['reason'], additionalProperties: false } } } },
      responses: {
        '201': json('The erasure entry (without the reason) and where to confirm it', {
          type: 'object',
          properties: {
            ok: { const: true },
            erasure: { type: 'object', properties: { id: { type: 'string' }, entry_kind: { enum: ['invocation', 'delivery'] }, entry: { type: 'string' }, fields: { type: 'array', items: { type: 'string' } }, reason_sha256: { type: 'string' }, erased_at: { type: 'string' } } },
            confirm: { type: 'string' },
          },
          required: ['ok', 'erasure', 'confirm'],
        }),
        ...errors([400, 'invalid_request'], [404, 'not_found'], [409, 'already_erased, entry_pending (not yet in the tree)'], [422, 'not_erasable (not an invocation or a delivery)']),
        ...credentialErrors,
      },
    },
  },
  '/api/objects/webhook': {
    get: { operationId: 'listWebhooks', tags: ['webhooks'], summary: 'Every webhook', security: ownerOnly, responses: { '200': json('Webhooks', { type: 'object', properties: { items: { type: 'array', items: ref('Webhook') } } }), ...credentialErrors } },
    post: {
      operationId: 'createWebhook', tags: ['webhooks'], summary: 'Create a webhook', security: ownerOnly,
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { name: { type: 'string' }, delivery_id_path: { type: 'string' }, event_type_path: { type: 'string' }, signature: ref('SignatureSetting'), retention_private_days: { type: ['number', 'null'], exclusiveMinimum: 0 } }, required: ['name'] } } } },
      responses: { '201': json('The webhook, its address and how to read its deliveries', ref('Webhook')), ...errors([400, 'invalid_request']), ...credentialErrors },
    },
  },
  '/api/objects/webhook/{id}': {
    get: { operationId: 'getWebhook', tags: ['webhooks'], summary: 'One webhook', security: ownerOnly, parameters: [hookId], responses: { '200': json('The webhook', ref('Webhook')), ...errors([404, 'webhook_not_found']), ...credentialErrors } },
    patch: {
      operationId: 'updateWebhook', tags: ['webhooks'], summary: 'Turn on or off, rename, change the delivery-id path or signature check', security: ownerOnly, parameters: [hookId],
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { on: { type: 'boolean' }, name: { type: 'string' }, delivery_id_path: { type: ['string', 'null'] }, event_type_path: { type: ['string', 'null'] }, signature: { oneOf: [ref('SignatureSetting'), { type: 'null' }] }, retention_private_days: { type: ['number', 'null'], exclusiveMinimum: 0 } } } } } },
      responses: { '200': json('The webhook', ref('Webhook')), ...errors([400, 'invalid_request'], [404, 'webhook_not_found']), ...credentialErrors },
    },
  },
  '/api/objects/webhook/{id}/destinations': {
    get: { operationId: 'listDestinations', tags: ['forwarding'], summary: "A webhook's destinations (without secrets)", security: ownerOnly, parameters: [hookId], responses: { '200': json('Destinations', { type: 'object', properties: { items: { type: 'array', items: ref('Destination') } } }), ...errors([404, 'webhook_not_found']), ...credentialErrors } },
    post: {
      operationId: 'createDestination', tags: ['forwarding'], summary: 'Forward this webhook\'s accepted deliveries to a URL (at most 10 per webhook)', security: ownerOnly, parameters: [hookId],
      requestBody: { required: true, content: { 'application/json': { schema: { allOf: [ref('DestinationSettings')], required: ['url'] } } } },
      responses: { '201': json('The destination with its signing secret, shown this once', ref('Destination')), ...errors([400, 'invalid_request (error.field names the setting)'], [403, 'blocked_address'], [404, 'webhook_not_found']), ...credentialErrors },
    },
  },
  '/api/objects/webhook/{id}/destinations/{dst}': {
    get: { operationId: 'getDestination', tags: ['forwarding'], summary: 'One destination', security: ownerOnly, parameters: [hookId, dstId], responses: { '200': json('The destination', ref('Destination')), ...errors([404, 'webhook_not_found, not_found']), ...credentialErrors } },
    patch: {
      operationId: 'updateDestination', tags: ['forwarding'], summary: 'Change a destination, or turn it on or off', security: ownerOnly, parameters: [hookId, dstId],
      requestBody: { required: true, content: { 'application/json': { schema: ref('DestinationSettings') } } },
      responses: { '200': json('The destination', ref('Destination')), ...errors([400, 'invalid_request'], [403, 'blocked_address'], [404, 'webhook_not_found, not_found']), ...credentialErrors },
    },
    delete: { operationId: 'deleteDestination', tags: ['forwarding'], summary: 'Stop forwarding to it; its history stays', security: ownerOnly, parameters: [hookId, dstId], responses: { '200': json('The destination, with deleted_at', ref('Destination')), ...errors([404, 'webhook_not_found, not_found']), ...credentialErrors } },
  },
  '/api/objects/webhook/{id}/destinations/{dst}/dead': {
    get: {
      operationId: 'listDeadLetters', tags: ['forwarding'], summary: "A destination's dead letters, oldest first", security: ownerOnly,
      parameters: [hookId, dstId, query('after', 'next_cursor of the page before', { type: 'string', pattern: '^[0-9]{1,18}$' }), limitParam(200)],
      responses: { '200': json('A page', { type: 'object', properties: { items: { type: 'array', items: { allOf: [ref('Forwarding'), { type: 'object', properties: { entry: { type: 'string' } } }] } }, next_cursor: { type: ['string', 'null'] } } }), ...errors([400, 'invalid_request'], [404, 'webhook_not_found, not_found']), ...credentialErrors },
    },
  },
  '/api/objects/webhook/{id}/destinations/{dst}/retry': {
    post: {
      operationId: 'retryDeadLetters', tags: ['forwarding'], summary: 'Re-forward dead letters in bulk: {state: "dead"}, {from, to} or {entries}', security: ownerOnly, parameters: [hookId, dstId],
      requestBody: { required: true, content: { 'application/json': { schema: { oneOf: [{ type: 'object', properties: { state: { const: 'dead' } }, required: ['state'] }, { type: 'object', properties: { from: { type: 'string', format: 'date-time' }, to: { type: 'string', format: 'date-time' } }, required: ['from', 'to'] }, { type: 'object', properties: { entries: { type: 'array', items: { type: 'string' }, maxItems: 1000 } }, required: ['entries'] }] } } } },
      responses: { '200': json('How many were put back in the schedule', { type: 'object', properties: { ok: { type: 'boolean' }, requeued: { type: 'integer' } } }), ...errors([400, 'invalid_request'], [404, 'webhook_not_found, not_found']), ...credentialErrors },
    },
  },
  '/api/objects/webhook/{id}/destinations/{dst}/rotate-secret': {
    post: {
      operationId: 'rotateDestinationSecret', tags: ['forwarding'], summary: 'A new signing secret, shown once; attempts are signed with the old one too for grace_s seconds', security: ownerOnly, parameters: [hookId, dstId],
      requestBody: { required: false, content: { 'application/json': { schema: { type: 'object', properties: { grace_s: { type: 'integer', minimum: 0, maximum: 604800, default: 86400 } }, additionalProperties: false } } } },
      responses: { '200': json('The destination with its new secret and previous_secret_until', ref('Destination')), ...errors([400, 'invalid_request'], [404, 'webhook_not_found, not_found'], [409, 'rotation_conflict']), ...credentialErrors },
    },
  },
  '/api/objects/webhook/{id}/listen': {
    get: {
      operationId: 'listenDeliveries', tags: ['forwarding'], summary: "A webhook's new accepted deliveries as server-sent events, whole (what `switchyard listen` replays to a local server)", security: ownerOnly,
      parameters: [hookId, { name: 'after', in: 'query', required: false, description: 'Resume after this ledger position (an earlier event\'s id; Last-Event-ID does the same); without it, only deliveries from now on', schema: { type: 'string', pattern: '^[0-9]{1,15}$' } }],
      responses: { '200': { description: 'An event stream: `ready` {hook, after}, then one `delivery` event per delivery {entry, seq, received_at, method, path, query, event_type, headers: [[name, value]…], body_base64}, its id the ledger position', content: { 'text/event-stream': { schema: { type: 'string' } } } }, ...errors([400, 'invalid_request (after)'], [404, 'webhook_not_found'], [429, 'session_limit (32 open listen streams in this process)']), ...credentialErrors },
    },
  },
  '/api/forwarding/allow': {
    get: {
      operationId: 'listForwardingAllow', tags: ['forwarding'], summary: 'The allowlist of destinations on internal addresses: the configuration\'s entries, then those added at run time', security: ownerOnly,
      responses: { '200': json('{items: [{host, source: config | database, created_at}]}', { type: 'object', properties: { items: { type: 'array', items: { type: 'object', properties: { host: { type: 'string' }, source: { enum: ['config', 'database'] }, created_at: { type: ['string', 'null'] } } } } } }), ...credentialErrors },
    },
    post: {
      operationId: 'addForwardingAllow', tags: ['forwarding'], summary: 'Admit a host (ports 80 and 443) or host:port for destinations, in every process', security: ownerOnly,
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { host: { type: 'string', maxLength: 300 } }, required: ['host'], additionalProperties: false } } } },
      responses: { '201': json('Added', { type: 'object', properties: { host: { type: 'string' }, added: { type: 'boolean' } } }), '200': json('Already listed', { type: 'object', properties: { host: { type: 'string' }, added: { type: 'boolean' } } }), ...errors([400, 'invalid_request']), ...credentialErrors },
    },
    delete: {
      operationId: 'removeForwardingAllow', tags: ['forwarding'], summary: 'Take a run-time entry away (attempts to it are refused again)', security: ownerOnly,
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { host: { type: 'string' } }, required: ['host'], additionalProperties: false } } } },
      responses: { '200': json('Removed', { type: 'object', properties: { host: { type: 'string' }, removed: { type: 'boolean' } } }), ...errors([400, 'invalid_request (a configuration entry)'], [404, 'not_found']), ...credentialErrors },
    },
  },
  '/hook/{id}': {
    get: { operationId: 'webhookFace', tags: ['webhooks'], summary: "A webhook's public face: name and on/off only", security: publicOnly, parameters: [hookId], responses: { '200': json('{name, on}', { type: 'object', properties: { name: { type: 'string' }, on: { type: 'boolean' } } }), ...errors([404, 'webhook_not_found']) } },
    post: {
      operationId: 'deliver', tags: ['webhooks'], summary: 'Deliver: any content type, stored byte-exact with every header', security: publicOnly, parameters: [hookId], requestBody: anyBody,
      responses: { '200': json('What was stored: entry, delivery id and rule, duplicate, duplicate_of', ref('DeliveryReceipt')), ...errors([401, 'signature_invalid'], [403, 'webhook_off'], [404, 'webhook_not_found'], [408, 'request_timeout'], [413, 'payload_too_large'], [431, 'headers_too_large'], [503, 'service_busy (with Retry-After)']) },
    },
  },
  '/hook/{id}/{action}': {
    post: {
      operationId: 'deliverAndRun', tags: ['webhooks'], summary: 'Deliver and run the capability named by the action with the JSON body as inputs', security: publicOnly,
      parameters: [hookId, pathParam('action', 'Capability key')], requestBody: anyBody,
      responses: {
        '200': json('The run answer plus the delivery receipt as `delivery`; for a duplicate delivery, the receipt (also as `delivery`) and `action: {ran: false, reason: "duplicate", first_run}`', {
          oneOf: [
            { allOf: [ref('RunAnswer'), { type: 'object', properties: { delivery: ref('DeliveryReceipt') }, required: ['delivery'] }] },
            { allOf: [ref('DeliveryReceipt'), { type: 'object', properties: { delivery: ref('DeliveryReceipt'), action: { type: 'object', properties: { name: { type: 'string' }, ran: { const: false }, reason: { const: 'duplicate' }, first_run: { type: ['object', 'null'] } } } }, required: ['delivery', 'action'] }] },
          ],
        }), ...errors([401, 'credential_required (auth-required capability)'], [403, 'webhook_off'], [404, 'unknown_capability, webhook_not_found'], [408, 'request_timeout'], [413, 'payload_too_large'], [422, 'invalid_arguments'], [431, 'headers_too_large'], [503, 'service_busy (with Retry-After)']) },
    },
  },
  '/start': {
    get: {
      operationId: 'start', tags: ['tokens'], summary: 'A bounded keyless token (1 h) with next-step URLs', security: publicOnly,
      parameters: [query('actor', 'Free text naming the caller')],
      responses: { '200': json('The token and next steps', ref('Token')), ...errors([429, 'rate_limited']) },
    },
  },
  '/api/workspace/{slug}/enter': {
    get: {
      operationId: 'enterWorkspace', tags: ['tokens'], summary: 'A workspace token (observer: keyless, read-only)', security: [{}, { apiKey: [] }],
      parameters: [pathParam('slug', 'Workspace slug'), query('role', 'observer (keyless) or another role (API key)'), query('actor', 'Free text naming the caller')],
      responses: { '200': json('The token', ref('Token')), ...errors([404, 'not_found'], [429, 'rate_limited']), ...credentialErrors },
    },
  },
  '/api/tokens': {
    post: {
      operationId: 'mintToken', tags: ['tokens'], summary: "Mint a token with the owner's key", security: ownerOnly,
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { moves: { type: 'array', items: { type: 'string' } }, keys: { type: 'array', items: { type: 'string' } }, actor: { type: 'string' }, purpose: { type: 'string' }, workspace: { type: 'string' }, expires_in_s: { type: 'integer' }, uses: { type: 'integer' } }, required: ['moves'] } } } },
      responses: { '201': json('The token', ref('Token')), ...errors([400, 'invalid_request']), ...credentialErrors },
    },
  },
  '/api/approvals': {
    get: { operationId: 'listApprovals', tags: ['approvals'], summary: 'Runs waiting for approval, newest first', security: ownerOnly, parameters: [limitParam()], responses: { '200': json('Pending approvals'), ...credentialErrors } },
  },
  '/api/approvals/{id}': {
    post: {
      operationId: 'decideApproval', tags: ['approvals'], summary: 'Approve (runs the exact arguments once, as a linked invocation) or deny', security: ownerOnly,
      parameters: [pathParam('id', 'The waiting invocation id')],
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { decision: { enum: ['approve', 'deny'] } }, required: ['decision'] } } } },
      responses: { '200': json('The run answer plus approval, or {ok, approval} for a denial'), ...errors([400, 'invalid_request'], [404, 'invocation_not_found'], [409, 'already_decided'], [410, 'approval_expired']), ...credentialErrors },
    },
  },
  '/api/upstreams': {
    get: {
      operationId: 'listUpstreams', tags: ['upstreams'], summary: 'Imported MCP servers: status, tools, last refresh and error', security: ownerOnly,
      responses: { '200': json('The configured servers', { type: 'object', properties: { ok: { type: 'boolean' }, items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, system: { type: 'string' }, transport: { type: 'string' }, status: { enum: ['ok', 'error', 'pending'] }, tools: { type: 'integer' }, keys: { type: 'array', items: { type: 'string' } }, oauth: { type: 'object', description: 'Servers that sign in with OAuth only', properties: { grant: { enum: ['client_credentials', 'authorization_code'] }, state: { enum: ['connected', 'not_connected', 'reconnect'] }, updated_at: { type: ['string', 'null'] } } } } } } } }), ...credentialErrors },
    },
  },
  '/api/upstreams/{name}/refresh': {
    post: {
      operationId: 'refreshUpstream', tags: ['upstreams'], summary: "List a server's tools again and replace its system's capabilities", security: ownerOnly,
      parameters: [pathParam('name', 'The server name from config upstreams.servers')],
      responses: {
        '200': json('What changed', { type: 'object', properties: { ok: { type: 'boolean' }, server: { type: 'string' }, system: { type: 'string' }, added: { type: 'array', items: { type: 'string' } }, removed: { type: 'array', items: { type: 'string' } }, count: { type: 'integer' }, simplified: { type: 'array', items: { type: 'string' } } } }),
        ...errors([400, 'invalid_request (a generated key collides with another system)'], [404, 'upstream_not_found'], [502, 'upstream_unavailable'], [503, 'upstream_auth_required (an OAuth server the owner has not connected)'], [504, 'upstream_timeout']),
        ...credentialErrors,
      },
    },
  },
  '/api/tools/held': {
    get: {
      operationId: 'listHeldTools', tags: ['upstreams'], summary: 'Imported tools held for review: a changed definition, a new tool on a known server, a removed tool', security: ownerOnly,
      responses: { '200': json('The holds, and how many the bound left out', { type: 'object', properties: { ok: { type: 'boolean' }, items: { type: 'array', items: { type: 'object', properties: { key: { type: 'string' }, server: { type: 'string' }, tool: { type: 'string' }, reason: { enum: ['changed', 'new', 'removed'] }, pinned_hash: { type: ['string', 'null'] }, listed_hash: { type: ['string', 'null'] }, held_since: { type: 'string' }, changes_in_a_row: { type: 'integer' }, changes: { type: 'string' }, approve: { type: 'string' } } } }, omitted: { type: 'integer' } } }), ...credentialErrors },
    },
  },
  '/api/tools/{key}/changes': {
    get: {
      operationId: 'toolChanges', tags: ['upstreams'], summary: "A held tool: its pinned and listed definitions and a readable diff (JSON Pointer paths)", security: ownerOnly,
      parameters: [pathParam('key', 'The capability key (any letter case)')],
      responses: { '200': json('The hold, before, after and diff'), ...errors([404, 'not_found (the key is not held)']), ...credentialErrors },
    },
  },
  '/api/tools/{key}/approve': {
    post: {
      operationId: 'approveTool', tags: ['upstreams'], summary: 'Approve the held definition: a new pin in the ledger, and the tool is served', security: ownerOnly,
      parameters: [pathParam('key', 'The capability key (any letter case)')],
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { hash: { type: 'string', pattern: '^sha256:[0-9a-f]{64}$', description: 'The listed_hash of the changes' } }, required: ['hash'] } } } },
      responses: {
        '200': json('The pin and its confirm link'),
        ...errors([400, 'invalid_request (no hash, or a removed tool: nothing to approve)'], [404, 'not_found (the key is not held)'], [409, 'tool_hash_stale (the server changed it again) or tool_flapping (it changes on every refresh)']),
        ...credentialErrors,
      },
    },
  },
  '/api/proven-work': {
    get: {
      operationId: 'provenWork', tags: ['proofs'], summary: 'Signed checkpoint, leaves and consistency proofs (public)', security: anyCredential,
      parameters: [query('from', 'First leaf index', { type: 'integer', minimum: 0 }), limitParam(1000, 100), query('from_size', 'Older tree size for a consistency proof', { type: 'integer', minimum: 1 }), query('to_size', 'Newer tree size', { type: 'integer', minimum: 1 })],
      responses: { '200': json('Checkpoint, leaves, consistency', { type: 'object', properties: { checkpoint: ref('Checkpoint') } }), ...errors([400, 'invalid_request']), ...credentialErrors },
    },
  },
  '/api/proven-work/key': {
    get: {
      operationId: 'verifierKey', tags: ['proofs'], summary: "The log's Ed25519 verifier key (signed-note format)", security: anyCredential,
      parameters: [query('format', '`text` for the key line alone', { enum: ['text'] })],
      responses: { '200': { description: 'The verifier key', content: { 'application/json': { schema: { type: 'object' } }, 'text/plain': { schema: { type: 'string' } } } }, ...credentialErrors },
    },
  },
  '/api/proven-work/log/checkpoint': {
    get: {
      operationId: 'logCheckpoint', tags: ['proofs'], summary: "The log's latest signed checkpoint (c2sp.org/tlog-checkpoint, a signed note, with any witness cosignatures; public)", security: anyCredential,
      responses: { '200': { description: 'The signed checkpoint note', content: { 'text/plain; charset=utf-8': { schema: { type: 'string' } } } }, ...errors([404, 'not_found (nothing integrated yet)']), ...credentialErrors },
    },
  },
  '/api/proven-work/log/tile/{tile}': {
    get: {
      operationId: 'logTile', tags: ['proofs'], summary: 'A tile of Merkle tree hashes or an entry bundle (c2sp.org/tlog-tiles; public)',
      description: 'The rest of the path, which spans several segments: `<L>/<N>[.p/<W>]` (hashes at level L) or `entries/<N>[.p/<W>]` (leaves, each a big-endian uint16 length and its bytes). N is written in 3-digit groups, all but the last prefixed with `x` (1234067 is `x001/x234/067`); `.p/<W>` names a partial tile of width 1–255. Cacheable for ever.',
      security: anyCredential,
      parameters: [pathParam('tile', 'L/N[.p/W] or entries/N[.p/W], e.g. 0/x001/234.p/17')],
      responses: { '200': { description: 'The tile (32-byte hashes, concatenated) or the entry bundle (gzip when accepted)', content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } }, ...errors([400, 'invalid_request (a malformed tile path)'], [404, 'not_found (past the tree size of the latest checkpoint)']), ...credentialErrors },
    },
  },
  '/api/workspace': {
    get: { operationId: 'protocolSpec', tags: ['entry points'], summary: 'This document: the machine-readable protocol spec (OpenAPI 3.1)', security: anyCredential, responses: { '200': json('The OpenAPI document'), ...credentialErrors } },
  },
  '/healthz': {
    get: { operationId: 'health', tags: ['operations'], summary: 'Liveness and database health', security: publicOnly, responses: { '200': json('{ok, database, capabilities, uptime_s}'), '503': json('The database does not answer (error database_unavailable) or does not take writes (error storage_unavailable, with Retry-After and database.write.kind and reason)', ref('Error')) } },
  },
  '/metrics': {
    get: {
      operationId: 'metrics',
      tags: ['operations'],
      summary: 'Prometheus metrics (text exposition format): process, HTTP, runs, upstream calls, deliveries, refusals, ledger backlog, group commits',
      description: 'The owner\'s API key, unless the config sets metrics.public to true (then no credential is asked).',
      security: [...ownerOnly, {}],
      responses: {
        '200': { description: 'The metrics', content: { 'text/plain; version=0.0.4': { schema: { type: 'string' } } } },
        ...errors([401, 'credential_required, invalid_api_key']),
      },
    },
  },
} as const;

