// Random identifiers (never sequential): prefix + base62 characters from a CSPRNG.
import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function randomId(prefix: string, length: number): string {
  let out = '';
  // Rejection sampling keeps every character equally likely (248 = 4 * 62).
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return prefix + out;
}

export const newInvocationId = (): string => randomId('inv_', 20);
