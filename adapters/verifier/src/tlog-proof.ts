// c2sp.org/tlog-proof@v1: an offline-verifiable proof that an entry is in the log — a header line,
// optional opaque extra data, the entry's index, its inclusion proof (one base64 hash per line), a
// blank line, and the signed checkpoint the proof leads to. Our extra data is the leaf itself
// (its canonical JSON, base64), so a proof file needs nothing else but the log's verifier key.
import { hashLeaf, verifyInclusion } from './merkle.js';
import { NoteError, noteVerifier, openNote, parseCheckpoint, type Checkpoint } from './signed-note.js';

export const TLOG_PROOF_HEADER = 'c2sp.org/tlog-proof@v1';

export interface TlogProof {
  extra: Uint8Array | null;
  index: number;
  proof: Uint8Array[];
  /** The signed checkpoint note, whole. */
  checkpoint: string;
}

const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64');

export function formatTlogProof(p: TlogProof): string {
  const lines = [TLOG_PROOF_HEADER, ...(p.extra ? [`extra ${b64(p.extra)}`] : []), `index ${p.index}`, ...p.proof.map(b64)];
  return `${lines.join('\n')}\n\n${p.checkpoint}`;
}

export function parseTlogProof(text: string): TlogProof {
  const split = text.indexOf('\n\n');
  if (split < 0) throw new NoteError('malformed tlog proof: no checkpoint');
  const lines = text.slice(0, split).split('\n');
  if (lines.shift() !== TLOG_PROOF_HEADER) throw new NoteError(`not a ${TLOG_PROOF_HEADER} proof`);
  let extra: Uint8Array | null = null;
  if (lines[0]?.startsWith('extra ')) extra = new Uint8Array(Buffer.from(lines.shift()!.slice(6), 'base64'));
  const index = /^index (0|[1-9][0-9]*)$/.exec(lines.shift() ?? '');
  if (!index) throw new NoteError('malformed tlog proof: no index line');
  const proof = lines.map((line) => {
    const hash = Buffer.from(line, 'base64');
    if (hash.length !== 32 || hash.toString('base64') !== line) throw new NoteError('malformed tlog proof: bad hash line');
    return new Uint8Array(hash);
  });
  return { extra, index: Number(index[1]), proof, checkpoint: text.slice(split + 2) };
}

export interface VerifiedProof {
  index: number;
  /** The leaf's canonical JSON, from the proof's extra data. */
  leafText: string;
  checkpoint: Checkpoint;
}

/**
 * Checks a proof offline: the checkpoint's signature against a pinned verifier key (and origin),
 * then the inclusion of the leaf carried as extra data in the checkpointed tree. Throws NoteError
 * or ProofError; answers what was proven.
 */
export function verifyTlogProof(text: string, verifierKey: string, origin?: string): VerifiedProof {
  const proof = parseTlogProof(text);
  if (!proof.extra) throw new NoteError('the proof carries no leaf (extra data)');
  const checkpoint = parseCheckpoint(openNote(proof.checkpoint, [noteVerifier(verifierKey)]).text);
  if (origin !== undefined && checkpoint.origin !== origin) throw new NoteError(`checkpoint origin ${checkpoint.origin} is not ${origin}`);
  verifyInclusion(proof.index, checkpoint.size, hashLeaf(proof.extra), proof.proof, checkpoint.root);
  return { index: proof.index, leafText: new TextDecoder().decode(proof.extra), checkpoint };
}
