// The dashboard's pages in the OpenAPI document: HTML for people, listed so the spec covers every route.
import { dashboardSession, htmlPage, pathParam, publicOnly, query } from './components.js';

const pageOp = (operationId: string, summary: string, security: unknown[], parameters: unknown[] = []) => ({
  operationId,
  tags: ['dashboard'],
  summary,
  security,
  parameters,
  responses: { '200': htmlPage(summary), '303': { description: 'To the sign-in page when there is no session' }, '404': htmlPage('Not found (a page)') },
});
const formResponses = { '303': { description: 'Done: back to a page' }, '401': htmlPage('Refused (sign-in with a wrong key)'), '403': htmlPage('The form is stale or forged (CSRF)') };
const formOp = (operationId: string, summary: string, fields: Record<string, unknown>, security: unknown[], parameters: unknown[] = []) => ({
  operationId,
  tags: ['dashboard'],
  summary,
  security,
  parameters,
  requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: fields } } } },
  responses: formResponses,
});

const webhookFields = { csrf: { type: 'string' }, name: { type: 'string' }, signature_scheme: { type: 'string', description: 'empty: no signature check' }, signature_secret: { type: 'string' }, signature_require: { enum: ['on'] } };
const destinationFields = {
  csrf: { type: 'string' }, name: { type: 'string' }, url: { type: 'string' }, max_attempts: { type: 'string' }, initial_ms: { type: 'string' },
  filter: { type: 'string' }, transform: { type: 'string' }, forward_headers: { type: 'string', description: 'all, none, or header names separated by commas' },
};
/** A refused form answers as the page again, the whole message shown and nothing stored. */
const refusedAsPage = { ...formResponses, '400': htmlPage('invalid_request: the page again with the whole message and what was typed; nothing stored'), '404': htmlPage('webhook_not_found or destination_not_found') };

