// Event types: each known sender's own header or body field, the webhook's event_type_path over
// them, common body fields otherwise; values bounded; a body parsed once for id and type.
import { expect } from 'chai';
import { deliveryRecord, lazyBody, resolveEventType, type EventTypeInput, type SignatureScheme, type Webhook } from '../../src/index.js';

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const form = (fields: Record<string, string>) => new TextEncoder().encode(new URLSearchParams(fields).toString());
const typeOf = (over: Partial<EventTypeInput>) =>
  resolveEventType({ headers: [], body: null, contentType: 'application/json', webhookPath: null, scheme: null, ...over });

describe('core: event types', () => {
  it('reads each known sender’s own header or field, known by a header of its own', () => {
    const cases: Array<[string, Partial<EventTypeInput>, string, string]> = [
      ['GitHub', { headers: [['X-GitHub-Event', 'push'], ['X-GitHub-Delivery', 'd1']], body: json({ action: 'opened' }) }, 'push', 'header:x-github-event'],
      ['Shopify', { headers: [['X-Shopify-Topic', 'orders/create']] }, 'orders/create', 'header:x-shopify-topic'],
      ['Shopify events', { headers: [['shopify-topic', 'orders/paid']] }, 'orders/paid', 'header:shopify-topic'],
      ['Stripe', { headers: [['Stripe-Signature', 't=1,v1=00']], body: json({ id: 'evt_1', object: 'event', data: {}, type: 'invoice.paid' }) }, 'invoice.paid', 'body:type'],
      ['Standard Webhooks', { headers: [['webhook-id', 'msg_1'], ['webhook-signature', 'v1,x']], body: json({ type: 'user.created' }) }, 'user.created', 'body:type'],
      ['Svix', { headers: [['svix-signature', 'v1,x']], body: json({ type: 'email.sent' }) }, 'email.sent', 'body:type'],
      ['Slack events', { headers: [['X-Slack-Signature', 'v0=1']], body: json({ type: 'event_callback', event: { type: 'app_mention' } }) }, 'app_mention', 'body:event.type'],
      ['Slack url_verification', { headers: [['X-Slack-Signature', 'v0=1']], body: json({ type: 'url_verification', challenge: 'c' }) }, 'url_verification', 'body:type'],
      ['Slack interactivity', { headers: [['X-Slack-Signature', 'v0=1']], contentType: 'application/x-www-form-urlencoded', body: form({ payload: JSON.stringify({ type: 'block_actions' }) }) }, 'block_actions', 'body:type'],
      ['Slack slash command', { headers: [['X-Slack-Signature', 'v0=1']], contentType: 'application/x-www-form-urlencoded', body: form({ command: '/deploy', text: 'now' }) }, '/deploy', 'body:command'],
      ['Linear', { headers: [['Linear-Event', 'Issue'], ['Linear-Signature', 'ab']], body: json({ type: 'Issue', action: 'create' }) }, 'Issue', 'header:linear-event'],
      ['Paddle', { headers: [['Paddle-Signature', 'ts=1;h1=0']], body: json({ event_type: 'transaction.completed', notification_id: 'ntf_1' }) }, 'transaction.completed', 'body:event_type'],
      ['Square', { headers: [['x-square-hmacsha256-signature', 'x']], body: json({ type: 'payment.updated', event_id: 'e1' }) }, 'payment.updated', 'body:type'],
      ['Zendesk', { headers: [['X-Zendesk-Webhook-Signature', 'x']], body: json({ type: 'zen:event-type:ticket.created' }) }, 'zen:event-type:ticket.created', 'body:type'],
      ['Discord event', { headers: [['X-Signature-Ed25519', 'x']], body: json({ type: 1, event: { type: 'APPLICATION_AUTHORIZED' } }) }, 'APPLICATION_AUTHORIZED', 'body:event.type'],
      ['Discord PING', { headers: [['X-Signature-Ed25519', 'x']], body: json({ type: 1 }) }, '1', 'body:type'],
      ['PagerDuty', { headers: [['X-PagerDuty-Signature', 'v1=0']], body: json({ event: { event_type: 'incident.triggered' } }) }, 'incident.triggered', 'body:event.event_type'],
      ['SendGrid', { headers: [['X-Twilio-Email-Event-Webhook-Signature', 'x']], body: json([{ event: 'delivered' }, { event: 'open' }]) }, 'delivered', 'body:0.event'],
      ['Typeform', { headers: [['Typeform-Signature', 'sha256=x']], body: json({ event_type: 'form_response' }) }, 'form_response', 'body:event_type'],
      ['HubSpot', { headers: [['X-HubSpot-Signature-v3', 'x']], body: json([{ subscriptionType: 'contact.creation' }]) }, 'contact.creation', 'body:0.subscriptionType'],
      ['Mux', { headers: [['Mux-Signature', 't=1,v1=0']], body: json({ type: 'video.asset.ready' }) }, 'video.asset.ready', 'body:type'],
      ['Calendly', { headers: [['Calendly-Webhook-Signature', 't=1,v1=0']], body: json({ event: 'invitee.created' }) }, 'invitee.created', 'body:event'],
      ['Bitbucket', { headers: [['X-Event-Key', 'repo:push']] }, 'repo:push', 'header:x-event-key'],
      ['GitLab', { headers: [['X-Gitlab-Event', 'Push Hook']] }, 'Push Hook', 'header:x-gitlab-event'],
      ['Twitch', { headers: [['Twitch-Eventsub-Message-Signature', 'sha256=x'], ['Twitch-Eventsub-Subscription-Type', 'channel.follow']] }, 'channel.follow', 'header:twitch-eventsub-subscription-type'],
      ['WooCommerce', { headers: [['X-WC-Webhook-Topic', 'order.created']] }, 'order.created', 'header:x-wc-webhook-topic'],
      ['Sentry', { headers: [['Sentry-Hook-Signature', 'x'], ['Sentry-Hook-Resource', 'issue']], body: json({ action: 'created' }) }, 'issue', 'header:sentry-hook-resource'],
      ['Zoom', { headers: [['x-zm-signature', 'v0=x']], body: json({ event: 'meeting.started' }) }, 'meeting.started', 'body:event'],
    ];
    for (const [sender, input, type, rule] of cases) expect(typeOf(input), sender).to.deep.equal({ type, rule });
  });

  it('reads the sender of the webhook’s scheme when the sender sends no header of its own', () => {
    const cases: Array<[SignatureScheme, Uint8Array, string, string]> = [
      ['mailgun', json({ signature: {}, 'event-data': { event: 'delivered' } }), 'delivered', 'body:event-data.event'],
      ['intercom', json({ type: 'notification_event', topic: 'conversation.user.created' }), 'conversation.user.created', 'body:topic'],
      ['postmark', json({ RecordType: 'Bounce', Type: 'HardBounce' }), 'Bounce', 'body:RecordType'],
      ['coinbase', json({ event: { type: 'charge:confirmed' } }), 'charge:confirmed', 'body:event.type'],
    ];
    for (const [scheme, body, type, rule] of cases) expect(typeOf({ scheme, body }), scheme).to.deep.equal({ type, rule });
    // Without the scheme, Intercom's body is read by the common fields: its `type` comes first.
    expect(typeOf({ body: json({ type: 'notification_event', topic: 'conversation.user.created' }) })).to.deep.equal({ type: 'notification_event', rule: 'body:type' });
  });

  it('prefers the webhook’s own event_type_path, a body path or a header, and falls back when it finds nothing', () => {
    const body = form({ MessageStatus: 'delivered', SmsSid: 'SM1' });
    // Twilio names no event type: the webhook's path does.
    expect(typeOf({ scheme: 'twilio', contentType: 'application/x-www-form-urlencoded', body, webhookPath: 'MessageStatus' })).to.deep.equal({ type: 'delivered', rule: 'path:MessageStatus' });
    expect(typeOf({ headers: [['X-GitHub-Event', 'push']], body: json({ action: 'opened' }), webhookPath: 'action' })).to.deep.equal({ type: 'opened', rule: 'path:action' });
    expect(typeOf({ headers: [['X-Kind', 'nightly']], webhookPath: 'header:x-kind' })).to.deep.equal({ type: 'nightly', rule: 'path:header:x-kind' });
    expect(typeOf({ headers: [['X-GitHub-Event', 'push']], body: json({}), webhookPath: 'data.kind' }), 'not found: the sender’s').to.deep.equal({ type: 'push', rule: 'header:x-github-event' });
    expect(typeOf({ body: json({ data: [{ kind: 'a' }, { kind: 'b' }] }), webhookPath: 'data.1.kind' })).to.deep.equal({ type: 'b', rule: 'path:data.1.kind' });
  });

  it('reads common body fields for senders it does not know, skipping values that are not a name', () => {
    expect(typeOf({ body: json({ type: 'order.paid' }) })).to.deep.equal({ type: 'order.paid', rule: 'body:type' });
    expect(typeOf({ body: json({ type: { nested: true }, event_type: 'a.b' }) })).to.deep.equal({ type: 'a.b', rule: 'body:event_type' });
    expect(typeOf({ body: json({ event: 'x', topic: 'y' }) })).to.deep.equal({ type: 'x', rule: 'body:event' });
    expect(typeOf({ body: json({ topic: 'y' }) })).to.deep.equal({ type: 'y', rule: 'body:topic' });
    expect(typeOf({ body: json({ type: 42 }) })).to.deep.equal({ type: '42', rule: 'body:type' });
    expect(typeOf({ body: json({ type: '   ' }) })).to.equal(null);
    expect(typeOf({ body: json({ type: 'red\u001b[31malert', event: 'ok.then' }) }), 'no control characters: the next field').to.deep.equal({ type: 'ok.then', rule: 'body:event' });
    expect(typeOf({ body: json({ type: 'x'.repeat(201) }) }), 'longer than 200 is not a type').to.equal(null);
    expect(typeOf({ body: json({ type: ` ${'x'.repeat(200)} ` }) })).to.deep.equal({ type: 'x'.repeat(200), rule: 'body:type' });
    expect(typeOf({ body: new TextEncoder().encode('not json') })).to.equal(null);
    expect(typeOf({ body: json({ nothing: 1 }) })).to.equal(null);
    expect(typeOf({ body: json({ constructor: 'x', __proto__: 'y' }), webhookPath: 'toString' }), 'no inherited properties').to.equal(null);
  });

  it('reads only headers when the body was not read whole, and never parses a body over 5 MiB', () => {
    expect(typeOf({ headers: [['X-GitHub-Event', 'push']], body: null })).to.deep.equal({ type: 'push', rule: 'header:x-github-event' });
    expect(typeOf({ headers: [['Stripe-Signature', 't=1']], body: null })).to.equal(null);
    const big = new TextEncoder().encode(`{"type":"big","pad":"${'x'.repeat(5 * 1024 * 1024)}"}`);
    expect(typeOf({ body: big })).to.equal(null);
  });

  it('parses a body once for both the delivery id and the event type', () => {
    const parsed = lazyBody(json({ id: 'evt_1', type: 'invoice.paid' }), 'application/json');
    expect(parsed.get()).to.equal(parsed.get());
    const hook: Webhook = { id: 'hk_AAAAAAAAAAAA', name: 't', on: true, delivery_id_path: null, event_type_path: null, signature: null, retention_private_days: null, created_at: '', updated_at: '' };
    const head = { hookId: hook.id, action: null, method: 'POST', path: '/hook/hk_AAAAAAAAAAAA', query: '', headers: [['content-type', 'application/json']] as const, contentType: 'application/json', clientAddress: null, declaredSize: null };
    const rec = deliveryRecord(head, hook, json({ id: 'evt_1', type: 'invoice.paid' }), 40, new Date());
    expect(rec).to.include({ delivery_id: 'evt_1', delivery_id_rule: 'body:id', event_type: 'invoice.paid', event_type_rule: 'body:type' });
    // A refusal that kept only the first bytes reads no body field.
    const partial = deliveryRecord(head, hook, json({ id: 'evt_1', type: 'invoice.paid' }), 4000, new Date(), false);
    expect(partial).to.include({ delivery_id: null, event_type: null, event_type_rule: null });
  });
});
