// Plain-language lookup over the registry (the ask query) and the one did_you_mean suggester.
// Full-text matching (fuzzy, prefix, field boosts) is minisearch's; this file only decides what a
// capability's searchable text is and how a question becomes terms.
import MiniSearch, { type SearchResult } from 'minisearch';
import type { Capability } from './capability.js';
import type { JsonSchema } from '../json-schema.js';
import { suggestKeys } from './suggest.js';

export interface AskHit {
  key: string;
  path: Capability['path'];
  description: string;
  /** minisearch's relevance score (BM25-like), rounded; only the order means something. */
  score: number;
  /** Which searchable fields the question matched: key (which holds the system), description, inputs, example. */
  matched: string[];
  /** The question's terms that matched (after stemming), for a reader to see why. */
  terms: string[];
}

export interface AskAnswer {
  /** True when the question looks like a capability key (one word with underscores, or upper case). */
  keyShaped: boolean;
  /** The key itself when the question names one exactly (case-insensitive). */
  exact: string | null;
  hits: AskHit[];
  /** For a key-shaped question naming no key: the closest keys, never a guess at which one was meant. */
  didYouMean: string[];
}

interface Doc {
  id: string;
  key: string;
  description: string;
  inputs: string;
  example: string;
}

// Words a question carries that say nothing about a capability.
const STOP_WORDS = new Set(
  'a an and are as at be by can could do does for from get give how i in is it its me my of on or please some that the this to use want we what which with would you your'.split(' '),
);

/** Splits identifiers too: EDGE_SET_WORKER, workerId and phone-numbers all become plain words. */
export const tokenize = (text: string): string[] =>
  text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((t) => t.length > 0);

/** A light suffix stripper, so "renaming", "renames" and "rename" meet; enough for key words. */
export function stem(term: string): string {
  const t = term.toLowerCase();
  if (t.length <= 4) return t;
  for (const suffix of ['ing', 'ies', 'es', 'ed', 's']) {
    if (t.endsWith(suffix) && t.length - suffix.length >= 3) {
      const base = t.slice(0, -suffix.length);
      return suffix === 'ies' ? `${base}y` : base.endsWith('e') ? base.slice(0, -1) : base;
    }
  }
  return t.endsWith('e') ? t.slice(0, -1) : t;
}

const processTerm = (term: string): string | null => {
  const t = term.toLowerCase();
  return STOP_WORDS.has(t) ? null : stem(t);
};

/** Property names (and their descriptions) at any depth of an input schema. */
function inputText(schema: JsonSchema | undefined, depth = 0): string {
  if (!schema || typeof schema !== 'object' || depth > 4) return '';
  const parts: string[] = [];
  const props = (schema as { properties?: Record<string, JsonSchema> }).properties ?? {};
  for (const [name, sub] of Object.entries(props)) {
    parts.push(name);
    const description = (sub as { description?: unknown }).description;
    if (typeof description === 'string') parts.push(description);
    parts.push(inputText(sub, depth + 1));
  }
  const items = (schema as { items?: JsonSchema }).items;
  if (items && typeof items === 'object') parts.push(inputText(items, depth + 1));
  return parts.filter(Boolean).join(' ');
}

/**
 * The words of a capability's example call: its string values at any depth. An example says what
 * the capability is for in a user's own words ("refund a payment" for a search over a payment
 * processor's operations). Ids, numbers and hex strings carry no meaning, so words with digits are dropped.
 */
function exampleText(example: unknown, depth = 0): string {
  if (typeof example === 'string') return tokenize(example).filter((w) => !/[0-9]/.test(w)).join(' ');
  if (typeof example !== 'object' || example === null || depth > 4) return '';
  return Object.values(example).map((v) => exampleText(v, depth + 1)).filter(Boolean).join(' ');
}

const KEY_SHAPED = /^[A-Za-z][A-Za-z0-9]*(_[A-Za-z0-9]+)+$|^[A-Z][A-Z0-9]{2,}$/;

/** Registries up to this size rank did_you_mean over every key; larger ones over the index's candidates. */
const SCAN_ALL_UP_TO = 500;

/**
 * In a large registry a question word found in more than this share of capabilities ("operation",
 * "returns") ranks nothing and costs a score for every one of them, so it is left out of the
 * search, as Lucene's common-terms cutoff does. Small registries keep every word: there a share
 * says little.
 */
