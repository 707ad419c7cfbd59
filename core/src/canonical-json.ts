// RFC 8785 JSON Canonicalization Scheme: object members sorted by their names' UTF-16 code units,
// no whitespace, numbers and strings as ECMAScript's JSON.stringify writes them (which is what
// the RFC specifies). Used wherever a hash must not depend on how a JSON value was written.
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('JSON has no NaN or Infinity');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    // Default sort compares UTF-16 code units, exactly as RFC 8785 §3.2.3 asks.
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  throw new TypeError(`cannot canonicalize a ${typeof value}`);
}
