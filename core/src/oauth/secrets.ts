// Random secrets of the authorization server (codes, refresh tokens, client secrets, ids) and the
// one hash they are stored under.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const newSecret = (prefix: string): string => `${prefix}${randomBytes(32).toString('base64url')}`;
export const newId = (prefix: string): string => `${prefix}${randomBytes(16).toString('base64url')}`;
export const hashSecret = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

/** Constant-time: does `secret` hash to `hash`? */
export function secretMatches(secret: string, hash: string): boolean {
  const a = Buffer.from(hashSecret(secret), 'hex');
  const b = Buffer.from(hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
