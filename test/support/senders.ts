// Senders as their vendors sign: for every inbound signature scheme, a secret and a function that
// signs a body for an address the way that sender does (with the vendor's library where it signs:
// standardwebhooks, svix, stripe, @octokit/webhooks-methods, twilio, @hubspot/api-client), and the
// event type its headers or body name. Used by the HTTP suites to send real deliveries.
import { createHmac, generateKeyPairSync, randomBytes, sign as signWith } from 'node:crypto';
import { sign as githubSign } from '@octokit/webhooks-methods';
import Stripe from 'stripe';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { getExpectedTwilioSignature } from 'twilio/lib/webhooks/webhooks.js';
import { Signature as HubSpotSignature } from '@hubspot/api-client';
import type { SignatureScheme } from '@switchyard/core';

export interface SignedDelivery {
  headers: Record<string, string>;
  body: Buffer;
}

export interface Sender {
  scheme: SignatureScheme;
  /** What the webhook's signature.secret is set to. */
  secret: string;
  /** Signs a delivery to `url` (the webhook's address as the sender sees it). */
  sign(url: string): Promise<SignedDelivery>;
  /** The event type the service should find in it. */
  eventType: string;
  /** The webhook's event_type_path, for a sender that names no event type of its own. */
  eventTypePath?: string;
}

const hmac = (algorithm: 'sha1' | 'sha256', key: string | Buffer, data: string | Buffer) => createHmac(algorithm, key).update(data);
const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const now = () => Math.floor(Date.now() / 1000);
const whsec = `whsec_${randomBytes(24).toString('base64')}`;
const discordKeys = generateKeyPairSync('ed25519');
const sendgridKeys = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });

const bodyHmac = (scheme: SignatureScheme, header: string, encode: (secret: string, body: Buffer) => string, body: Buffer, eventType: string, extra: Record<string, string> = {}): Sender => ({
  scheme,
  secret: `${scheme}-shared-secret`,
  eventType,
  sign: async () => ({ headers: { 'Content-Type': 'application/json', [header]: encode(`${scheme}-shared-secret`, body), ...extra }, body }),
});

const svixFamily = (scheme: 'svix' | 'clerk' | 'resend', type: string): Sender => ({
  scheme,
  secret: whsec,
  eventType: type,
  sign: async () => {
    const body = json({ type, data: { id: `${scheme}_1` } });
    const id = `msg_${randomBytes(8).toString('hex')}`;
    const at = new Date();
    return { headers: { 'Content-Type': 'application/json', 'svix-id': id, 'svix-timestamp': String(now()), 'svix-signature': new SvixWebhook(whsec).sign(id, at, body.toString()) }, body };
  },
});

