// PKCE (RFC 7636), S256 only as OAuth 2.1 and the MCP authorization spec require: a challenge is
// BASE64URL(SHA-256(verifier)); plain and missing challenges are refused.
import { createHash, timingSafeEqual } from 'node:crypto';
import { OAuthError } from './oauth-error.js';

/** 43 characters of base64url: a SHA-256. */
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/** The challenge of an authorization request, checked: S256 and well formed. */
export function checkChallenge(challenge: unknown, method: unknown): string {
  if (challenge === undefined || challenge === null || challenge === '') throw new OAuthError('invalid_request', 'code_challenge is required (PKCE with S256)');
  if (method !== 'S256') throw new OAuthError('invalid_request', `code_challenge_method must be S256${method === undefined ? ' (it defaults to plain, which is refused)' : `, not ${JSON.stringify(String(method).slice(0, 20))}`}`);
  if (typeof challenge !== 'string' || !CHALLENGE.test(challenge)) throw new OAuthError('invalid_request', 'code_challenge is not an S256 challenge (43 characters of base64url)');
  return challenge;
}

export const s256 = (verifier: string): string => createHash('sha256').update(verifier, 'ascii').digest('base64url');

/** True when the verifier answers the challenge. */
export function verifierMatches(verifier: unknown, challenge: string): boolean {
  if (typeof verifier !== 'string' || !VERIFIER.test(verifier)) return false;
  const a = Buffer.from(s256(verifier));
  const b = Buffer.from(challenge);
  return a.length === b.length && timingSafeEqual(a, b);
}
