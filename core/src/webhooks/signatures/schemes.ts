// The table of inbound signature schemes: the name a webhook's `signature.scheme` gives, and the
// sender's definition (what is checked, the replay window, the secret, where it names event types).
// One file per scheme or family beside this one; add a sender there and name it here.
import { bitbucket, github, intercom } from './github.js';
import { checkout, coinbase, genericHmacSha256, pagerduty, sentry, shopify, typeform, vercel, woocommerce } from './body-hmac.js';
import { discord } from './discord.js';
import { hubspot } from './hubspot.js';
import { linear } from './linear.js';
import { mailgun } from './mailgun.js';
import { paddle } from './paddle.js';
import { sendgrid } from './sendgrid.js';
import { gitlab, postmark } from './shared-token.js';
import { slack, zoom } from './slack.js';
import { square } from './square.js';
import { clerk, resend, standardWebhooks, svix } from './standard-webhooks.js';
import { calendly, mux, stripe } from './stripe.js';
import { twilio } from './twilio.js';
import { twitch } from './twitch.js';
import { zendesk } from './zendesk.js';
import type { SignatureSchemeDefinition } from './signature-scheme.js';

export const SCHEMES = {
  'standard-webhooks': standardWebhooks,
  svix,
  clerk,
  resend,
  stripe,
  github,
  shopify,
  linear,
  slack,
  twilio,
  discord,
  paddle,
  square,
  zendesk,
  intercom,
  pagerduty,
  mailgun,
  sendgrid,
  typeform,
  hubspot,
  mux,
  calendly,
  vercel,
  sentry,
  checkout,
  coinbase,
  bitbucket,
  gitlab,
  twitch,
  zoom,
  woocommerce,
  postmark,
  'hmac-sha256': genericHmacSha256,
} as const satisfies Record<string, SignatureSchemeDefinition>;

export type SignatureScheme = keyof typeof SCHEMES;
export const SIGNATURE_SCHEMES = Object.keys(SCHEMES) as readonly SignatureScheme[];

export const isSignatureScheme = (name: unknown): name is SignatureScheme => typeof name === 'string' && Object.hasOwn(SCHEMES, name);

export const schemeOf = (name: SignatureScheme): SignatureSchemeDefinition => SCHEMES[name];