export const SENDERS: Sender[] = [
  {
    scheme: 'standard-webhooks',
    secret: whsec,
    eventType: 'user.created',
    sign: async () => {
      const body = json({ type: 'user.created', data: { id: 'u_1', name: 'Zoë' } });
      const id = `msg_${randomBytes(8).toString('hex')}`;
      return { headers: { 'Content-Type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(now()), 'webhook-signature': new StandardWebhook(whsec).sign(id, new Date(), body.toString()) }, body };
    },
  },
  svixFamily('svix', 'invoice.created'),
  svixFamily('clerk', 'user.updated'),
  svixFamily('resend', 'email.delivered'),
  {
    scheme: 'stripe',
    secret: 'whsec_stripe_test_0123456789',
    eventType: 'invoice.paid',
    sign: async () => {
      const body = json({ id: `evt_${randomBytes(6).toString('hex')}`, object: 'event', type: 'invoice.paid', data: { object: { id: 'in_1' } } });
      const header = new Stripe('sk_test_not_used_for_network').webhooks.generateTestHeaderString({ payload: body.toString(), secret: 'whsec_stripe_test_0123456789' });
      return { headers: { 'Content-Type': 'application/json', 'Stripe-Signature': header }, body };
    },
  },
  {
    scheme: 'github',
    secret: 'github-webhook-secret',
    eventType: 'push',
    sign: async () => {
      const body = json({ ref: 'refs/heads/main', commits: [{ message: 'héllo' }] });
      return { headers: { 'Content-Type': 'application/json', 'X-GitHub-Event': 'push', 'X-GitHub-Delivery': randomBytes(16).toString('hex'), 'X-Hub-Signature-256': await githubSign('github-webhook-secret', body.toString()) }, body };
    },
  },
  bodyHmac('shopify', 'X-Shopify-Hmac-Sha256', (s, b) => hmac('sha256', s, b).digest('base64'), json({ id: 820982911946154500, email: 'jon@example.test' }), 'orders/create', { 'X-Shopify-Topic': 'orders/create', 'X-Shopify-Webhook-Id': randomBytes(8).toString('hex') }),
  {
    scheme: 'linear',
    secret: 'linear-signing-secret',
    eventType: 'Issue',
    sign: async () => {
      const body = json({ action: 'create', type: 'Issue', data: { id: 'iss_1' }, webhookTimestamp: Date.now() });
      return { headers: { 'Content-Type': 'application/json', 'Linear-Event': 'Issue', 'Linear-Delivery': randomBytes(8).toString('hex'), 'Linear-Signature': hmac('sha256', 'linear-signing-secret', body).digest('hex') }, body };
    },
  },
  {
    scheme: 'slack',
    secret: 'slack-signing-secret',
    eventType: 'app_mention',
    sign: async () => {
      const body = json({ type: 'event_callback', event_id: `Ev${randomBytes(4).toString('hex')}`, event: { type: 'app_mention', text: 'hi' } });
      const ts = String(now());
      return { headers: { 'Content-Type': 'application/json', 'X-Slack-Request-Timestamp': ts, 'X-Slack-Signature': `v0=${hmac('sha256', 'slack-signing-secret', `v0:${ts}:${body.toString()}`).digest('hex')}` }, body };
    },
  },
  {
    scheme: 'twilio',
    secret: 'twilio-auth-token-0123456789',
    eventType: 'delivered',
    eventTypePath: 'MessageStatus',
    sign: async (url) => {
      const params = { MessageSid: `SM${randomBytes(8).toString('hex')}`, MessageStatus: 'delivered', To: '+14155550100' };
      return { headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Twilio-Signature': getExpectedTwilioSignature('twilio-auth-token-0123456789', url, params) }, body: Buffer.from(new URLSearchParams(params).toString()) };
    },
  },
  {
    scheme: 'discord',
    secret: Buffer.from(discordKeys.publicKey.export({ format: 'jwk' }).x!, 'base64url').toString('hex'),
    eventType: 'APPLICATION_AUTHORIZED',
    sign: async () => {
      const body = json({ version: 1, application_id: '1', type: 1, event: { type: 'APPLICATION_AUTHORIZED', timestamp: new Date().toISOString() } });
      const ts = String(now());
      return { headers: { 'Content-Type': 'application/json', 'X-Signature-Timestamp': ts, 'X-Signature-Ed25519': signWith(null, Buffer.concat([Buffer.from(ts), body]), discordKeys.privateKey).toString('hex') }, body };
    },
  },
  {
    scheme: 'paddle',
    secret: 'pdl_ntfset_01_secret_key',
    eventType: 'transaction.completed',
    sign: async () => {
      const body = json({ event_id: `evt_${randomBytes(6).toString('hex')}`, event_type: 'transaction.completed', data: { id: 'txn_1' } });
      const ts = String(now());
      return { headers: { 'Content-Type': 'application/json', 'Paddle-Signature': `ts=${ts};h1=${hmac('sha256', 'pdl_ntfset_01_secret_key', `${ts}:${body.toString()}`).digest('hex')}` }, body };
    },
  },
  {
    scheme: 'square',
    secret: 'square-signature-key',
    eventType: 'payment.updated',
    sign: async (url) => {
      const body = json({ merchant_id: 'M1', type: 'payment.updated', event_id: randomBytes(8).toString('hex') });
      return { headers: { 'Content-Type': 'application/json', 'x-square-hmacsha256-signature': hmac('sha256', 'square-signature-key', url + body.toString()).digest('base64') }, body };
    },
  },
  {
    scheme: 'zendesk',
    secret: 'dGhpc19zZWNyZXRfaXNfZm9yX3Rlc3Rpbmdfb25seQ==',
    eventType: 'zen:event-type:ticket.created',
    sign: async () => {
      const body = json({ type: 'zen:event-type:ticket.created', id: randomBytes(8).toString('hex') });
      const ts = new Date().toISOString();
      return { headers: { 'Content-Type': 'application/json', 'X-Zendesk-Webhook-Signature-Timestamp': ts, 'X-Zendesk-Webhook-Signature': hmac('sha256', 'dGhpc19zZWNyZXRfaXNfZm9yX3Rlc3Rpbmdfb25seQ==', ts + body.toString()).digest('base64') }, body };
    },
  },
  bodyHmac('intercom', 'X-Hub-Signature', (s, b) => `sha1=${hmac('sha1', s, b).digest('hex')}`, json({ type: 'notification_event', topic: 'conversation.user.created', id: 'notif_1' }), 'conversation.user.created'),
  bodyHmac('pagerduty', 'X-PagerDuty-Signature', (s, b) => `v1=${hmac('sha256', s, b).digest('hex')}`, json({ event: { id: 'pd_1', event_type: 'incident.triggered' } }), 'incident.triggered'),
  {
    scheme: 'mailgun',
    secret: 'mailgun-webhook-signing-key',
    eventType: 'delivered',
    sign: async () => {
      const timestamp = String(now());
      const token = randomBytes(25).toString('hex');
      const signature = hmac('sha256', 'mailgun-webhook-signing-key', timestamp + token).digest('hex');
      return { headers: { 'Content-Type': 'application/json' }, body: json({ signature: { timestamp, token, signature }, 'event-data': { event: 'delivered', id: 'mg_1' } }) };
    },
  },
  {
    scheme: 'sendgrid',
    secret: sendgridKeys.publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
    eventType: 'processed',
    sign: async () => {
      const body = json([{ email: 'a@example.test', event: 'processed', sg_event_id: randomBytes(8).toString('hex') }]);
      const ts = String(now());
      return { headers: { 'Content-Type': 'application/json', 'X-Twilio-Email-Event-Webhook-Timestamp': ts, 'X-Twilio-Email-Event-Webhook-Signature': signWith('sha256', Buffer.concat([Buffer.from(ts), body]), sendgridKeys.privateKey).toString('base64') }, body };
    },
  },
  bodyHmac('typeform', 'Typeform-Signature', (s, b) => `sha256=${hmac('sha256', s, b).digest('base64')}`, json({ event_id: 'tf_1', event_type: 'form_response' }), 'form_response'),
  {
    scheme: 'hubspot',
    secret: 'hubspot-client-secret',
    eventType: 'contact.creation',
    sign: async (url) => {
      const body = JSON.stringify([{ eventId: 1, subscriptionType: 'contact.creation', objectId: 7 }]);
      const timestamp = Date.now();
      const signature = HubSpotSignature.getSignature('POST', 'v3', { signature: '', clientSecret: 'hubspot-client-secret', requestBody: body, url, timestamp });
      return { headers: { 'Content-Type': 'application/json', 'X-HubSpot-Signature-v3': signature, 'X-HubSpot-Request-Timestamp': String(timestamp) }, body: Buffer.from(body) };
    },
  },
  {
    scheme: 'mux',
    secret: 'mux-webhook-secret',
    eventType: 'video.asset.ready',
    sign: async () => {
      const body = json({ type: 'video.asset.ready', id: randomBytes(8).toString('hex') });
      const t = String(now());
      return { headers: { 'Content-Type': 'application/json', 'Mux-Signature': `t=${t},v1=${hmac('sha256', 'mux-webhook-secret', `${t}.${body.toString()}`).digest('hex')}` }, body };
    },
  },
  {
    scheme: 'calendly',
    secret: 'calendly-signing-key',
    eventType: 'invitee.created',
    sign: async () => {
      const body = json({ event: 'invitee.created', payload: { uri: 'x' } });
      const t = String(now());
      return { headers: { 'Content-Type': 'application/json', 'Calendly-Webhook-Signature': `t=${t},v1=${hmac('sha256', 'calendly-signing-key', `${t}.${body.toString()}`).digest('hex')}` }, body };
    },
  },
  bodyHmac('vercel', 'x-vercel-signature', (s, b) => hmac('sha1', s, b).digest('hex'), json({ type: 'deployment.created', id: 'v_1' }), 'deployment.created'),
  bodyHmac('sentry', 'Sentry-Hook-Signature', (s, b) => hmac('sha256', s, b).digest('hex'), json({ action: 'created', data: {} }), 'issue', { 'Sentry-Hook-Resource': 'issue' }),
  bodyHmac('checkout', 'Cko-Signature', (s, b) => hmac('sha256', s, b).digest('hex'), json({ id: 'evt_cko', type: 'payment_approved' }), 'payment_approved'),
  bodyHmac('coinbase', 'X-CC-Webhook-Signature', (s, b) => hmac('sha256', s, b).digest('hex'), json({ id: 1, event: { type: 'charge:confirmed' } }), 'charge:confirmed'),
  bodyHmac('bitbucket', 'X-Hub-Signature', (s, b) => `sha256=${hmac('sha256', s, b).digest('hex')}`, json({ push: {} }), 'repo:push', { 'X-Event-Key': 'repo:push' }),
  {
    scheme: 'gitlab',
    secret: 'gitlab-secret-token',
    eventType: 'Push Hook',
    sign: async () => ({ headers: { 'Content-Type': 'application/json', 'X-Gitlab-Event': 'Push Hook', 'X-Gitlab-Token': 'gitlab-secret-token' }, body: json({ object_kind: 'push' }) }),
  },
  {
    scheme: 'twitch',
    secret: 'twitch-eventsub-secret',
    eventType: 'channel.follow',
    sign: async () => {
      const body = json({ subscription: { type: 'channel.follow' }, event: { user_name: 'x' } });
      const id = randomBytes(8).toString('hex');
      const ts = new Date().toISOString();
      return {
        headers: { 'Content-Type': 'application/json', 'Twitch-Eventsub-Message-Id': id, 'Twitch-Eventsub-Message-Timestamp': ts, 'Twitch-Eventsub-Subscription-Type': 'channel.follow', 'Twitch-Eventsub-Message-Signature': `sha256=${hmac('sha256', 'twitch-eventsub-secret', id + ts + body.toString()).digest('hex')}` },
        body,
      };
    },
  },
  {
    scheme: 'zoom',
    secret: 'zoom-secret-token',
    eventType: 'meeting.started',
    sign: async () => {
      const body = json({ event: 'meeting.started', payload: {} });
      const ts = String(now());
      return { headers: { 'Content-Type': 'application/json', 'x-zm-request-timestamp': ts, 'x-zm-signature': `v0=${hmac('sha256', 'zoom-secret-token', `v0:${ts}:${body.toString()}`).digest('hex')}` }, body };
    },
  },
  bodyHmac('woocommerce', 'X-WC-Webhook-Signature', (s, b) => hmac('sha256', s, b).digest('base64'), json({ id: 1 }), 'order.created', { 'X-WC-Webhook-Topic': 'order.created' }),
  {
    scheme: 'postmark',
    secret: 'postmark:a-long-password',
    eventType: 'Delivery',
    sign: async () => ({ headers: { 'Content-Type': 'application/json', Authorization: `Basic ${Buffer.from('postmark:a-long-password').toString('base64')}` }, body: json({ RecordType: 'Delivery', MessageID: 'pm_1' }) }),
  },
  bodyHmac('hmac-sha256', 'X-Signature', (s, b) => `sha256=${hmac('sha256', s, b).digest('hex')}`, json({ type: 'thing.happened' }), 'thing.happened'),
];
