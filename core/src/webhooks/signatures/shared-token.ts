// Senders that present a shared secret rather than sign: GitLab's `X-Gitlab-Token`, and Postmark's
// HTTP basic authentication (the user and password in the webhook URL it was given). Compared in
// constant time; nothing about the body is proven, so prefer a signing sender where there is one.
import { createHash, timingSafeEqual } from 'node:crypto';
import { headerOf, missing, verdict } from './parts.js';
import type { SignatureCheck, SignatureSchemeDefinition, SignedRequest, VerifyContext } from './signature-scheme.js';

/** Equal texts, compared through their hashes so that neither length nor content leaks by timing. */
const sameText = (a: string, b: string): boolean => timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());

function verifyGitlab(request: SignedRequest, context: VerifyContext): SignatureCheck {
  const token = headerOf(request.headers, 'x-gitlab-token');
  if (token === null) return missing('no X-Gitlab-Token header');
  return verdict(sameText(token, context.secret), 'X-Gitlab-Token');
}

function verifyBasic(request: SignedRequest, context: VerifyContext): SignatureCheck {
  const value = headerOf(request.headers, 'authorization');
  if (value === null || !/^basic /i.test(value)) return missing('no Authorization: Basic header');
  return verdict(sameText(Buffer.from(value.slice(6).trim(), 'base64').toString('utf8'), context.secret), 'the basic credentials');
}

export const gitlab: SignatureSchemeDefinition = {
  sender: 'GitLab',
  checks: '`X-Gitlab-Token` equals the secret token (a shared secret, not a signature)',
  window: null,
  secret: { is: 'the webhook’s secret token', problem: () => null },
  verify: verifyGitlab,
  detect: ['x-gitlab-event'],
  eventType: { headers: ['x-gitlab-event'] },
  docs: 'https://docs.gitlab.com/user/project/integrations/webhooks/#validate-payloads-by-using-a-secret-token',
};

export const postmark: SignatureSchemeDefinition = {
  sender: 'Postmark',
  checks: '`Authorization: Basic` equals `user:password` (the credentials in the webhook URL; not a signature)',
  window: null,
  secret: { is: 'user:password, as written in the webhook URL given to Postmark', problem: (s) => (s.includes(':') ? null : 'must be user:password') },
  verify: verifyBasic,
  detect: [],
  eventType: { paths: ['RecordType'] },
  docs: 'https://postmarkapp.com/developer/webhooks/webhooks-overview#protecting-your-webhook',
};
