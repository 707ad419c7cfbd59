// The scheme table's own rules: what each definition must say, secrets checked per scheme, the
// webhook's tolerance over the sender's window, and no input that makes a check throw or pass.
import { expect } from 'chai';
import { createHmac, randomBytes } from 'node:crypto';
import { SCHEMES, SIGNATURE_SCHEMES, signatureProblem, verifySignature, type SignatureScheme, type SignedRequest } from '../../src/index.js';

const REQUIRED: SignatureScheme[] = [
  'slack', 'twilio', 'linear', 'paddle', 'square', 'zendesk', 'intercom', 'discord', 'pagerduty', 'mailgun', 'sendgrid', 'typeform', 'shopify', 'github', 'stripe', 'svix', 'standard-webhooks',
];

describe('core: the inbound signature schemes', () => {
  it('has at least 20 schemes, every one the issue names among them', () => {
    expect(SIGNATURE_SCHEMES.length).to.be.at.least(20);
    expect(SIGNATURE_SCHEMES).to.include.members(REQUIRED);
  });

  it('says for each scheme who signs, what is checked, its window, its secret, its docs and where its sender names event types', () => {
    for (const name of SIGNATURE_SCHEMES) {
      const s = SCHEMES[name];
      expect(s.sender, name).to.be.a('string').and.not.equal('');
      expect(s.checks, name).to.be.a('string').and.not.equal('');
      expect(s.docs, name).to.match(/^https:\/\//);
      expect(s.secret.is, name).to.be.a('string').and.not.equal('');
      if (s.window !== null) expect(s.window, name).to.be.within(1, 86_400);
      for (const header of [...s.detect, ...(s.eventType?.headers ?? [])]) expect(header, name).to.equal(header.toLowerCase());
    }
  });

  it('checks a secret the way its scheme needs it, naming the field', () => {
    expect(signatureProblem('nope', 'long-enough-secret')).to.deep.include({ field: 'signature.scheme' });
    expect(signatureProblem('github', 'short')).to.deep.include({ field: 'signature.secret' });
    expect(signatureProblem('github', 'x'.repeat(501))).to.deep.include({ field: 'signature.secret' });
    expect(signatureProblem('github', 'long-enough-secret')).to.equal(null);
    expect(signatureProblem('discord', 'a'.repeat(63))!.problem).to.contain('64 hex');
    expect(signatureProblem('discord', 'ab'.repeat(32))).to.equal(null);
    expect(signatureProblem('sendgrid', 'bm90IGEga2V5IGF0IGFsbA==')!.problem).to.contain('P-256');
    expect(signatureProblem('standard-webhooks', 'whsec_not*base64!')!.problem).to.contain('base64');
    expect(signatureProblem('standard-webhooks', `whsec_${randomBytes(24).toString('base64')}`)).to.equal(null);
    expect(signatureProblem('postmark', 'no-colon-here')!.problem).to.contain('user:password');
    expect(signatureProblem('twitch', 'x'.repeat(101))!.problem).to.contain('10 to 100');
    expect(signatureProblem('__proto__', 'long-enough-secret'), 'only the table’s own names').to.deep.include({ field: 'signature.scheme' });
  });

  it('holds a timestamped scheme to the webhook’s tolerance when it has one, else to the sender’s window', () => {
    const t = Math.floor(Date.now() / 1000) - 600;
    const body = new TextEncoder().encode('{"type":"invoice.paid"}');
    const req: SignedRequest = { method: 'POST', url: null, headers: [['Stripe-Signature', `t=${t},v1=${createHmac('sha256', 'whsec_x_secret').update(`${t}.`).update(body).digest('hex')}`]], body };
    const settings = { scheme: 'stripe' as const, secret: 'whsec_x_secret', header: null, require: true };
    expect(verifySignature({ ...settings, tolerance_s: null }, req).verdict, 'ten minutes old, Stripe’s five').to.equal('invalid');
    expect(verifySignature({ ...settings, tolerance_s: 900 }, req).verdict, 'within the webhook’s fifteen').to.equal('verified');
    expect(verifySignature({ ...settings, tolerance_s: 60 }, req).reason).to.contain('tolerance 60 s');
  });

  it('never throws and never verifies on malformed headers and bodies, whatever the scheme', () => {
    const names = new Set<string>(['content-type', 'authorization', 'webhook-id', 'webhook-timestamp', 'svix-id', 'svix-timestamp', 'x-hub-signature-256', 'x-hub-signature', 'x-twilio-signature',
      'x-slack-request-timestamp', 'x-zm-request-timestamp', 'x-zendesk-webhook-signature-timestamp', 'x-signature-timestamp', 'x-twilio-email-event-webhook-timestamp', 'x-hubspot-request-timestamp',
      'twitch-eventsub-message-id', 'twitch-eventsub-message-timestamp', 'x-signature', 'x-gitlab-token']);
    for (const s of Object.values(SCHEMES)) for (const h of [...s.detect]) names.add(h);
    for (const h of ['webhook-signature', 'svix-signature', 'stripe-signature', 'paddle-signature', 'x-slack-signature', 'x-zm-signature', 'x-zendesk-webhook-signature', 'x-signature-ed25519',
      'x-twilio-email-event-webhook-signature', 'x-hubspot-signature-v3', 'twitch-eventsub-message-signature', 'linear-signature', 'x-shopify-hmac-sha256', 'typeform-signature', 'x-vercel-signature',
      'sentry-hook-signature', 'cko-signature', 'x-cc-webhook-signature', 'x-wc-webhook-signature', 'x-pagerduty-signature', 'mux-signature', 'calendly-webhook-signature', 'x-square-hmacsha256-signature']) names.add(h);
    const garbage = ['', ' ', '=', ',', ';', 'v1=', 't=,v1=', 't=abc,v1=zz', 'ts=1;h1=', 'sha256=', 'sha1=', 'v0=', '1e309', '-1', 'Basic', 'Basic !!!', 'v1,', '\u00e9\u00e9', 'x'.repeat(4096), '9'.repeat(40), 'application/x-www-form-urlencoded'];
    const bodies = [new Uint8Array(), new TextEncoder().encode('{"signature":{"timestamp":"1","token":"t","signature":"zz"},"webhookTimestamp":"soon"}'), new Uint8Array([0xff, 0xfe, 0x00]), new TextEncoder().encode('[1,2')];
    const secrets: Record<string, string> = { discord: 'ab'.repeat(32), sendgrid: 'MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE' };
    for (const scheme of SIGNATURE_SCHEMES) {
      for (const value of garbage) {
        for (const body of bodies) {
          const headers = [...names].map((n) => [n, value] as const);
          for (const url of [null, 'https://example.test/hook/hk_x?bodySHA256=zz', 'not a url']) {
            const check = verifySignature({ scheme, secret: secrets[scheme] ?? 'a-secret-value', header: null, require: true, tolerance_s: null }, { method: 'POST', url, headers, body });
            expect(check.verdict, `${scheme} with ${JSON.stringify(value.slice(0, 20))}`).to.not.equal('verified');
            expect(check.reason).to.be.a('string');
          }
        }
      }
    }
  });
});
