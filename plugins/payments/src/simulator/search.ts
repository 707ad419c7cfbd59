// Ranked keyword search over API operations. Words are lower-cased and reduced to a simple stem so
// that "refunds", "refunding" and "refund" meet; a word found in the path outranks one found only
// in the summary, which outranks a parameter name. Ties keep catalogue order (stable sort).
import type { ApiOperation } from './catalogue.js';

const STOP_WORDS = new Set(['a', 'an', 'the', 'to', 'of', 'for', 'and', 'or', 'in', 'on', 'by', 'with', 'from', 'how', 'i', 'do', 'can', 'is', 'my', 'me', 'api']);

export const stem = (word: string): string => word.replace(/(ing|ed|es|s)$/, '').replace(/e$/, '') || word;

export const words = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0 && !STOP_WORDS.has(w))
    .map(stem);

interface Indexed {
  op: ApiOperation;
  path: Set<string>;
  summary: Set<string>;
  params: Set<string>;
}

export interface SearchHit extends ApiOperation {
  score: number;
}

export class OperationIndex {
  private readonly entries: Indexed[];

  constructor(operations: ApiOperation[]) {
    this.entries = operations.map((op) => ({
      op,
      path: new Set(words(op.path.replace(/\{[^}]*\}/g, ''))),
      summary: new Set(words(op.summary)),
      params: new Set(op.parameters.flatMap((p) => words(p.name))),
    }));
  }

  search(query: string, limit: number): SearchHit[] {
    const terms = [...new Set(words(query))];
    if (terms.length === 0) return [];
    const scored: SearchHit[] = [];
    for (const e of this.entries) {
      let score = 0;
      let matched = 0;
      for (const t of terms) {
        const s = (e.path.has(t) ? 3 : 0) + (e.summary.has(t) ? 2 : 0) + (e.params.has(t) ? 1 : 0);
        if (s > 0) matched += 1;
        score += s;
      }
      // Operations that match every term come first.
      if (score > 0) scored.push({ ...e.op, score: score + (matched === terms.length ? 10 : 0) });
    }
    return scored.sort((a, b) => b.score - a.score).slice(0, limit);
  }
}
