// Twilio: `X-Twilio-Signature`, a base64 HMAC-SHA1 keyed by the account's auth token over the URL
// Twilio posted to followed by each form parameter (sorted by name, name then value). A JSON body
// is signed through its hash instead: the URL carries `bodySHA256=<hex SHA-256 of the body>`.
import { createHash, timingSafeEqual } from 'node:crypto';
import { anyMatches, bodyText, headerOf, hmac, invalid, missing, verdict } from './parts.js';
import type { SignatureCheck, SignatureSchemeDefinition, SignedRequest, VerifyContext } from './signature-scheme.js';

/** The URL with and without its default port, as Twilio's own validator tries it (proxies add or drop it). */
function urlForms(url: string): string[] {
  const m = /^(https?):\/\/([^/?#]*)(.*)$/i.exec(url);
  if (!m) return [url];
  const [, scheme, authority, rest] = m as unknown as [string, string, string, string];
  const portAt = authority.indexOf(':', authority.lastIndexOf(']') + 1);
  const host = portAt < 0 ? authority : authority.slice(0, portAt);
  const withPort = `${scheme}://${host}:${portAt < 0 ? (scheme.toLowerCase() === 'https' ? '443' : '80') : authority.slice(portAt + 1)}${rest}`;
  return [...new Set([url, `${scheme}://${host}${rest}`, withPort])];
}

/** Form parameters in Twilio's order: names sorted, a repeated name's distinct values sorted. */
function signedParameters(body: Uint8Array): string {
  const values = new Map<string, Set<string>>();
  for (const [name, value] of new URLSearchParams(bodyText(body))) {
    if (!values.has(name)) values.set(name, new Set());
    values.get(name)!.add(value);
  }
  let out = '';
  for (const name of [...values.keys()].sort()) for (const value of [...values.get(name)!].sort()) out += name + value;
  return out;
}

function verifyTwilio(request: SignedRequest, context: VerifyContext): SignatureCheck {
  const value = headerOf(request.headers, 'x-twilio-signature');
  if (!value) return missing('no X-Twilio-Signature header');
  if (!request.url) return invalid('the address the delivery was sent to is not known, and Twilio signs it');
  let bodyHash: string | null = null;
  try {
    bodyHash = new URL(request.url).searchParams.get('bodySHA256');
  } catch {
    return invalid(`the address ${request.url} is not a URL`);
  }
  let params = '';
  if (bodyHash !== null) {
    const actual = Buffer.from(createHash('sha256').update(request.body).digest('hex'));
    const given = Buffer.from(bodyHash.toLowerCase());
    if (given.length !== actual.length || !timingSafeEqual(given, actual)) return invalid('bodySHA256 is not the SHA-256 of the body');
  } else if ((headerOf(request.headers, 'content-type') ?? '').toLowerCase().includes('application/x-www-form-urlencoded')) {
    params = signedParameters(request.body);
  }
  const ok = urlForms(request.url).some((url) => anyMatches([value], 'base64', hmac('sha1', context.secret, url, params)));
  return verdict(ok, 'X-Twilio-Signature');
}

export const twilio: SignatureSchemeDefinition = {
  sender: 'Twilio',
  checks: '`X-Twilio-Signature`: base64 HMAC-SHA1 of the URL and the sorted form parameters (JSON bodies: of the URL with `bodySHA256`, and the body’s hash)',
  window: null,
  secret: { is: 'the account’s auth token', problem: () => null },
  verify: verifyTwilio,
  detect: [],
  // Messaging and voice callbacks name no event type: give the webhook an event_type_path (e.g. MessageStatus).
  eventType: null,
  docs: 'https://www.twilio.com/docs/usage/webhooks/webhooks-security',
};
