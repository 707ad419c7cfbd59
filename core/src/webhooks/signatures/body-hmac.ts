// Senders whose one header is an HMAC of the raw body and nothing else (no time is signed):
// Shopify, Typeform, Vercel, Sentry, Checkout.com, Coinbase Commerce, WooCommerce, PagerDuty, and
// the generic hmac-sha256 for any sender that signs this way under a header of your choice.
import { SHARED_SECRET, anyMatches, headerOf, hmac, invalid, keyValues, missing, verdict } from './parts.js';
import type { EventTypeRule, SignatureSchemeDefinition, SignedRequest, SignatureCheck, VerifyContext } from './signature-scheme.js';

interface BodyHmac {
  sender: string;
  /** Where the signature is; the first of these present is read. */
  headers: readonly string[];
  display: string;
  algorithm: 'sha1' | 'sha256';
  encoding: 'hex' | 'base64';
  /** Text before the signature (`sha256=`), when the sender writes one. */
  prefix?: string;
  /** The signatures in one header value, for senders that list several (PagerDuty during a rotation). */
  split?(value: string): string[];
  detect?: readonly string[];
  eventType: EventTypeRule | null;
  docs: string;
  secretIs?: string;
}

function bodyHmac(s: BodyHmac): SignatureSchemeDefinition {
  const verify = (request: SignedRequest, context: VerifyContext): SignatureCheck => {
    let value: string | null = null;
    for (const name of s.headers) if ((value = headerOf(request.headers, name)) !== null) break;
    if (value === null) return missing(`no ${s.display} header`);
    if (s.prefix && !value.startsWith(s.prefix)) return invalid(`${s.display} does not start with ${s.prefix}`);
    const given = s.split ? s.split(value) : [value.slice(s.prefix?.length ?? 0)];
    return verdict(anyMatches(given, s.encoding, hmac(s.algorithm, context.secret, request.body)), s.display);
  };
  const algorithm = s.algorithm === 'sha1' ? 'HMAC-SHA1' : 'HMAC-SHA256';
  return {
    sender: s.sender,
    checks: `\`${s.display}: ${s.prefix ?? ''}<${s.encoding}>\`: ${algorithm} of the body`,
    window: null,
    secret: s.secretIs ? { is: s.secretIs, problem: () => null } : SHARED_SECRET,
    verify,
    detect: s.detect ?? [s.headers[0]!],
    eventType: s.eventType,
    docs: s.docs,
  };
}

export const shopify = bodyHmac({
  sender: 'Shopify',
  // Shopify's newer event subscriptions send the same headers without the X- prefix.
  headers: ['x-shopify-hmac-sha256', 'shopify-hmac-sha256'],
  display: 'X-Shopify-Hmac-Sha256',
  algorithm: 'sha256',
  encoding: 'base64',
  detect: ['x-shopify-topic', 'shopify-topic'],
  eventType: { headers: ['x-shopify-topic', 'shopify-topic'] },
  docs: 'https://shopify.dev/docs/apps/build/webhooks/subscribe/https#step-5-verify-the-webhook',
  secretIs: 'the app’s client secret',
});

export const typeform = bodyHmac({
  sender: 'Typeform',
  headers: ['typeform-signature'],
  display: 'Typeform-Signature',
  algorithm: 'sha256',
  encoding: 'base64',
  prefix: 'sha256=',
  eventType: { paths: ['event_type'] },
  docs: 'https://www.typeform.com/developers/webhooks/secure-your-webhooks/',
});

export const vercel = bodyHmac({
  sender: 'Vercel',
  headers: ['x-vercel-signature'],
  display: 'x-vercel-signature',
  algorithm: 'sha1',
  encoding: 'hex',
  eventType: { paths: ['type'] },
  docs: 'https://vercel.com/docs/webhooks/webhooks-api#securing-webhooks',
});

export const sentry = bodyHmac({
  sender: 'Sentry',
  headers: ['sentry-hook-signature'],
  display: 'Sentry-Hook-Signature',
  algorithm: 'sha256',
  encoding: 'hex',
  eventType: { headers: ['sentry-hook-resource'] },
  docs: 'https://docs.sentry.io/organization/integrations/integration-platform/webhooks/#verifying-the-signature',
  secretIs: 'the integration’s client secret',
});

export const checkout = bodyHmac({
  sender: 'Checkout.com',
  headers: ['cko-signature'],
  display: 'Cko-Signature',
  algorithm: 'sha256',
  encoding: 'hex',
  eventType: { paths: ['type'] },
  docs: 'https://www.checkout.com/docs/developer-resources/webhooks/manage-webhooks/verify-webhooks',
});

export const coinbase = bodyHmac({
  sender: 'Coinbase Commerce',
  headers: ['x-cc-webhook-signature'],
  display: 'X-CC-Webhook-Signature',
  algorithm: 'sha256',
  encoding: 'hex',
  eventType: { paths: ['event.type'] },
  docs: 'https://docs.cdp.coinbase.com/commerce-onchain/docs/webhooks-security',
});

export const woocommerce = bodyHmac({
  sender: 'WooCommerce',
  headers: ['x-wc-webhook-signature'],
  display: 'X-WC-Webhook-Signature',
  algorithm: 'sha256',
  encoding: 'base64',
  detect: ['x-wc-webhook-topic'],
  eventType: { headers: ['x-wc-webhook-topic'] },
  docs: 'https://woocommerce.github.io/woocommerce-rest-api-docs/#webhooks',
});

export const pagerduty: SignatureSchemeDefinition = {
  ...bodyHmac({
  sender: 'PagerDuty (v3 webhooks)',
  headers: ['x-pagerduty-signature'],
  display: 'X-PagerDuty-Signature',
  algorithm: 'sha256',
  encoding: 'hex',
  // `v1=<hex>,v1=<hex>`: one signature per active secret; any one matching will do.
  split: (value) => keyValues(value, ',').filter(([k]) => k === 'v1').map(([, v]) => v),
  eventType: { paths: ['event.event_type'] },
  docs: 'https://developer.pagerduty.com/docs/webhooks-overview#webhook-signatures',
  }),
  checks: '`X-PagerDuty-Signature: v1=<hex>[,v1=…]`: HMAC-SHA256 of the body (one per active secret; any may match)',
};

/** The generic scheme: any sender that puts an HMAC-SHA256 of the body in a header you name. */
export const genericHmacSha256: SignatureSchemeDefinition = (() => {
  const verify = (request: SignedRequest, context: VerifyContext): SignatureCheck => {
    const name = (context.header ?? 'x-signature').toLowerCase();
    const value = headerOf(request.headers, name)?.trim();
    if (!value) return missing(`no ${name} header`);
    const expected = hmac('sha256', context.secret, request.body);
    const hexText = value.startsWith('sha256=') ? value.slice('sha256='.length) : value;
    return verdict(anyMatches([hexText], 'hex', expected) || anyMatches([value], 'base64', expected), name);
  };
  return {
    sender: 'any sender (generic)',
    checks: '`header` (default `X-Signature`): HMAC-SHA256 of the body as hex, `sha256=<hex>` or base64',
    window: null,
    secret: SHARED_SECRET,
    verify,
    detect: [],
    eventType: null,
    docs: 'https://www.rfc-editor.org/rfc/rfc2104',
  };
})();
