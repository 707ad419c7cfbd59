// Sealing upstream credentials at rest: AES-256-GCM (node:crypto) under a key ring. The newest key
// seals; every key in the ring opens, so a key is rotated by putting a new one first and keeping
// the old one until every record was written again (each refresh or connect rewrites its record).
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export interface SealingKey {
  /** Names the key inside each sealed record, so opening picks the right one. */
  kid: string;
  /** 32 bytes, base64. */
  secret: string;
}

const VERSION = 'v1';

export class CredentialSealer {
  private readonly keys: Map<string, Buffer>;
  private readonly newest: string;

  /** `keys` newest first; each secret must decode to 32 bytes. */
  constructor(keys: SealingKey[]) {
    if (keys.length === 0) throw new Error('no key to seal upstream credentials with');
    this.keys = new Map();
    for (const { kid, secret } of keys) {
      if (!/^[A-Za-z0-9_-]{1,32}$/.test(kid)) throw new Error(`key id ${JSON.stringify(kid)} must be 1 to 32 letters, digits, _ or -`);
      const bytes = Buffer.from(secret, 'base64');
      if (bytes.length !== 32) throw new Error(`key ${kid} must be 32 bytes in base64 (it is ${bytes.length})`);
      this.keys.set(kid, bytes);
    }
    this.newest = keys[0]!.kid;
  }

  /** `v1.<kid>.<nonce>.<ciphertext>.<tag>`, base64url; `context` (the upstream's name) is bound as associated data. */
  seal(plain: string, context: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.newest)!, nonce);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, this.newest, nonce.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
  }

  /** The plain text, or an error naming why (unknown key, tampered, another upstream's record). */
  open(sealed: string, context: string): string {
    const [version, kid, nonce, body, tag] = sealed.split('.');
    if (version !== VERSION || !kid || nonce === undefined || body === undefined || tag === undefined) throw new Error('not a sealed credentials record');
    const key = this.keys.get(kid);
    if (!key) throw new Error(`sealed with key ${kid}, which is not among the configured keys`);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }

  /** Whether a record is sealed with an older key (and is rewritten with the newest). */
  isStale(sealed: string): boolean {
    return sealed.split('.')[1] !== this.newest;
  }
}
