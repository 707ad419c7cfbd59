// Witness cosignatures (c2sp.org/tlog-cosignature, the Ed25519 cosignature/v1 type): a witness
// states that, as of a time, the checkpoint is the largest consistent tree it has seen of the log.
// A cosignature is a note signature line on the checkpoint whose key id takes the algorithm byte
// 0x04 and whose signature is a big-endian u64 timestamp followed by an Ed25519 signature over
// "cosignature/v1\n" "time <t>\n" and the checkpoint's text. A k-of-n policy counts the distinct
// trusted witnesses whose cosignatures verify.
import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { NoteError, noteVerifier, openNote } from './signed-note.js';

const COSIGNATURE_V1 = 0x04;
const DASH = '\u2014';
const NAME = /^[^\s+]+$/;
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

const keyIdOf = (name: string, publicKey: Uint8Array): Buffer =>
  createHash('sha256').update(name).update('\n').update(Uint8Array.of(COSIGNATURE_V1)).update(publicKey).digest().subarray(0, 4);

/** The message a cosignature/v1 signs: header, time line, then the checkpoint text. */
export const cosignedMessage = (checkpointText: string, timestamp: number): string => `cosignature/v1\ntime ${timestamp}\n${checkpointText}`;

export interface Cosigner {
  name: string;
  /** The witness's verifier key: name + hex key id + base64(0x04 ‖ public key). */
  verifierKey: string;
  /** The signature line (with its newline) over a checkpoint's text at `timestamp` (seconds). */
  cosign(checkpointText: string, timestamp: number): string;
}

/** A cosigner from a 32-byte Ed25519 seed (what a witness holds). */
export function cosigner(name: string, seed: Uint8Array): Cosigner {
  if (!NAME.test(name)) throw new NoteError(`cosigner name ${JSON.stringify(name)} must have no spaces or plus signs`);
  if (seed.length !== 32) throw new NoteError('an Ed25519 seed is 32 bytes');
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const publicKey = createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(SPKI_PREFIX.length);
  const keyId = keyIdOf(name, publicKey);
  return {
    name,
    verifierKey: `${name}+${keyId.toString('hex')}+${Buffer.concat([Uint8Array.of(COSIGNATURE_V1), publicKey]).toString('base64')}`,
    cosign(checkpointText, timestamp) {
      const time = Buffer.alloc(8);
      time.writeBigUInt64BE(BigInt(timestamp));
      const signature = sign(null, Buffer.from(cosignedMessage(checkpointText, timestamp), 'utf8'), privateKey);
      return `${DASH} ${name} ${Buffer.concat([keyId, time, signature]).toString('base64')}\n`;
    },
  };
}

export interface WitnessKey {
  name: string;
  keyId: Uint8Array;
  key: KeyObject;
}

/** Parses a witness verifier key "name+keyid+base64(0x04 ‖ key)"; the key id must match the key. */
export function witnessKey(verifierKey: string): WitnessKey {
  const m = /^([^\s+]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/]+=*)$/.exec(verifierKey);
  if (!m) throw new NoteError('malformed witness verifier key');
  const key = Buffer.from(m[3]!, 'base64');
  if (key.length !== 33 || key[0] !== COSIGNATURE_V1) throw new NoteError('witness key is not an Ed25519 cosignature/v1 key (type 0x04)');
  const publicKey = key.subarray(1);
  const keyId = keyIdOf(m[1]!, publicKey);
  if (keyId.toString('hex') !== m[2]) throw new NoteError('witness key id does not match its key');
  return { name: m[1]!, keyId: new Uint8Array(keyId), key: createPublicKey({ key: Buffer.concat([SPKI_PREFIX, publicKey]), format: 'der', type: 'spki' }) };
}

export interface VerifiedCosignature {
  witness: string;
  /** When the witness cosigned (POSIX seconds). */
  timestamp: number;
  /** The signature line, with its newline. */
  line: string;
}

/**
 * The cosignatures among `lines` (note signature lines, e.g. a witness's answer or a note's
 * signature block) that verify over `checkpointText` with one of `witnesses`. Lines of unknown keys
 * are ignored, as the spec asks; a trusted witness's line that does not verify is returned in
 * `invalid` (a witness that lies, or a checkpoint that is not the one it signed).
 */
export function verifyCosignatures(checkpointText: string, lines: string[], witnesses: WitnessKey[]): { valid: VerifiedCosignature[]; invalid: string[] } {
  const valid: VerifiedCosignature[] = [];
  const invalid: string[] = [];
  for (const raw of lines) {
    const line = raw.endsWith('\n') ? raw.slice(0, -1) : raw;
    const m = new RegExp(`^${DASH} (\\S+) ([A-Za-z0-9+/=]+)$`).exec(line);
    if (!m) continue;
    const bytes = Buffer.from(m[2]!, 'base64');
    const witness = witnesses.find((w) => w.name === m[1] && bytes.length >= 4 && Buffer.from(w.keyId).equals(bytes.subarray(0, 4)));
    if (!witness) continue;
    if (bytes.length !== 4 + 8 + 64) {
      invalid.push(witness.name);
      continue;
    }
    const timestamp = bytes.readBigUInt64BE(4);
    const ok = timestamp < 2n ** 63n && verify(null, Buffer.from(cosignedMessage(checkpointText, Number(timestamp)), 'utf8'), witness.key, bytes.subarray(12));
    if (ok) valid.push({ witness: witness.name, timestamp: Number(timestamp), line: `${line}\n` });
    else invalid.push(witness.name);
  }
  return { valid, invalid };
}

/** The signature lines of a note (after its blank line). */
export function signatureLines(note: string): { text: string; lines: string[] } {
  const split = note.lastIndexOf('\n\n');
  if (split < 0 || !note.endsWith('\n')) throw new NoteError('malformed note: no signature block');
  return { text: note.slice(0, split + 1), lines: note.slice(split + 2, -1).split('\n').map((l) => `${l}\n`) };
}

export interface WitnessPolicy {
  /** The trusted witnesses' verifier keys. */
  witnesses: string[];
  /** How many distinct ones must have cosigned. */
  needed: number;
}

/**
 * Opens a checkpoint note that must carry the log's signature and cosignatures by at least
 * `policy.needed` distinct witnesses of `policy.witnesses`; answers the checkpoint text and who
 * cosigned. Throws NoteError when the policy is not met.
 */
export function openWitnessedNote(note: string, logVerifierKey: string, policy: WitnessPolicy): { text: string; cosignedBy: string[] } {
  const { text } = openNote(note, [noteVerifier(logVerifierKey)]);
  if (!(Number.isInteger(policy.needed) && policy.needed >= 0 && policy.needed <= policy.witnesses.length)) {
    throw new NoteError(`a policy of ${policy.needed} of ${policy.witnesses.length} witnesses cannot be met`);
  }
  const { valid, invalid } = verifyCosignatures(text, signatureLines(note).lines, policy.witnesses.map(witnessKey));
  const cosignedBy = [...new Set(valid.map((c) => c.witness))];
  if (cosignedBy.length < policy.needed) {
    const bad = invalid.length ? `; invalid cosignatures by ${[...new Set(invalid)].join(', ')}` : '';
    throw new NoteError(`the checkpoint is cosigned by ${cosignedBy.length} of the ${policy.witnesses.length} trusted witnesses, ${policy.needed} needed${bad}`);
  }
  return { text, cosignedBy };
}
