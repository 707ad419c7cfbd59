// Signed checkpoints as an auditor keeps them: taken from /api/proven-work while a test runs, each
// signature checked against the pinned verifier key, then every pair checked for consistency with
// the service's consistency proof (RFC 6962, verified here with the verifier's Merkle functions).
import { noteVerifier, openNote, parseCheckpoint, verifyConsistency, type Checkpoint } from '@switchyard/core';

export interface KeptCheckpoint extends Checkpoint {
  note: string;
}

export class CheckpointLog {
  readonly kept: KeptCheckpoint[] = [];
  /** Notes whose signature did not verify, or that did not parse, with why. */
  readonly badlySigned: string[] = [];

  constructor(private readonly verifierKey: string) {}

  /** Takes the latest checkpoint from `url`; false when the service did not answer with one (an outage). */
  async take(url: string): Promise<boolean> {
    let note: string;
    try {
      const res = await fetch(`${url}/api/proven-work?limit=1`, { signal: AbortSignal.timeout(5000) });
      if (res.status !== 200) return false;
      const body = (await res.json()) as { checkpoint: { note: string } | null };
      if (!body.checkpoint) return false;
      note = body.checkpoint.note;
    } catch {
      return false;
    }
    try {
      this.kept.push({ ...parseCheckpoint(openNote(note, [noteVerifier(this.verifierKey)]).text), note });
    } catch (err) {
      this.badlySigned.push(`${(err as Error).message}: ${JSON.stringify(note)}`);
    }
    return true;
  }

  /** The distinct tree sizes kept. */
  sizes(): number[] {
    return [...new Set(this.kept.map((c) => c.size))].sort((a, b) => a - b);
  }

  /**
   * Every pair of kept checkpoints that is not consistent, described: two of one size with different
   * roots, or a later size whose consistency proof from an earlier one (asked of `url`) does not verify.
   */
  async inconsistentPairs(url: string, parallel = 8): Promise<string[]> {
    const problems: string[] = [...this.badlySigned.map((b) => `badly signed: ${b}`)];
    const bySize = new Map<number, KeptCheckpoint>();
    for (const c of this.kept) {
      const first = bySize.get(c.size);
      if (!first) bySize.set(c.size, c);
      else if (Buffer.compare(Buffer.from(first.root), Buffer.from(c.root)) !== 0) problems.push(`two roots at size ${c.size}`);
    }
    // The empty tree is a prefix of every tree: nothing to prove from size 0.
    const sizes = [...bySize.keys()].filter((s) => s > 0).sort((a, b) => a - b);
    const pairs: Array<[KeptCheckpoint, KeptCheckpoint]> = [];
    for (let i = 0; i < sizes.length; i++) for (let j = i + 1; j < sizes.length; j++) pairs.push([bySize.get(sizes[i]!)!, bySize.get(sizes[j]!)!]);
    let next = 0;
    const check = async (): Promise<void> => {
      for (let p = next++; p < pairs.length; p = next++) {
        const [a, b] = pairs[p]!;
        try {
          const res = await fetch(`${url}/api/proven-work?from_size=${a.size}&to_size=${b.size}&limit=1`, { signal: AbortSignal.timeout(10_000) });
          const body = (await res.json()) as { consistency?: { proof: string[] } };
          if (res.status !== 200 || !body.consistency) throw new Error(`answered ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
          verifyConsistency(a.size, b.size, body.consistency.proof.map((h) => new Uint8Array(Buffer.from(h, 'base64'))), a.root, b.root);
        } catch (err) {
          problems.push(`sizes ${a.size} → ${b.size}: ${(err as Error).message}`);
        }
      }
    };
    await Promise.all(Array.from({ length: parallel }, check));
    return problems;
  }
}
