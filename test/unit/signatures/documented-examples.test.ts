// Inbound signatures of senders with no verifying library on npm, each signed as its own docs'
// example code signs (node:crypto, the same calls), with the docs' values where they publish them:
// verified, tampered, wrong secret, replayed (timestamped schemes), missing.
import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { verifySignature } from '@switchyard/core';
import { body, check, minutesFrom, payload, request, seconds, tampered, verdictOf } from './support.js';

const hex = (algorithm: 'sha1' | 'sha256', secret: string, ...parts: Array<string | Uint8Array>) => parts.reduce((h, p) => h.update(p), createHmac(algorithm, secret)).digest('hex');
const base64 = (algorithm: 'sha1' | 'sha256', secret: string, ...parts: Array<string | Uint8Array>) => parts.reduce((h, p) => h.update(p), createHmac(algorithm, secret)).digest('base64');

describe('inbound signatures, signed as the vendors’ docs show', function () {
  it('zendesk: base64 HMAC of timestamp + body, with the secret Zendesk signs its test webhooks with', function () {
    // developer.zendesk.com "Verifying webhook authenticity": the secret of test requests, and its Express example's HMAC.
    const secret = 'dGhpc19zZWNyZXRfaXNfZm9yX3Rlc3Rpbmdfb25seQ==';
    const timestamp = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    const headers = { 'X-Zendesk-Webhook-Signature': base64('sha256', secret, timestamp + payload), 'X-Zendesk-Webhook-Signature-Timestamp': timestamp };
    expect(verdictOf('zendesk', secret, request(headers))).to.equal('verified');
    expect(verdictOf('zendesk', secret, request(headers, tampered))).to.equal('invalid');
    expect(verdictOf('zendesk', 'another-secret-value', request(headers))).to.equal('invalid');
    expect(check('zendesk', secret, request(headers), minutesFrom(new Date(), 6)).reason).to.contain('tolerance');
    expect(check('zendesk', secret, request({ ...headers, 'X-Zendesk-Webhook-Signature-Timestamp': 'yesterday' })).reason).to.contain('ISO 8601');
    expect(verdictOf('zendesk', secret, request({ 'X-Zendesk-Webhook-Signature': headers['X-Zendesk-Webhook-Signature'] }))).to.equal('missing');
  });

  it('intercom: X-Hub-Signature sha1= hex HMAC of the body with the client secret', function () {
    const headers = { 'X-Hub-Signature': `sha1=${hex('sha1', 'intercom-client-secret', body)}` };
    expect(verdictOf('intercom', 'intercom-client-secret', request(headers))).to.equal('verified');
    expect(verdictOf('intercom', 'intercom-client-secret', request(headers, tampered))).to.equal('invalid');
    expect(verdictOf('intercom', 'intercom-client-secret', request({ 'X-Hub-Signature': `sha256=${hex('sha256', 'intercom-client-secret', body)}` }))).to.equal('invalid');
    expect(verdictOf('intercom', 'intercom-client-secret', request({}))).to.equal('missing');
  });

  it('pagerduty: X-PagerDuty-Signature v1= hex, any of several during a secret rotation', function () {
    const secret = 'pagerduty-webhook-secret';
    const mine = `v1=${hex('sha256', secret, body)}`;
    expect(verdictOf('pagerduty', secret, request({ 'X-PagerDuty-Signature': mine }))).to.equal('verified');
    expect(verdictOf('pagerduty', secret, request({ 'X-PagerDuty-Signature': `v1=${hex('sha256', 'the-old-secret', body)},${mine}` }))).to.equal('verified');
    expect(verdictOf('pagerduty', secret, request({ 'X-PagerDuty-Signature': mine }, tampered))).to.equal('invalid');
    expect(verdictOf('pagerduty', secret, request({ 'X-PagerDuty-Signature': hex('sha256', secret, body) })), 'without v1=').to.equal('invalid');
    expect(verdictOf('pagerduty', secret, request({}))).to.equal('missing');
  });

  it('mailgun: the body’s signature, hex HMAC of timestamp + token with the signing key, in JSON or a form post', function () {
    const signingKey = 'key-mailgun-webhook-signing-0123';
    const timestamp = seconds(new Date());
    const token = 'e0b5477167110d68991efc6b9f89f0a11066af27834600e123';
    // documentation.mailgun.com "Securing Webhooks": createHmac('sha256', signingKey).update(timestamp.concat(token)).digest('hex')
    const signature = createHmac('sha256', signingKey).update(timestamp.concat(token)).digest('hex');
    const json = new TextEncoder().encode(JSON.stringify({ signature: { timestamp, token, signature }, 'event-data': { event: 'delivered', id: 'mg_1' } }));
    expect(verdictOf('mailgun', signingKey, request({ 'Content-Type': 'application/json' }, json))).to.equal('verified');
    const form = new TextEncoder().encode(new URLSearchParams({ timestamp, token, signature, event: 'opened' }).toString());
    expect(verdictOf('mailgun', signingKey, request({ 'Content-Type': 'application/x-www-form-urlencoded' }, form))).to.equal('verified');
    const forged = new TextEncoder().encode(JSON.stringify({ signature: { timestamp, token: token.replace('e0', 'f0'), signature }, 'event-data': { event: 'delivered' } }));
    expect(verdictOf('mailgun', signingKey, request({ 'Content-Type': 'application/json' }, forged))).to.equal('invalid');
    expect(verdictOf('mailgun', signingKey, request({ 'Content-Type': 'application/json' }, json), minutesFrom(new Date(), 20))).to.equal('invalid');
    expect(verdictOf('mailgun', signingKey, request({ 'Content-Type': 'application/json' }, body))).to.equal('missing');
  });

  it('typeform: Typeform-Signature sha256= base64 HMAC of the body', function () {
    const headers = { 'Typeform-Signature': `sha256=${base64('sha256', 'typeform-secret', body)}` };
    expect(verdictOf('typeform', 'typeform-secret', request(headers))).to.equal('verified');
    expect(verdictOf('typeform', 'typeform-secret', request(headers, tampered))).to.equal('invalid');
    expect(verdictOf('typeform', 'typeform-secret', request({ 'Typeform-Signature': base64('sha256', 'typeform-secret', body) }))).to.equal('invalid');
    expect(verdictOf('typeform', 'typeform-secret', request({}))).to.equal('missing');
  });

  it('calendly: t= and v1= over t.body, within three minutes', function () {
    const t = seconds(new Date());
    const headers = { 'Calendly-Webhook-Signature': `t=${t},v1=${hex('sha256', 'calendly-signing-key', `${t}.${payload}`)}` };
    expect(verdictOf('calendly', 'calendly-signing-key', request(headers))).to.equal('verified');
    expect(verdictOf('calendly', 'calendly-signing-key', request(headers, tampered))).to.equal('invalid');
    expect(check('calendly', 'calendly-signing-key', request(headers), minutesFrom(new Date(), 4)).reason).to.contain('tolerance 180 s');
    expect(verdictOf('calendly', 'calendly-signing-key', request({}))).to.equal('missing');
  });

  it('vercel, sentry, checkout, coinbase, woocommerce and bitbucket: an HMAC of the body in their own header and encoding', function () {
    const cases = [
      ['vercel', { 'x-vercel-signature': hex('sha1', 'shared-secret-1', body) }],
      ['sentry', { 'Sentry-Hook-Signature': hex('sha256', 'shared-secret-1', body) }],
      ['checkout', { 'Cko-Signature': hex('sha256', 'shared-secret-1', body) }],
      ['coinbase', { 'X-CC-Webhook-Signature': hex('sha256', 'shared-secret-1', body) }],
      ['woocommerce', { 'X-WC-Webhook-Signature': base64('sha256', 'shared-secret-1', body) }],
      ['bitbucket', { 'X-Hub-Signature': `sha256=${hex('sha256', 'shared-secret-1', body)}` }],
    ] as const;
    for (const [scheme, headers] of cases) {
      expect(verdictOf(scheme, 'shared-secret-1', request(headers)), scheme).to.equal('verified');
      expect(verdictOf(scheme, 'shared-secret-1', request(headers, tampered)), `${scheme} tampered`).to.equal('invalid');
      expect(verdictOf(scheme, 'shared-secret-2', request(headers)), `${scheme} other secret`).to.equal('invalid');
      expect(verdictOf(scheme, 'shared-secret-1', request({})), `${scheme} missing`).to.equal('missing');
    }
  });

  it('twitch: sha256= over message id + timestamp + body, RFC 3339 times to the nanosecond, within ten minutes', function () {
    const secret = 'twitch-eventsub-secret';
    const id = 'e76c6bd4-55c9-4987-8304-da1588d8988b';
    const timestamp = new Date().toISOString().replace('Z', '123456Z');
    const headers = { 'Twitch-Eventsub-Message-Id': id, 'Twitch-Eventsub-Message-Timestamp': timestamp, 'Twitch-Eventsub-Message-Signature': `sha256=${hex('sha256', secret, id + timestamp + payload)}` };
    expect(verdictOf('twitch', secret, request(headers))).to.equal('verified');
    expect(verdictOf('twitch', secret, request(headers), minutesFrom(new Date(), 9))).to.equal('verified');
    expect(verdictOf('twitch', secret, request(headers), minutesFrom(new Date(), 11))).to.equal('invalid');
    expect(verdictOf('twitch', secret, request({ ...headers, 'Twitch-Eventsub-Message-Id': 'another-id' }))).to.equal('invalid');
    expect(verdictOf('twitch', secret, request(headers, tampered))).to.equal('invalid');
    expect(verdictOf('twitch', secret, request({ 'Twitch-Eventsub-Message-Signature': headers['Twitch-Eventsub-Message-Signature'] }))).to.equal('missing');
  });

  it('zoom: v0= over v0:timestamp:body with the secret token', function () {
    const ts = seconds(new Date());
    const headers = { 'x-zm-signature': `v0=${hex('sha256', 'zoom-secret-token', `v0:${ts}:${payload}`)}`, 'x-zm-request-timestamp': ts };
    expect(verdictOf('zoom', 'zoom-secret-token', request(headers))).to.equal('verified');
    expect(verdictOf('zoom', 'zoom-secret-token', request(headers, tampered))).to.equal('invalid');
    expect(verdictOf('zoom', 'zoom-secret-token', request(headers), minutesFrom(new Date(), -6))).to.equal('invalid');
    expect(verdictOf('zoom', 'zoom-secret-token', request({ 'x-zm-signature': headers['x-zm-signature'] }))).to.equal('missing');
  });

  it('gitlab and postmark present a shared secret: compared in constant time, never taken for a signature of the body', function () {
    expect(verdictOf('gitlab', 'gitlab-secret-token', request({ 'X-Gitlab-Token': 'gitlab-secret-token' }))).to.equal('verified');
    expect(verdictOf('gitlab', 'gitlab-secret-token', request({ 'X-Gitlab-Token': 'gitlab-secret-tokeN' }))).to.equal('invalid');
    expect(verdictOf('gitlab', 'gitlab-secret-token', request({}))).to.equal('missing');
    // Postmark: https://user:password@… in its webhook URL becomes a basic Authorization header.
    const basic = `Basic ${Buffer.from('postmark:hunter2-but-longer').toString('base64')}`;
    expect(verdictOf('postmark', 'postmark:hunter2-but-longer', request({ Authorization: basic }))).to.equal('verified');
    expect(verdictOf('postmark', 'postmark:another-password', request({ Authorization: basic }))).to.equal('invalid');
    expect(verdictOf('postmark', 'postmark:hunter2-but-longer', request({ Authorization: 'Bearer x' }))).to.equal('missing');
  });

  it('hmac-sha256 (generic): hex, sha256=<hex> or base64 in the header the webhook names', function () {
    const digest = createHmac('sha256', 'shared-secret-1').update(body).digest();
    const generic = (header: string | null, headers: Record<string, string>, bytes = body) =>
      verifySignature({ scheme: 'hmac-sha256', secret: 'shared-secret-1', header, require: true, tolerance_s: null }, request(headers, bytes)).verdict;
    expect(generic(null, { 'X-Signature': digest.toString('hex') })).to.equal('verified');
    expect(generic(null, { 'X-Signature': `sha256=${digest.toString('hex')}` })).to.equal('verified');
    expect(generic('X-My-Sig', { 'x-my-sig': digest.toString('base64') })).to.equal('verified');
    expect(generic(null, { 'X-Signature': digest.toString('hex') }, tampered)).to.equal('invalid');
    expect(generic('X-My-Sig', { 'X-Signature': digest.toString('hex') })).to.equal('missing');
  });
});
