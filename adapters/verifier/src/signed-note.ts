// C2SP signed notes (c2sp.org/signed-note) with Ed25519, and the transparency-log checkpoint they
// carry (c2sp.org/tlog-checkpoint). A note is text ending in a newline, a blank line, then one
// signature line per signer: "— <name> <base64(key id ‖ signature)>". The key id is the first four
// bytes of SHA-256(name ‖ "\n" ‖ 0x01 ‖ public key); 0x01 names the Ed25519 algorithm.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';

const ED25519 = 0x01;
const DASH = '\u2014';
const NAME = /^[^\s+]+$/; // no whitespace, no plus sign

export class NoteError extends Error {
  override name = 'NoteError';
}

export interface NoteSigner {
  name: string;
  keyId: Uint8Array;
  /** The verifier key: name + hex key id + base64(0x01 ‖ public key). */
  verifierKey: string;
  sign(text: string): Uint8Array;
}

export interface NoteVerifier {
  name: string;
  keyId: Uint8Array;
  verify(text: string, signature: Uint8Array): boolean;
}

const keyIdOf = (name: string, publicKey: Uint8Array): Uint8Array =>
  new Uint8Array(createHash('sha256').update(name).update('\n').update(Uint8Array.of(ED25519)).update(publicKey).digest().subarray(0, 4));

// Raw 32-byte Ed25519 keys to node:crypto KeyObjects, through their fixed DER prefixes.
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const publicKeyObject = (raw: Uint8Array): KeyObject => createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
const rawPublicKey = (key: KeyObject): Uint8Array => new Uint8Array(key.export({ format: 'der', type: 'spki' }).subarray(SPKI_PREFIX.length));

/** A new Ed25519 seed (32 bytes, the private key) for a log's signer. */
export function generateSignerSeed(): Uint8Array {
  const { privateKey } = generateKeyPairSync('ed25519');
  return new Uint8Array(privateKey.export({ format: 'der', type: 'pkcs8' }).subarray(PKCS8_PREFIX.length));
}

export function noteSigner(name: string, seed: Uint8Array): NoteSigner {
  if (!NAME.test(name)) throw new NoteError(`signer name ${JSON.stringify(name)} must have no spaces or plus signs`);
  if (seed.length !== 32) throw new NoteError('an Ed25519 seed is 32 bytes');
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const publicKey = rawPublicKey(createPublicKey(privateKey));
  const keyId = keyIdOf(name, publicKey);
  return {
    name,
    keyId,
    verifierKey: `${name}+${Buffer.from(keyId).toString('hex')}+${Buffer.concat([Uint8Array.of(ED25519), publicKey]).toString('base64')}`,
    sign: (text) => new Uint8Array(sign(null, Buffer.from(text, 'utf8'), privateKey)),
  };
}

/** Parses a verifier key "name+keyid+base64(0x01 ‖ key)"; the key id must match the key. */
export function noteVerifier(verifierKey: string): NoteVerifier {
  // name+keyid+key, where the key's base64 may itself hold plus signs.
  const m = /^([^\s+]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/]+=*)$/.exec(verifierKey);
  if (!m) throw new NoteError('malformed verifier key');
  const [, name, idHex, keyB64] = m as unknown as [string, string, string, string];
  const key = Buffer.from(keyB64, 'base64');
  if (key.length !== 33 || key[0] !== ED25519) throw new NoteError('verifier key is not an Ed25519 key');
  const publicKey = new Uint8Array(key.subarray(1));
  const keyId = keyIdOf(name, publicKey);
  if (Buffer.from(keyId).toString('hex') !== idHex) throw new NoteError('verifier key id does not match its key');
  const keyObject = publicKeyObject(publicKey);
  return { name, keyId, verify: (text, signature) => signature.length === 64 && verify(null, Buffer.from(text, 'utf8'), keyObject, signature) };
}

/** The note: text (ending in a newline), a blank line, and a signature line per signer. */
export function signNote(text: string, ...signers: NoteSigner[]): string {
  if (!text.endsWith('\n')) throw new NoteError('note text must end with a newline');
  const lines = signers.map((s) => `${DASH} ${s.name} ${Buffer.concat([s.keyId, s.sign(text)]).toString('base64')}\n`);
  return `${text}\n${lines.join('')}`;
}

export interface OpenedNote {
  text: string;
  /** The names of the known verifiers whose signatures checked. */
  verifiedBy: string[];
}

/**
 * Checks a note against known verifiers. Signature lines of unknown keys are ignored (as the spec
 * says); a known key's bad signature is an error, and at least one known key must have signed.
 */
export function openNote(note: string, verifiers: NoteVerifier[]): OpenedNote {
  const split = note.lastIndexOf('\n\n');
  if (split < 0 || !note.endsWith('\n')) throw new NoteError('malformed note: no signature block');
  const text = note.slice(0, split + 1);
  const verifiedBy: string[] = [];
  for (const line of note.slice(split + 2, -1).split('\n')) {
    const m = new RegExp(`^${DASH} (\\S+) ([A-Za-z0-9+/=]+)$`).exec(line);
    if (!m) throw new NoteError('malformed signature line');
    const raw = Buffer.from(m[2]!, 'base64');
    if (raw.length < 5) throw new NoteError('malformed signature line');
    const known = verifiers.find((v) => v.name === m[1] && Buffer.from(v.keyId).equals(raw.subarray(0, 4)));
    if (!known) continue;
    if (!known.verify(text, new Uint8Array(raw.subarray(4)))) throw new NoteError(`invalid signature by ${known.name}`);
    verifiedBy.push(known.name);
  }
  if (verifiedBy.length === 0) throw new NoteError('no signature by a known key');
  return { text, verifiedBy };
}

export interface Checkpoint {
  origin: string;
  size: number;
  root: Uint8Array;
}

/** The checkpoint body: origin, tree size, base64 root hash, each on its own line. */
export const checkpointText = (c: Checkpoint): string => `${c.origin}\n${c.size}\n${Buffer.from(c.root).toString('base64')}\n`;

export function parseCheckpoint(text: string): Checkpoint {
  const lines = text.split('\n');
  if (lines.length < 4 || lines[lines.length - 1] !== '') throw new NoteError('malformed checkpoint');
  const [origin, size, root] = lines as [string, string, string];
  if (!origin || !/^(0|[1-9][0-9]*)$/.test(size)) throw new NoteError('malformed checkpoint');
  const rootBytes = Buffer.from(root, 'base64');
  if (rootBytes.length !== 32 || rootBytes.toString('base64') !== root) throw new NoteError('malformed checkpoint root');
  return { origin, size: Number(size), root: new Uint8Array(rootBytes) };
}
