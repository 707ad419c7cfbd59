// Delivery-id resolution, table-driven: every rule, its precedence, and the cases that find nothing.
import { expect } from 'chai';
import { resolveDeliveryId, type RawHeaders } from '../../src/index.js';

const json = (v: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(v));
const text = (s: string): Uint8Array => new TextEncoder().encode(s);

interface Row {
  name: string;
  headers?: RawHeaders;
  /** null: the body was not read (an oversized delivery). */
  body?: Uint8Array | null;
  contentType?: string;
  path?: string;
  expect: { id: string; rule: string } | null;
}

const ALL_HEADERS: RawHeaders = [
  ['X-Request-UUID', 'bitbucket-1'],
  ['I-Twilio-Idempotency-Token', 'twilio-1'],
  ['Idempotency-Key', 'gitlab-1'],
  ['X-Delivery-Id', 'generic-1'],
  ['Linear-Delivery', 'linear-1'],
  ['X-Shopify-Webhook-Id', 'shopify-1'],
  ['X-GitHub-Delivery', 'github-1'],
  ['svix-id', 'msg_svix1'],
  ['webhook-id', 'msg_std1'],
];
const without = (n: number): RawHeaders => ALL_HEADERS.slice(0, ALL_HEADERS.length - n);

const rows: Row[] = [
  { name: 'webhook-id beats everything', headers: ALL_HEADERS, body: json({ event_id: 'b' }), expect: { id: 'msg_std1', rule: 'header:webhook-id' } },
  { name: 'then svix-id', headers: without(1), expect: { id: 'msg_svix1', rule: 'header:svix-id' } },
  { name: 'then X-GitHub-Delivery (any case)', headers: without(2), expect: { id: 'github-1', rule: 'header:x-github-delivery' } },
  { name: 'then X-Shopify-Webhook-Id', headers: without(3), expect: { id: 'shopify-1', rule: 'header:x-shopify-webhook-id' } },
  { name: 'Shopify-Webhook-Id without X-', headers: [['Shopify-Webhook-Id', 'shopify-2']], expect: { id: 'shopify-2', rule: 'header:shopify-webhook-id' } },
  { name: 'then Linear-Delivery', headers: without(4), expect: { id: 'linear-1', rule: 'header:linear-delivery' } },
  { name: 'then X-Delivery-Id', headers: without(5), expect: { id: 'generic-1', rule: 'header:x-delivery-id' } },
  { name: 'then Idempotency-Key (GitLab)', headers: without(6), expect: { id: 'gitlab-1', rule: 'header:idempotency-key' } },
  { name: 'then I-Twilio-Idempotency-Token', headers: without(7), expect: { id: 'twilio-1', rule: 'header:i-twilio-idempotency-token' } },
  { name: 'then X-Request-UUID (Bitbucket)', headers: without(8), expect: { id: 'bitbucket-1', rule: 'header:x-request-uuid' } },
  { name: 'an empty header is skipped', headers: [['webhook-id', '  '], ['X-GitHub-Delivery', 'g']], expect: { id: 'g', rule: 'header:x-github-delivery' } },
  { name: 'headers beat the webhook path', headers: [['X-Delivery-Id', 'h']], body: json({ a: { b: 'p' } }), path: 'a.b', expect: { id: 'h', rule: 'header:x-delivery-id' } },
  { name: 'webhook body path', body: json({ data: { object: { id: 'evt_9' } }, id: 'top' }), path: 'data.object.id', expect: { id: 'evt_9', rule: 'path:data.object.id' } },
  { name: 'webhook header path', headers: [['X-Custom-Id', 'c-1']], body: json({ id: 'top' }), path: 'header:x-custom-id', expect: { id: 'c-1', rule: 'path:header:x-custom-id' } },
  { name: 'a path that finds nothing falls through to body fields', body: json({ id: 'top' }), path: 'nope.nothing', expect: { id: 'top', rule: 'body:id' } },
  { name: 'body event_id first', body: json({ id: 'i', delivery_id: 'd', event_id: 'e' }), expect: { id: 'e', rule: 'body:event_id' } },
  { name: 'then delivery_id', body: json({ id: 'i', webhook_id: 'w', delivery_id: 'd' }), expect: { id: 'd', rule: 'body:delivery_id' } },
  { name: 'then webhook_id', body: json({ id: 'i', webhook_id: 'w' }), expect: { id: 'w', rule: 'body:webhook_id' } },
  { name: 'then id (Stripe events)', body: json({ id: 'evt_1', data: { id: 'x' } }), expect: { id: 'evt_1', rule: 'body:id' } },
  { name: 'then data.id', body: json({ data: { id: 'x' } }), expect: { id: 'x', rule: 'body:data.id' } },
  { name: 'numeric ids count', body: json({ id: 42 }), expect: { id: '42', rule: 'body:id' } },
  { name: 'form-encoded bodies', body: text('event_id=f-1&x=2'), contentType: 'application/x-www-form-urlencoded', expect: { id: 'f-1', rule: 'body:event_id' } },
  { name: 'a body not read: the headers still give the id', headers: [['X-Delivery-Id', 'big-1']], body: null, expect: { id: 'big-1', rule: 'header:x-delivery-id' } },
  { name: 'a body not read and no id header: none', headers: [['Content-Type', 'application/json']], body: null, path: 'event.id', expect: null },
  { name: 'JSON sent under the form type (curl -d without a content type)', body: text('{"id":"curl-1"}'), contentType: 'application/x-www-form-urlencoded', expect: { id: 'curl-1', rule: 'body:id' } },
  { name: 'a form body that only starts like JSON stays a form', body: text('{x}=1&event_id=f-2'), contentType: 'application/x-www-form-urlencoded', expect: { id: 'f-2', rule: 'body:event_id' } },
  { name: 'form payload= holding JSON', body: text(`payload=${encodeURIComponent('{"id":"gh-form"}')}`), contentType: 'application/x-www-form-urlencoded', expect: { id: 'gh-form', rule: 'body:id' } },
  { name: 'no id anywhere → null (never a duplicate)', body: json({ hello: 'world' }), expect: null },
  { name: 'a JSON array body has no fields', body: json([{ id: 1 }]), expect: null },
  { name: 'an invalid byte elsewhere does not hide the id', body: new Uint8Array([...text('{"note":"'), 0xff, ...text('","id":"evt_7"}')]), expect: { id: 'evt_7', rule: 'body:id' } },
  { name: 'binary body → null', body: new Uint8Array([0xff, 0xfe, 0x00, 0x01]), expect: null },
  { name: 'empty body → null', body: new Uint8Array(), expect: null },
  { name: 'an object id is not an id', body: json({ id: { nested: true } }), expect: null },
  { name: 'an over-long id is not an id', body: json({ id: 'x'.repeat(201) }), expect: null },
];

describe('core: delivery-id resolution', function () {
  for (const row of rows) {
    it(row.name, function () {
      const found = resolveDeliveryId({ headers: row.headers ?? [], body: row.body === undefined ? new Uint8Array() : row.body, contentType: row.contentType ?? 'application/json', webhookPath: row.path ?? null });
      expect(found).to.deep.equal(row.expect);
    });
  }
});