export const dashboardPaths = {
  '/dashboard': { get: pageOp('dashboardTree', 'The capability tree, with the ask search (q=)', publicOnly, [query('q', 'A question for ask')]) },
  '/dashboard/assets/{name}': { get: { ...pageOp('dashboardAsset', 'Dashboard script and style files', publicOnly, [pathParam('name', 'dashboard.css, dashboard.js or verify-proof.js')]), responses: { '200': { description: 'The file', content: { 'text/javascript': { schema: { type: 'string' } }, 'text/css': { schema: { type: 'string' } } } }, '404': htmlPage('No such asset') } } },
  '/dashboard/capabilities/{key}': { get: pageOp('dashboardCapability', 'A capability: contract and a try-it form', publicOnly, [pathParam('key', 'Capability key')]) },
  '/dashboard/login': {
    get: pageOp('dashboardLoginForm', 'The sign-in form', publicOnly, [query('next', 'Dashboard page to return to')]),
    post: {
      ...formOp('dashboardLogin', "Sign in with the owner's API key; back to next= when it is a dashboard page, else the dashboard home", { api_key: { type: 'string' }, next: { type: 'string' } }, publicOnly),
      responses: { ...formResponses, '429': htmlPage('rate_limited: too many sign-in attempts from this client this minute (Retry-After)') },
    },
  },
  '/dashboard/logout': { post: formOp('dashboardLogout', 'Sign out', { csrf: { type: 'string' } }, dashboardSession) },
  '/dashboard/webhooks': {
    get: pageOp('dashboardWebhooks', 'Webhooks with on/off switches, a form for a new one, and the forwarding allowlist', dashboardSession),
    post: { ...formOp('dashboardCreateWebhook', "Create a webhook (as POST /api/objects/webhook); to its page", webhookFields, dashboardSession), responses: { ...formResponses, '400': htmlPage('invalid_request: the list again with the whole message; nothing stored') } },
  },
  '/dashboard/webhooks/{id}': { get: pageOp('dashboardDeliveries', "A webhook's settings, destinations and deliveries (newest first, arriving live); did=, dst= and requeued= say what the last form did", dashboardSession, [pathParam('id', 'Webhook id'), query('did', 'What the last form did'), query('dst', 'The destination it did it to'), query('requeued', 'Dead letters re-sent')]) },
  '/dashboard/forwarding/allow': { post: { ...formOp('dashboardAllowHost', 'Admit a host[:port] for destinations (as POST /api/forwarding/allow); the webhook list answers', { csrf: { type: 'string' }, host: { type: 'string' } }, dashboardSession), responses: { ...formResponses, '200': htmlPage('The webhook list with the allowlist and what was done'), '400': htmlPage('invalid_request: not a host; nothing stored') } } },
  '/dashboard/forwarding/disallow': { post: { ...formOp('dashboardDisallowHost', 'Remove a run-time allowlist entry (as DELETE /api/forwarding/allow)', { csrf: { type: 'string' }, host: { type: 'string' } }, dashboardSession), responses: { ...formResponses, '200': htmlPage('The webhook list with the allowlist and what was done'), '400': htmlPage('invalid_request: a configured host, or not a host'), '404': htmlPage('not_found: not on the run-time allowlist') } } },
  '/dashboard/webhooks/{id}/edit': { post: { ...formOp('dashboardEditWebhook', 'Change a webhook\'s name and signature check (an empty secret keeps the one it has)', webhookFields, dashboardSession, [pathParam('id', 'Webhook id')]), responses: refusedAsPage } },
  '/dashboard/webhooks/{id}/destinations': {
    post: { ...formOp('dashboardCreateDestination', 'Add a destination (as POST /api/objects/webhook/{id}/destinations); the page answers 201 with its signing secret, shown once', destinationFields, dashboardSession, [pathParam('id', 'Webhook id')]), responses: { ...refusedAsPage, '201': htmlPage("The webhook's page with the new destination's secret") } },
  },
  '/dashboard/webhooks/{id}/destinations/{dst}/edit': { post: { ...formOp('dashboardEditDestination', "Change a destination's settings (an empty filter or transform removes it)", destinationFields, dashboardSession, [pathParam('id', 'Webhook id'), pathParam('dst', 'Destination id')]), responses: refusedAsPage } },
  '/dashboard/webhooks/{id}/destinations/{dst}/rotate-secret': { post: { ...formOp('dashboardRotateDestinationSecret', "A new signing secret (as POST …/rotate-secret), shown once on the page it answers with; the old one signs too for grace_s", { csrf: { type: 'string' }, grace_s: { type: 'string' } }, dashboardSession, [pathParam('id', 'Webhook id'), pathParam('dst', 'Destination id')]), responses: { ...refusedAsPage, '200': htmlPage("The webhook's page with the new secret"), '409': htmlPage('rotation_conflict') } } },
  '/dashboard/webhooks/{id}/destinations/{dst}/switch': { post: formOp('dashboardSwitchDestination', 'Turn a destination on or off', { csrf: { type: 'string' }, on: { enum: ['true', 'false'] } }, dashboardSession, [pathParam('id', 'Webhook id'), pathParam('dst', 'Destination id')]) },
  '/dashboard/webhooks/{id}/switch': { post: formOp('dashboardSwitchWebhook', "Turn a webhook on or off (from=webhook: back to the webhook's page)", { csrf: { type: 'string' }, on: { enum: ['true', 'false'] }, from: { enum: ['list', 'webhook'] } }, dashboardSession, [pathParam('id', 'Webhook id')]) },
  '/dashboard/webhooks/{id}/destinations/{dst}/retry': { post: formOp('dashboardRetryDeadLetters', "Re-forward a destination's dead letters (entry: one delivery's only), back to the page named by back", { csrf: { type: 'string' }, entry: { type: 'string' }, back: { type: 'string' } }, dashboardSession, [pathParam('id', 'Webhook id'), pathParam('dst', 'Destination id')]) },
  '/dashboard/webhooks/{id}/live': {
    get: {
      operationId: 'dashboardLiveDeliveries', tags: ['dashboard'], summary: 'New deliveries as server-sent events (event: delivery)', security: dashboardSession,
      parameters: [pathParam('id', 'Webhook id'), query('after', 'Only deliveries after this seq', { type: 'integer', minimum: 0 })],
      responses: { '200': { description: 'An event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } }, '303': { description: 'To the sign-in page' } },
    },
  },
  '/dashboard/deliveries/{entry}': { get: pageOp('dashboardDelivery', 'One delivery: headers as received and the body (a link to it when over the inline threshold)', dashboardSession, [pathParam('entry', 'Delivery entry id')]) },
  '/dashboard/deliveries/{entry}/body': {
    get: {
      ...pageOp('dashboardDeliveryBody', "A delivery's body, byte for byte, with its original content type", dashboardSession, [pathParam('entry', 'Delivery entry id')]),
      responses: { '200': { description: 'The body as received', content: { '*/*': { schema: { type: 'string', format: 'binary' } } } }, '303': { description: 'To the sign-in page when there is no session' }, '404': htmlPage('Not found (a page)') },
    },
  },
  '/dashboard/approvals': { get: pageOp('dashboardApprovals', 'Runs waiting for approval, each with Approve and Deny', dashboardSession, [query('approved', 'Invocation just approved'), query('run', 'The run it made'), query('denied', 'Invocation just denied')]) },
  '/dashboard/approvals/{id}': {
    post: {
      ...formOp('dashboardDecideApproval', 'Approve or deny a waiting run (as POST /api/approvals/{id})', { csrf: { type: 'string' }, decision: { enum: ['approve', 'deny'] } }, dashboardSession, [pathParam('id', 'Invocation id')]),
      responses: {
        ...formResponses,
        '400': htmlPage('invalid_request: not a decision, or the invocation is not waiting'),
        '404': htmlPage('invocation_not_found'),
        '409': htmlPage('already_decided'),
        '410': htmlPage('approval_expired'),
      },
    },
  },
  '/dashboard/invocations/{id}/erase': {
    post: {
      ...formOp('dashboardEraseInvocation', "Erase a run's private payload (as POST /api/ledger/{entry}/erase); back to its page", { csrf: { type: 'string' }, reason: { type: 'string', minLength: 1, maxLength: 500 } }, dashboardSession, [pathParam('id', 'Invocation id')]),
      responses: {
        ...formResponses,
        '400': htmlPage('invalid_request: no reason, or one over 500 characters'),
        '404': htmlPage('not_found'),
        '409': htmlPage('already_erased, entry_pending'),
        '422': htmlPage('not_erasable'),
      },
    },
  },
  '/dashboard/tools': { get: pageOp('dashboardHeldTools', 'Imported tools held for review, each with its diff and an Approve button', dashboardSession, [query('approved', 'Key just approved')]) },
  '/dashboard/tools/{key}/approve': {
    post: {
      ...formOp('dashboardApproveTool', 'Approve the held definition shown (as POST /api/tools/{key}/approve)', { csrf: { type: 'string' }, hash: { type: 'string' } }, dashboardSession, [pathParam('key', 'Capability key')]),
      responses: {
        ...formResponses,
        '400': htmlPage('invalid_request: no hash, or a removed tool'),
        '404': htmlPage('not_found: the key is not held'),
        '409': htmlPage('tool_hash_stale or tool_flapping'),
      },
    },
  },
  '/dashboard/ledger': { get: pageOp('dashboardLedger', 'Invocations of a key (key=), newest first, with their lineage', dashboardSession, [query('key', 'Capability key'), query('before', 'Cursor')]) },
  '/dashboard/invocations/{id}': { get: pageOp('dashboardInvocation', 'One invocation, its lineage and a proof verified in the browser', dashboardSession, [pathParam('id', 'Invocation id')]) },
} as const;
