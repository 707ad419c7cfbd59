// Inbound signatures against the vendors' own npm libraries: where a library signs (standardwebhooks,
// svix, stripe, @octokit/webhooks-methods, twilio, @hubspot/api-client) it signs and our pure core
// verifies; where it only verifies (@clerk/backend, resend, @shopify/shopify-api, @linear/sdk,
// @slack/bolt, @paddle/paddle-node-sdk, square, discord-interactions, @sendgrid/eventwebhook,
// @mux/mux-node) the request is signed as the vendor documents it and the library must accept it
// too, so the test's signing is the vendor's. Each: verified, tampered, wrong secret, replayed
// (timestamped schemes), missing.
import { expect } from 'chai';
import { createHmac, generateKeyPairSync, randomBytes, sign as signWith } from 'node:crypto';
import { sign as githubSign, verify as githubVerify } from '@octokit/webhooks-methods';
import Stripe from 'stripe';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { verifyWebhook as clerkVerify } from '@clerk/backend/webhooks';
import { Resend } from 'resend';
import '@shopify/shopify-api/adapters/web-api';
import { ApiVersion, shopifyApi } from '@shopify/shopify-api';
import { LinearWebhookClient } from '@linear/sdk/webhooks';
import { isValidSlackRequest } from '@slack/bolt';
import twilio from 'twilio';
import { getExpectedTwilioSignature, getExpectedBodyHash } from 'twilio/lib/webhooks/webhooks.js';
import { Paddle } from '@paddle/paddle-node-sdk';
import { WebhooksHelper } from 'square';
import { verifyKey } from 'discord-interactions';
import { EventWebhook } from '@sendgrid/eventwebhook';
import { Signature as HubSpotSignature } from '@hubspot/api-client';
import Mux from '@mux/mux-node';
import { body, check, minutesFrom, payload, request, seconds, tampered, verdictOf } from './support.js';

