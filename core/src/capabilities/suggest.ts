// did_you_mean: nearest keys by edit distance, so a caller never has to guess a key.

export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
    }
    prev = cur;
  }
  return prev[b.length]!;
}

const words = (key: string): string[] => key.split(/[^A-Z0-9]+/).filter((w) => w.length > 0);
const sameWord = (a: string, b: string): boolean => a === b || (Math.min(a.length, b.length) >= 3 && (a.startsWith(b) || b.startsWith(a)));

/**
 * Up to `max` keys, closest first. Close means: a small edit distance, a key that contains the
 * query (or vice versa), or a key holding every word of a query of two or more words
 * (EDGE_SET_WORKER → EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER).
 */
export function suggestKeys(query: string, keys: readonly string[], max = 3): string[] {
  const q = query.trim().toUpperCase();
  if (!q) return [];
  const queryWords = words(q);
  const scored = keys.map((key) => {
    let d = editDistance(q, key);
    if (key.includes(q) || q.includes(key)) d = Math.min(d, Math.abs(key.length - q.length) / 4);
    const keyWords = words(key);
    if (queryWords.length >= 2 && queryWords.every((w) => keyWords.some((k) => sameWord(w, k)))) {
      d = Math.min(d, 1 + (keyWords.length - queryWords.length) / 4);
    }
    return { key, d };
  });
  const limit = Math.max(3, Math.ceil(q.length * 0.5));
  return scored
    .filter((s) => s.d <= limit)
    .sort((a, b) => a.d - b.d || a.key.localeCompare(b.key))
    .slice(0, max)
    .map((s) => s.key);
}
