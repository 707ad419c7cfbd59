// A webhook's signature setting and its check: the scheme's verifier, given the secret, the time
// and the replay window (the webhook's own tolerance, else the sender's).
import type { SignatureCheck, SignedRequest } from './signature-scheme.js';
import { isSignatureScheme, schemeOf, type SignatureScheme } from './schemes.js';

export interface SignatureSettings {
  scheme: SignatureScheme;
  secret: string;
  /** For hmac-sha256: the header carrying the signature (default x-signature). */
  header: string | null;
  /** Refuse deliveries whose signature is not verified. */
  require: boolean;
  /** Seconds a signed timestamp may be from now; null for the sender's own window. */
  tolerance_s: number | null;
}

/** Used for a timestamped scheme that has no window of its own. */
export const DEFAULT_TOLERANCE_SECONDS = 300;
export const MAX_TOLERANCE_SECONDS = 86_400;

export function verifySignature(settings: SignatureSettings, request: SignedRequest, now: Date = new Date()): SignatureCheck {
  const scheme = schemeOf(settings.scheme);
  const tolerance = settings.tolerance_s ?? scheme.window ?? DEFAULT_TOLERANCE_SECONDS;
  return scheme.verify(request, { secret: settings.secret, header: settings.header, now, tolerance });
}

/** What is wrong with a signature setting's scheme and secret (null when nothing is), naming the field. */
export function signatureProblem(scheme: unknown, secret: unknown): { field: string; problem: string } | null {
  if (!isSignatureScheme(scheme)) return { field: 'signature.scheme', problem: 'is not a scheme this service knows' };
  if (typeof secret !== 'string' || secret.length < 8 || secret.length > 500) return { field: 'signature.secret', problem: 'must be a string of 8 to 500 characters' };
  const problem = schemeOf(scheme).secret.problem(secret);
  return problem ? { field: 'signature.secret', problem: `for ${scheme}, ${problem}` } : null;
}
