// Random identifiers (never sequential): prefix + base62 characters from a CSPRNG.
import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

// Random bytes are drawn from the CSPRNG in blocks: one system call serves many ids.
const POOL_SIZE = 4096;
let pool = randomBytes(POOL_SIZE);
let offset = 0;

const nextByte = (): number => {
  if (offset >= POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    offset = 0;
  }
  return pool[offset++]!;
};

export function randomId(prefix: string, length: number): string {
  let out = prefix;
  // Rejection sampling keeps every character equally likely (248 = 4 * 62).
  while (out.length < prefix.length + length) {
    const byte = nextByte();
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

export const newInvocationId = (): string => randomId('inv_', 20);
