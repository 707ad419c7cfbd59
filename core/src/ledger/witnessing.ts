// Asking witnesses to cosign the log's checkpoints (c2sp.org/tlog-witness). For each configured
// witness whose cosigned size is behind the latest checkpoint, the log POSTs add-checkpoint: the
// size the witness last cosigned ("old N"), the consistency proof from there, a blank line and the
// signed checkpoint. A 409 names the size the witness really holds: the log answers once more from
// that size, unless it is past the log's own (a witness that saw a larger tree: a rollback or a
// fork, never papered over). A 200 must carry a cosignature by that witness's key over exactly this
// checkpoint; anything else is refused and stored nowhere. Every outcome is reported, none throws.
import { consistencyProof, signatureLines, verifyCosignatures, witnessKey, type WitnessKey } from '@switchyard/verifier';
import type { VerifiableLedger, WitnessTransport } from './ports.js';

export interface WitnessConfig {
  /** The witness's name, as in its verifier key. */
  name: string;
  /** Its verifier key (c2sp.org/signed-note form, type 0x04). */
  vkey: string;
  /** Its submission prefix: the log POSTs to `<url>/add-checkpoint`. */
  url: string;
}

export type WitnessOutcome =
  | { witness: string; outcome: 'cosigned'; size: number }
  | { witness: string; outcome: 'up_to_date'; size: number }
  | { witness: string; outcome: 'refused'; size: number; reason: string };

const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64');
const MAX_BODY = 64 * 1024;

export class WitnessService {
  private readonly witnesses: Array<WitnessConfig & { key: WitnessKey }>;

  constructor(
    private readonly ledger: VerifiableLedger,
    witnesses: WitnessConfig[],
    private readonly transport: WitnessTransport,
    private readonly timeoutMs = 5000,
  ) {
    this.witnesses = witnesses.map((w) => {
      const key = witnessKey(w.vkey);
      if (key.name !== w.name) throw new Error(`witness ${w.name}: its vkey names ${key.name}`);
      return { ...w, key };
    });
  }

  get configured(): number {
    return this.witnesses.length;
  }

  /** Asks every witness that is behind to cosign the latest checkpoint, one request (and one retry after a 409) each. */
  async witnessLatest(): Promise<WitnessOutcome[]> {
    const latest = await this.ledger.latestCheckpoint();
    if (!latest) return [];
    return Promise.all(this.witnesses.map((w) => this.ask(w, latest.size, latest.note)));
  }

  private async ask(w: WitnessConfig & { key: WitnessKey }, size: number, note: string): Promise<WitnessOutcome> {
    const refused = (reason: string): WitnessOutcome => ({ witness: w.name, outcome: 'refused', size, reason });
    let old = await this.ledger.witnessedSize(w.name);
    if (old >= size) return { witness: w.name, outcome: 'up_to_date', size: old };
    for (let attempt = 0; attempt < 2; attempt++) {
      let answer;
      try {
        answer = await this.transport.post(`${w.url.replace(/\/+$/, '')}/add-checkpoint`, await this.body(old, size, note), this.timeoutMs);
      } catch (e) {
        return refused(`unreachable: ${(e as Error).message}`);
      }
      if (answer.status === 409 && attempt === 0) {
        const held = /^(0|[1-9][0-9]{0,15})\n$/.exec(answer.body);
        if (!held || !answer.contentType.startsWith('text/x.tlog.size')) return refused('409 without a tree size (text/x.tlog.size)');
        const theirs = Number(held[1]);
        if (theirs > size) return refused(`the witness holds size ${theirs}, past the log's ${size}: it saw a tree this log never had (rollback or fork)`);
        if (theirs === old) return refused(`409 at the size it holds (${theirs}): the witness saw another tree of that size`);
        old = theirs;
        continue;
      }
      if (answer.status !== 200) return refused(`answered ${answer.status}${answer.body ? `: ${answer.body.slice(0, 200).trim()}` : ''}`);
      if (answer.body.length > MAX_BODY) return refused('answered a body too large to be signature lines');
      const { text } = signatureLines(note);
      const { valid, invalid } = verifyCosignatures(text, answer.body.split('\n').filter(Boolean), [w.key]);
      if (valid.length === 0) return refused(invalid.length ? 'its cosignature does not verify over this checkpoint' : 'no cosignature by its key in the answer');
      await this.ledger.addCosignature({ size, witness: w.name, timestamp: valid[0]!.timestamp, line: valid[0]!.line });
      return { witness: w.name, outcome: 'cosigned', size };
    }
    return refused('409 twice');
  }

  private async body(old: number, size: number, note: string): Promise<string> {
    const proof = old === 0 || old === size ? [] : await this.ledger.consistencyProof(old, size);
    return `old ${old}\n${proof.map((h) => `${b64(h)}\n`).join('')}\n${note}`;
  }
}

/** Asks the witnesses on a timer until stopped; each outcome other than "up to date" is reported. */
export function startWitnessing(service: WitnessService, intervalMs: number, report: (o: WitnessOutcome) => void): { stop(): Promise<void> } {
  let current: Promise<unknown> = Promise.resolve();
  let running = false;
  const timer = setInterval(() => {
    if (running) return; // a slow witness delays the next round, it does not pile rounds up
    running = true;
    current = service
      .witnessLatest()
      .then((outcomes) => outcomes.filter((o) => o.outcome !== 'up_to_date').forEach(report))
      .catch((e: unknown) => report({ witness: '*', outcome: 'refused', size: 0, reason: (e as Error).message }))
      .finally(() => (running = false));
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await current;
    },
  };
}