describe('inbound signatures, against the vendors’ own libraries', function () {
  describe('the Standard Webhooks family', function () {
    const key = randomBytes(24).toString('base64');
    const secret = `whsec_${key}`;

    it('standard-webhooks (standardwebhooks): its spec’s test vector, then signed by the library; tampered, stale, missing, other secret', function () {
      // The vector in the Standard Webhooks repository's libraries' tests.
      const vector = request({ 'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek', 'webhook-timestamp': '1614265330', 'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=' }, new TextEncoder().encode('{"test": 2432232314}'));
      expect(verdictOf('standard-webhooks', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', vector, new Date(1614265330_000))).to.equal('verified');
      const now = new Date();
      const sender = new StandardWebhook(key);
      const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': seconds(now), 'webhook-signature': sender.sign('msg_1', now, payload) };
      expect(sender.verify(payload, headers)).to.deep.equal(JSON.parse(payload));
      expect(verdictOf('standard-webhooks', secret, request(headers))).to.equal('verified');
      expect(verdictOf('standard-webhooks', key, request(headers)), 'the key without whsec_').to.equal('verified');
      expect(verdictOf('standard-webhooks', secret, request(headers, tampered))).to.equal('invalid');
      expect(check('standard-webhooks', secret, request(headers), minutesFrom(now, 10)).reason).to.contain('tolerance 300 s');
      expect(verdictOf('standard-webhooks', secret, request({}))).to.equal('missing');
      expect(verdictOf('standard-webhooks', `whsec_${randomBytes(24).toString('base64')}`, request(headers))).to.equal('invalid');
    });

    it('svix (svix): svix-* headers, and a rotation’s several signatures', function () {
      const now = new Date();
      const headers = { 'svix-id': 'msg_2', 'svix-timestamp': seconds(now), 'svix-signature': new SvixWebhook(secret).sign('msg_2', now, payload) };
      expect(verdictOf('svix', secret, request(headers))).to.equal('verified');
      const old = new SvixWebhook(`whsec_${randomBytes(24).toString('base64')}`).sign('msg_2', now, payload);
      expect(verdictOf('svix', secret, request({ ...headers, 'svix-signature': `${old} ${headers['svix-signature']}` })), 'one of two matches').to.equal('verified');
      expect(verdictOf('svix', secret, request(headers, tampered))).to.equal('invalid');
    });

    it('clerk (@clerk/backend verifyWebhook) and resend (resend’s webhooks.verify), both sent through Svix', async function () {
      const now = new Date();
      const clerkPayload = '{"type":"user.created","object":"event","data":{"id":"user_2x"}}';
      const headers = { 'svix-id': 'msg_clerk', 'svix-timestamp': seconds(now), 'svix-signature': new SvixWebhook(secret).sign('msg_clerk', now, clerkPayload) };
      const event = await clerkVerify(new Request('https://example.test/hook', { method: 'POST', headers, body: clerkPayload }), { signingSecret: secret });
      expect(event.type).to.equal('user.created');
      expect(verdictOf('clerk', secret, request(headers, new TextEncoder().encode(clerkPayload)))).to.equal('verified');
      expect(verdictOf('clerk', secret, request(headers, tampered))).to.equal('invalid');

      const resend = new Resend('re_not_used_for_network');
      const sent = { 'svix-id': 'msg_resend', 'svix-timestamp': seconds(now), 'svix-signature': new SvixWebhook(secret).sign('msg_resend', now, payload) };
      expect(resend.webhooks.verify({ payload, headers: { id: sent['svix-id'], timestamp: sent['svix-timestamp'], signature: sent['svix-signature'] }, webhookSecret: secret })).to.deep.include({ type: 'invoice.paid' });
      expect(verdictOf('resend', secret, request(sent))).to.equal('verified');
      expect(verdictOf('resend', secret, request(sent), minutesFrom(now, -6))).to.equal('invalid');
    });
  });

  it('stripe (stripe.webhooks.generateTestHeaderString and constructEvent)', function () {
    const stripe = new Stripe('sk_test_not_used_for_network');
    const secret = 'whsec_test_secret_0123456789';
    const header = stripe.webhooks.generateTestHeaderString({ payload, secret });
    expect(stripe.webhooks.constructEvent(payload, header, secret)).to.deep.include({ type: 'invoice.paid' });
    expect(verdictOf('stripe', secret, request({ 'Stripe-Signature': header }))).to.equal('verified');
    expect(verdictOf('stripe', secret, request({ 'Stripe-Signature': header }, tampered))).to.equal('invalid');
    const old = stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect(check('stripe', secret, request({ 'Stripe-Signature': old })).reason).to.contain('tolerance');
    expect(verdictOf('stripe', secret, request({ 'Stripe-Signature': 'garbage' }))).to.equal('invalid');
    expect(verdictOf('stripe', secret, request({}))).to.equal('missing');
  });

  it('github (@octokit/webhooks-methods), and GitHub’s documented test vector', async function () {
    const signature = await githubSign('gh-secret-value', payload);
    expect(await githubVerify('gh-secret-value', payload, signature)).to.equal(true);
    expect(verdictOf('github', 'gh-secret-value', request({ 'X-Hub-Signature-256': signature }))).to.equal('verified');
    expect(verdictOf('github', 'gh-secret-value', request({ 'X-Hub-Signature-256': signature }, tampered))).to.equal('invalid');
    expect(verdictOf('github', 'gh-secret-value', request({ 'X-Hub-Signature-256': 'sha256=zz' }))).to.equal('invalid');
    expect(verdictOf('github', 'gh-secret-value', request({}))).to.equal('missing');
    // docs.github.com, "Testing the webhook payload validation".
    const vector = request({ 'X-Hub-Signature-256': 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17' }, new TextEncoder().encode('Hello, World!'));
    expect(verdictOf('github', "It's a Secret to Everybody", vector)).to.equal('verified');
  });

  it('shopify (@shopify/shopify-api webhooks.validate), with and without the X- prefix', async function () {
    const secret = 'shpss_0123456789abcdef0123456789';
    const shopify = shopifyApi({ apiKey: 'key', apiSecretKey: secret, scopes: [], hostName: 'example.test', apiVersion: ApiVersion.January25, isEmbeddedApp: false, logger: { level: 0, log: async () => {} } });
    const hmac = createHmac('sha256', secret).update(body).digest('base64');
    const headers = {
      'X-Shopify-Hmac-Sha256': hmac, 'X-Shopify-Topic': 'orders/create', 'X-Shopify-Shop-Domain': 'shop.myshopify.com',
      'X-Shopify-API-Version': '2025-01', 'X-Shopify-Webhook-Id': 'b54557e4-bdd9-4b37-8a5f-bf7d70bcd043', 'X-Shopify-Event-Id': '98880550-7158-44d4-b7cd-2c97c8a091b5', 'X-Shopify-Triggered-At': new Date().toISOString(),
    };
    const validation = await shopify.webhooks.validate({ rawBody: payload, rawRequest: new Request('https://example.test/hook', { method: 'POST', headers, body }) });
    expect(validation).to.deep.include({ valid: true, topic: 'ORDERS_CREATE' });
    expect(verdictOf('shopify', secret, request(headers))).to.equal('verified');
    expect(verdictOf('shopify', secret, request({ 'shopify-hmac-sha256': hmac }))).to.equal('verified');
    expect(verdictOf('shopify', secret, request(headers, tampered))).to.equal('invalid');
    const forged = await shopify.webhooks.validate({ rawBody: new TextDecoder().decode(tampered), rawRequest: new Request('https://example.test/hook', { method: 'POST', headers, body: tampered }) });
    expect(forged.valid, 'the library refuses the tampered body too').to.equal(false);
    expect(verdictOf('shopify', secret, request({}))).to.equal('missing');
  });

  it('linear (@linear/sdk LinearWebhookClient): the body’s webhookTimestamp within a minute', function () {
    const secret = 'lin_wh_0123456789abcdef';
    const linear = new LinearWebhookClient(secret);
    const now = Date.now();
    const event = Buffer.from(JSON.stringify({ action: 'create', type: 'Issue', data: { id: 'iss_1', title: 'héllo' }, webhookTimestamp: now }));
    const signature = createHmac('sha256', secret).update(event).digest('hex');
    expect(linear.verify(event, signature)).to.equal(true);
    expect(verdictOf('linear', secret, request({ 'Linear-Signature': signature }, event))).to.equal('verified');
    expect(verdictOf('linear', secret, request({ 'Linear-Signature': signature }, event), new Date(now + 2 * 60_000)), 'two minutes later').to.equal('invalid');
    const unstamped = Buffer.from('{"type":"Issue"}');
    expect(check('linear', secret, request({ 'Linear-Signature': createHmac('sha256', secret).update(unstamped).digest('hex') }, unstamped)).reason).to.contain('webhookTimestamp');
    expect(verdictOf('linear', 'another-secret', request({ 'Linear-Signature': signature }, event))).to.equal('invalid');
    expect(verdictOf('linear', secret, request({}, event))).to.equal('missing');
  });

  it('slack (@slack/bolt isValidSlackRequest), and Slack’s documented example', function () {
    // api.slack.com, "Verifying requests from Slack": the example's secret, timestamp, body and signature.
    const docsSecret = '8f742231b10e8888abcd99yyyzzz85a5';
    const docsBody = 'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
    const docsHeaders = { 'X-Slack-Request-Timestamp': '1531420618', 'X-Slack-Signature': 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503' };
    const then = new Date(1531420618_000);
    expect(isValidSlackRequest({ signingSecret: docsSecret, body: docsBody, headers: { 'x-slack-signature': docsHeaders['X-Slack-Signature'], 'x-slack-request-timestamp': 1531420618 }, nowMilliseconds: then.getTime() })).to.equal(true);
    expect(verdictOf('slack', docsSecret, request(docsHeaders, new TextEncoder().encode(docsBody)), then)).to.equal('verified');
    expect(verdictOf('slack', docsSecret, request(docsHeaders, new TextEncoder().encode(docsBody)), minutesFrom(then, 6)), 'replayed six minutes later').to.equal('invalid');
    // And a fresh one, signed as Slack documents it.
    const now = new Date();
    const signature = `v0=${createHmac('sha256', 'slack-signing-secret').update(`v0:${seconds(now)}:${payload}`).digest('hex')}`;
    expect(isValidSlackRequest({ signingSecret: 'slack-signing-secret', body: payload, headers: { 'x-slack-signature': signature, 'x-slack-request-timestamp': Number(seconds(now)) } })).to.equal(true);
    expect(verdictOf('slack', 'slack-signing-secret', request({ 'x-slack-signature': signature, 'x-slack-request-timestamp': seconds(now) }))).to.equal('verified');
    expect(verdictOf('slack', 'slack-signing-secret', request({ 'x-slack-signature': signature, 'x-slack-request-timestamp': seconds(now) }, tampered))).to.equal('invalid');
    expect(verdictOf('slack', 'slack-signing-secret', request({ 'x-slack-signature': signature }))).to.equal('missing');
  });

  it('twilio (twilio’s getExpectedTwilioSignature and validateRequest), Twilio’s documented example, and JSON bodies by bodySHA256', function () {
    // The example of Twilio's validation docs: auth token 12345, this URL and these parameters.
    const docsUrl = 'https://mycompany.com/myapp.php?foo=1&bar=2';
    const docsParams = { CallSid: 'CA1234567890ABCDE', Caller: '+14158675309', Digits: '1234', From: '+14158675309', To: '+18005551212' };
    const form = new TextEncoder().encode(new URLSearchParams(docsParams).toString());
    expect(twilio.validateRequest('12345', 'RSOYDt4T1cUTdK1PDd93/VVr8B8=', docsUrl, docsParams)).to.equal(true);
    const formRequest = (signature: string, url = docsUrl, bytes = form) => request({ 'Content-Type': 'application/x-www-form-urlencoded', 'X-Twilio-Signature': signature }, bytes, url);
    expect(verdictOf('twilio', '12345', formRequest('RSOYDt4T1cUTdK1PDd93/VVr8B8='))).to.equal('verified');
    expect(verdictOf('twilio', '12345', formRequest('RSOYDt4T1cUTdK1PDd93/VVr8B8=', 'https://mycompany.com:443/myapp.php?foo=1&bar=2')), 'a proxy added the default port').to.equal('verified');
    expect(verdictOf('twilio', '12345', formRequest('RSOYDt4T1cUTdK1PDd93/VVr8B8=', 'https://mycompany.com/myapp.php?foo=1&bar=3'))).to.equal('invalid');
    // Repeated parameters, signed by the library.
    const url = 'https://relay.example.test/hook/hk_abcdefghijkl';
    const repeated = new TextEncoder().encode('Body=hi%20%C3%A9&MediaUrl=b&MediaUrl=a&From=%2B14155550100');
    const signature = getExpectedTwilioSignature('twilio-auth-token', url, { Body: 'hi é', MediaUrl: ['b', 'a'], From: '+14155550100' });
    expect(verdictOf('twilio', 'twilio-auth-token', formRequest(signature, url, repeated))).to.equal('verified');
    expect(verdictOf('twilio', 'twilio-auth-token', formRequest(signature, url, new TextEncoder().encode('Body=hi&MediaUrl=b&MediaUrl=a&From=%2B14155550100')))).to.equal('invalid');
    // A JSON body: the URL carries the body's hash, and the signature covers the URL alone.
    const jsonUrl = `${url}?bodySHA256=${getExpectedBodyHash(payload)}`;
    const jsonSignature = getExpectedTwilioSignature('twilio-auth-token', jsonUrl, {});
    expect(twilio.validateRequestWithBody('twilio-auth-token', jsonSignature, jsonUrl, payload)).to.equal(true);
    const json = (bytes: Uint8Array) => request({ 'Content-Type': 'application/json', 'X-Twilio-Signature': jsonSignature }, bytes, jsonUrl);
    expect(verdictOf('twilio', 'twilio-auth-token', json(body))).to.equal('verified');
    expect(check('twilio', 'twilio-auth-token', json(tampered)).reason).to.contain('bodySHA256');
    expect(check('twilio', 'twilio-auth-token', request({ 'X-Twilio-Signature': signature }, form, null)).reason, 'no address to check').to.contain('not known');
    expect(verdictOf('twilio', 'twilio-auth-token', request({}, form, url))).to.equal('missing');
  });

  it('paddle (@paddle/paddle-node-sdk isSignatureValid): ts and h1, a rotation’s two h1', async function () {
    const secret = 'pdl_ntfset_01hv8x_0123456789abcdef';
    const ts = seconds(new Date());
    const h1 = createHmac('sha256', secret).update(`${ts}:${payload}`).digest('hex');
    const header = `ts=${ts};h1=${h1}`;
    expect(await new Paddle('pdl_sdbx_apikey_not_used').webhooks.isSignatureValid(payload, secret, header)).to.equal(true);
    expect(verdictOf('paddle', secret, request({ 'Paddle-Signature': header }))).to.equal('verified');
    expect(verdictOf('paddle', secret, request({ 'Paddle-Signature': `ts=${ts};h1=${'0'.repeat(64)};h1=${h1}` }))).to.equal('verified');
    expect(verdictOf('paddle', secret, request({ 'Paddle-Signature': header }, tampered))).to.equal('invalid');
    expect(await new Paddle('pdl_sdbx_apikey_not_used').webhooks.isSignatureValid(new TextDecoder().decode(tampered), secret, header)).to.equal(false);
    expect(verdictOf('paddle', secret, request({ 'Paddle-Signature': header }), minutesFrom(new Date(), 6))).to.equal('invalid');
    expect(verdictOf('paddle', secret, request({ 'Paddle-Signature': header }), new Date(Date.now() + 10_000), 5), 'the SDK’s own 5 s, as the webhook’s tolerance').to.equal('invalid');
    expect(verdictOf('paddle', secret, request({}))).to.equal('missing');
  });

  it('square (square’s WebhooksHelper.verifySignature): the notification URL is signed with the body', async function () {
    const key = 'sq0wbs-0123456789abcdef';
    const url = 'https://relay.example.test/hook/hk_abcdefghijkl';
    const signature = createHmac('sha256', key).update(url + payload).digest('base64');
    expect(await WebhooksHelper.verifySignature({ requestBody: payload, signatureHeader: signature, signatureKey: key, notificationUrl: url })).to.equal(true);
    expect(verdictOf('square', key, request({ 'x-square-hmacsha256-signature': signature }, body, url))).to.equal('verified');
    expect(verdictOf('square', key, request({ 'x-square-hmacsha256-signature': signature }, body, `${url}/other`))).to.equal('invalid');
    expect(verdictOf('square', key, request({ 'x-square-hmacsha256-signature': signature }, tampered, url))).to.equal('invalid');
    expect(verdictOf('square', key, request({}, body, url))).to.equal('missing');
  });

  it('discord (discord-interactions verifyKey): Ed25519 with the application’s public key', async function () {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const publicHex = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url').toString('hex');
    const timestamp = seconds(new Date());
    const interaction = '{"type":1,"id":"1234","application_id":"5678"}';
    const signature = signWith(null, Buffer.from(timestamp + interaction), privateKey).toString('hex');
    expect(await verifyKey(interaction, signature, timestamp, publicHex)).to.equal(true);
    const headers = { 'X-Signature-Ed25519': signature, 'X-Signature-Timestamp': timestamp };
    expect(verdictOf('discord', publicHex, request(headers, new TextEncoder().encode(interaction)))).to.equal('verified');
    expect(await verifyKey('{"type":2}', signature, timestamp, publicHex)).to.equal(false);
    expect(verdictOf('discord', publicHex, request(headers, new TextEncoder().encode('{"type":2}')))).to.equal('invalid');
    const other = Buffer.from(generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x!, 'base64url').toString('hex');
    expect(verdictOf('discord', other, request(headers, new TextEncoder().encode(interaction)))).to.equal('invalid');
    expect(verdictOf('discord', publicHex, request(headers, new TextEncoder().encode(interaction)), minutesFrom(new Date(), 10))).to.equal('invalid');
    expect(verdictOf('discord', publicHex, request({ 'X-Signature-Timestamp': timestamp }))).to.equal('missing');
  });

  it('sendgrid (@sendgrid/eventwebhook): ECDSA P-256 with the verification key SendGrid shows', function () {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const verificationKey = publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
    const events = '[{"email":"a@example.test","event":"delivered","sg_event_id":"sg_1","timestamp":1700000000}]';
    const timestamp = seconds(new Date());
    const signature = signWith('sha256', Buffer.from(timestamp + events), privateKey).toString('base64');
    const library = new EventWebhook();
    expect(library.verifySignature(library.convertPublicKeyToECDSA(verificationKey), events, signature, timestamp)).to.equal(true);
    const headers = { 'X-Twilio-Email-Event-Webhook-Signature': signature, 'X-Twilio-Email-Event-Webhook-Timestamp': timestamp };
    expect(verdictOf('sendgrid', verificationKey, request(headers, new TextEncoder().encode(events)))).to.equal('verified');
    const changed = events.replace('delivered', 'bounce');
    expect(library.verifySignature(library.convertPublicKeyToECDSA(verificationKey), changed, signature, timestamp)).to.equal(false);
    expect(verdictOf('sendgrid', verificationKey, request(headers, new TextEncoder().encode(changed)))).to.equal('invalid');
    expect(verdictOf('sendgrid', verificationKey, request({ ...headers, 'X-Twilio-Email-Event-Webhook-Signature': 'bm90IGEgc2lnbmF0dXJl' }, new TextEncoder().encode(events)))).to.equal('invalid');
    expect(verdictOf('sendgrid', verificationKey, request(headers, new TextEncoder().encode(events)), minutesFrom(new Date(), 6))).to.equal('invalid');
    expect(verdictOf('sendgrid', verificationKey, request({}))).to.equal('missing');
  });

  it('hubspot (@hubspot/api-client Signature, v3): method, URL, body and the timestamp in milliseconds', function () {
    const clientSecret = 'hubspot-client-secret-0123';
    const url = 'https://relay.example.test/hook/hk_abcdefghijkl';
    const events = '[{"eventId":1,"subscriptionType":"contact.creation","objectId":123}]';
    const timestamp = Date.now();
    const signature = HubSpotSignature.getSignature('POST', 'v3', { signature: '', clientSecret, requestBody: events, url, timestamp });
    expect(HubSpotSignature.isValid({ signatureVersion: 'v3', signature, clientSecret, requestBody: events, url, timestamp })).to.equal(true);
    const headers = { 'X-HubSpot-Signature-v3': signature, 'X-HubSpot-Request-Timestamp': String(timestamp) };
    expect(verdictOf('hubspot', clientSecret, request(headers, new TextEncoder().encode(events), url))).to.equal('verified');
    expect(verdictOf('hubspot', clientSecret, request(headers, new TextEncoder().encode(events), url, 'PUT'))).to.equal('invalid');
    expect(verdictOf('hubspot', clientSecret, request(headers, tampered, url))).to.equal('invalid');
    expect(verdictOf('hubspot', clientSecret, request(headers, new TextEncoder().encode(events), url), minutesFrom(new Date(), 6))).to.equal('invalid');
    // The docs' form: escapes such as %3A decoded in the URI before signing.
    const escaped = `${url}?redirect=https%3A%2F%2Fapp.example.test`;
    const decodedSignature = HubSpotSignature.getSignature('POST', 'v3', { signature: '', clientSecret, requestBody: events, url: `${url}?redirect=https://app.example.test`, timestamp });
    expect(verdictOf('hubspot', clientSecret, request({ ...headers, 'X-HubSpot-Signature-v3': decodedSignature }, new TextEncoder().encode(events), escaped))).to.equal('verified');
    expect(verdictOf('hubspot', clientSecret, request({}, body, url))).to.equal('missing');
  });

  it('mux (@mux/mux-node webhooks.verifySignature): t and v1 over t.body', async function () {
    const secret = 'mux-webhook-secret-0123456789';
    const t = seconds(new Date());
    const header = `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${payload}`).digest('hex')}`;
    const mux = new Mux({ tokenId: 'not-used', tokenSecret: 'not-used', webhookSecret: secret });
    await mux.webhooks.verifySignature(payload, { 'mux-signature': header }, secret);
    let refused: unknown;
    await mux.webhooks.verifySignature(new TextDecoder().decode(tampered), { 'mux-signature': header }, secret).catch((e: unknown) => (refused = e));
    expect(refused, 'the library refuses the tampered body').to.be.instanceOf(Error);
    expect(verdictOf('mux', secret, request({ 'Mux-Signature': header }))).to.equal('verified');
    expect(verdictOf('mux', secret, request({ 'Mux-Signature': header }, tampered))).to.equal('invalid');
    expect(verdictOf('mux', secret, request({ 'Mux-Signature': header }), minutesFrom(new Date(), 6))).to.equal('invalid');
    expect(verdictOf('mux', secret, request({}))).to.equal('missing');
  });
});
