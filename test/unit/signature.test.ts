// Signature verification against the vendors' own libraries as senders: standardwebhooks, svix,
// stripe's test-header helper and @octokit/webhooks-methods sign; our pure core verifies. Shopify,
// Linear and generic HMAC are signed with node:crypto the way their docs specify.
import { expect } from 'chai';
import { createHmac, randomBytes } from 'node:crypto';
import { sign as githubSign } from '@octokit/webhooks-methods';
import Stripe from 'stripe';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { verifySignature, type RawHeaders, type SignatureSettings } from '@switchyard/core';

const payload = '{"type":"invoice.paid","data":{"id":"in_1","amount":1299,"note":"héllo"}}';
const body = new TextEncoder().encode(payload);
const tampered = new TextEncoder().encode(payload.replace('1299', '1'));
const settings = (scheme: SignatureSettings['scheme'], secret: string, header: string | null = null): SignatureSettings => ({ scheme, secret, header, require: true });
const entries = (h: Record<string, string>): RawHeaders => Object.entries(h);

describe('core: webhook signatures, signed by the vendors’ libraries', function () {
  const whsecKey = randomBytes(24).toString('base64');

  it('Standard Webhooks (standardwebhooks): verified, tampered, stale, missing', function () {
    const sender = new StandardWebhook(whsecKey);
    const now = new Date();
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': sender.sign('msg_1', now, payload) };
    const s = settings('standard-webhooks', `whsec_${whsecKey}`);
    expect(verifySignature(s, entries(headers), body).verdict).to.equal('verified');
    expect(verifySignature(s, entries(headers), tampered).verdict).to.equal('invalid');
    expect(verifySignature(s, entries(headers), body, new Date(now.getTime() + 10 * 60_000)).verdict, 'replayed 10 min later').to.equal('invalid');
    expect(verifySignature(s, [], body).verdict).to.equal('missing');
    expect(verifySignature(settings('standard-webhooks', `whsec_${randomBytes(24).toString('base64')}`), entries(headers), body).verdict, 'other secret').to.equal('invalid');
  });

  it('Svix (svix): svix-* headers', function () {
    const sender = new SvixWebhook(`whsec_${whsecKey}`);
    const now = new Date();
    const headers = { 'svix-id': 'msg_2', 'svix-timestamp': String(Math.floor(now.getTime() / 1000)), 'svix-signature': sender.sign('msg_2', now, payload) };
    expect(verifySignature(settings('standard-webhooks', `whsec_${whsecKey}`), entries(headers), body).verdict).to.equal('verified');
    expect(verifySignature(settings('standard-webhooks', `whsec_${whsecKey}`), entries(headers), tampered).verdict).to.equal('invalid');
  });

  it('Stripe (stripe.webhooks.generateTestHeaderString)', function () {
    const stripe = new Stripe('sk_test_not_used_for_network');
    const secret = 'whsec_test_secret_0123456789';
    const header = stripe.webhooks.generateTestHeaderString({ payload, secret });
    expect(verifySignature(settings('stripe', secret), entries({ 'Stripe-Signature': header }), body).verdict).to.equal('verified');
    expect(verifySignature(settings('stripe', secret), entries({ 'Stripe-Signature': header }), tampered).verdict).to.equal('invalid');
    const old = stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect(verifySignature(settings('stripe', secret), entries({ 'Stripe-Signature': old }), body).reason).to.contain('tolerance');
    expect(verifySignature(settings('stripe', secret), entries({ 'Stripe-Signature': 'garbage' }), body).verdict).to.equal('invalid');
  });

  it('GitHub (@octokit/webhooks-methods)', async function () {
    const signature = await githubSign('gh-secret-value', payload);
    expect(verifySignature(settings('github', 'gh-secret-value'), entries({ 'X-Hub-Signature-256': signature }), body).verdict).to.equal('verified');
    expect(verifySignature(settings('github', 'gh-secret-value'), entries({ 'X-Hub-Signature-256': signature }), tampered).verdict).to.equal('invalid');
    expect(verifySignature(settings('github', 'gh-secret-value'), entries({ 'X-Hub-Signature-256': 'sha256=zz' }), body).verdict).to.equal('invalid');
  });

  it('Shopify, Linear and generic HMAC-SHA256 (signed as their docs say)', function () {
    const secret = 'shared-secret-1';
    const digest = createHmac('sha256', secret).update(body).digest();
    const b64 = digest.toString('base64');
    const hex = digest.toString('hex');
    expect(verifySignature(settings('shopify', secret), entries({ 'X-Shopify-Hmac-Sha256': b64 }), body).verdict).to.equal('verified');
    expect(verifySignature(settings('linear', secret), entries({ 'Linear-Signature': hex }), body).verdict).to.equal('verified');
    expect(verifySignature(settings('hmac-sha256', secret), entries({ 'X-Signature': `sha256=${hex}` }), body).verdict).to.equal('verified');
    expect(verifySignature(settings('hmac-sha256', secret, 'X-My-Sig'), entries({ 'x-my-sig': b64 }), body).verdict).to.equal('verified');
    expect(verifySignature(settings('linear', secret), entries({ 'Linear-Signature': hex }), tampered).verdict).to.equal('invalid');
    expect(verifySignature(settings('shopify', secret), [], body).verdict).to.equal('missing');
  });
});