const COMMON_TERM_SHARE = 0.1;
const COMMON_TERMS_FROM = 200;

export class CapabilityIndex {
  private readonly search: MiniSearch<Doc>;
  private readonly keys: string[];
  private readonly byUpperKey = new Map<string, Capability>();
  /** In how many capabilities each (processed) term occurs, for the common-terms cutoff. */
  private readonly documentFrequency = new Map<string, number>();

  constructor(capabilities: readonly Capability[]) {
    this.search = new MiniSearch<Doc>({
      // The key already holds the system's name, so the path adds nothing to search.
      fields: ['key', 'description', 'inputs', 'example'],
      storeFields: [],
      tokenize,
      processTerm,
      searchOptions: {
        boost: { key: 3, description: 2, inputs: 1, example: 1 },
        prefix: (term) => term.length >= 4,
        fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
        maxFuzzy: 2,
        combineWith: 'OR',
      },
    });
    const docs = capabilities.map((c) => ({ id: c.key, key: c.key, description: c.description, inputs: inputText(c.inputs), example: exampleText(c.example) }));
    this.search.addAll(docs);
    for (const d of docs) {
      const terms = new Set(tokenize(`${d.key} ${d.description} ${d.inputs} ${d.example}`).map(processTerm));
      for (const t of terms) if (t) this.documentFrequency.set(t, (this.documentFrequency.get(t) ?? 0) + 1);
    }
    this.keys = capabilities.map((c) => c.key);
    for (const c of capabilities) this.byUpperKey.set(c.key, c);
  }

  /** Ranked matches for a question or a key; it never runs anything. */
  ask(question: string, limit = 5): AskAnswer {
    const q = question.trim();
    const keyShaped = KEY_SHAPED.test(q);
    const exact = this.byUpperKey.get(q.toUpperCase()) ?? null;
    // A question naming a key exactly is answered with that key alone: nothing to rank. A
    // key-shaped miss is searched among keys only, and the same search gives did_you_mean.
    const results = !q || exact ? [] : keyShaped ? this.keySearch(q) : this.search.search(this.withoutCommonTerms(q));
    const hits: AskHit[] = results.slice(0, limit).map((r) => {
      const c = this.byUpperKey.get(r.id as string)!;
      const matched = [...new Set(Object.values(r.match).flat())];
      return { key: c.key, path: c.path, description: c.description, score: Math.round(r.score * 100) / 100, matched, terms: r.terms };
    });
    if (exact) hits.push({ key: exact.key, path: exact.path, description: exact.description, score: 0, matched: ['key'], terms: [] });
    return {
      keyShaped,
      exact: exact?.key ?? null,
      hits: hits.slice(0, limit),
      didYouMean: keyShaped && !exact ? this.rankKeys(q, results) : [],
    };
  }

  /** The question's words minus those too common to rank anything (all of them if none is rarer). */
  private withoutCommonTerms(question: string): string {
    const n = this.keys.length;
    if (n < COMMON_TERMS_FROM) return question;
    const words = tokenize(question);
    const rare = words.filter((w) => {
      const t = processTerm(w);
      return t !== null && (this.documentFrequency.get(t) ?? 0) / n <= COMMON_TERM_SHARE;
    });
    return rare.length ? rare.join(' ') : question;
  }

  /**
   * did_you_mean for an unknown key: nearest keys by edit distance, containment and shared words
   * (suggestKeys). A large registry is first narrowed to the index's fuzzy candidates, so a 404
   * costs the same with ten thousand capabilities as with ten.
   */
  suggest(key: string, max = 3): string[] {
    return this.rankKeys(key, this.keys.length <= SCAN_ALL_UP_TO ? [] : this.keySearch(key), max);
  }

  private keySearch(key: string): SearchResult[] {
    return this.search.search(tokenize(key).join(' '), { fields: ['key'] });
  }

  private rankKeys(key: string, keyResults: SearchResult[], max = 3): string[] {
    const candidates = this.keys.length <= SCAN_ALL_UP_TO ? this.keys : keyResults.slice(0, 50).map((r) => r.id as string);
    return suggestKeys(key, candidates, max);
  }
}
