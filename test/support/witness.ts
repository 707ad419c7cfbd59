// A witness written from c2sp.org/tlog-witness, for tests: its own state (the latest checkpoint it
// cosigned per origin), refusing what the spec says to refuse: unknown origin 404, no trusted
// signature 403, old size past the checkpoint 400, old size not the one it holds 409 (its size, as
// text/x.tlog.size), a proof that does not verify 422, the same size with another root 409. It
// cosigns with an Ed25519 cosignature/v1 (c2sp.org/tlog-cosignature). `lie` makes it cosign a
// checkpoint other than the one it was sent (a forged root), to be caught.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NoteError, cosigner, generateSignerSeed, noteVerifier, openNote, parseCheckpoint, checkpointText, verifyConsistency, ProofError, type Cosigner } from '@switchyard/verifier';

export interface TestWitness {
  name: string;
  vkey: string;
  /** The submission prefix. */
  url: string;
  /** Trust a log: its origin and verifier key. */
  trust(origin: string, logVkey: string): void;
  /** The latest size it cosigned for an origin (0 if none). */
  sizeOf(origin: string): number;
  /** Sets what it holds, as if it had cosigned that tree before (to test a rollback). */
  hold(origin: string, size: number, root: Uint8Array): void;
  /** Every add-checkpoint answer it gave, by status. */
  answers: number[];
  close(): Promise<void>;
}

export async function startTestWitness(name: string, options: { lie?: boolean } = {}): Promise<TestWitness> {
  const signer: Cosigner = cosigner(name, generateSignerSeed());
  const trusted = new Map<string, string>();
  const state = new Map<string, { size: number; root: Uint8Array }>();
  const answers: number[] = [];

  const handle = (body: string): { status: number; type?: string; text: string } => {
    const split = body.indexOf('\n\n');
    if (split < 0) return { status: 400, text: 'no blank line before the checkpoint\n' };
    const head = body.slice(0, split).split('\n');
    const old = /^old (0|[1-9][0-9]*)$/.exec(head.shift() ?? '');
    if (!old) return { status: 400, text: 'no old size line\n' };
    if (head.length > 63) return { status: 400, text: 'too many proof lines\n' };
    const proof: Uint8Array[] = [];
    for (const line of head) {
      const h = Buffer.from(line, 'base64');
      if (h.length !== 32 || h.toString('base64') !== line) return { status: 400, text: 'bad proof line\n' };
      proof.push(new Uint8Array(h));
    }
    const note = body.slice(split + 2);
    const origin = note.slice(0, note.indexOf('\n'));
    const logKey = trusted.get(origin);
    if (!logKey) return { status: 404, text: 'unknown log\n' };
    let text: string;
    try {
      text = openNote(note, [noteVerifier(logKey)]).text;
    } catch (e) {
      if (e instanceof NoteError) return { status: 403, text: `${e.message}\n` };
      throw e;
    }
    const checkpoint = parseCheckpoint(text);
    const oldSize = Number(old[1]);
    if (oldSize > checkpoint.size) return { status: 400, text: 'old size past the checkpoint\n' };
    const held = state.get(origin) ?? { size: 0, root: new Uint8Array(0) };
    if (oldSize !== held.size) return { status: 409, type: 'text/x.tlog.size', text: `${held.size}\n` };
    if (oldSize === 0 && proof.length > 0) return { status: 400, text: 'a proof from size 0 must be empty\n' };
    if (oldSize > 0) {
      try {
        verifyConsistency(oldSize, checkpoint.size, proof, held.root, checkpoint.root);
      } catch (e) {
        if (e instanceof ProofError) return { status: oldSize === checkpoint.size ? 409 : 422, text: `${e.message}\n` };
        throw e;
      }
    }
    // Checked and stored in one synchronous step, so two requests cannot interleave (no rollback race).
    state.set(origin, { size: checkpoint.size, root: checkpoint.root });
    const signed = options.lie ? checkpointText({ ...checkpoint, root: new Uint8Array(32).fill(0xee) }) : text;
    return { status: 200, text: signer.cosign(signed, Math.floor(Date.now() / 1000)) };
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answer = req.method === 'POST' && req.url === '/add-checkpoint' ? handle(Buffer.concat(chunks).toString('utf8')) : { status: 404, text: 'not found\n' };
      answers.push(answer.status);
      res.writeHead(answer.status, { 'content-type': answer.type ?? 'text/plain; charset=utf-8' }).end(answer.text);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    name,
    vkey: signer.verifierKey,
    url: `http://127.0.0.1:${port}`,
    trust: (origin, logVkey) => void trusted.set(origin, logVkey),
    sizeOf: (origin) => state.get(origin)?.size ?? 0,
    hold: (origin, size, root) => void state.set(origin, { size, root }),
    answers,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}
