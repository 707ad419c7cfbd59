// RFC 8785 JSON Canonicalization Scheme: object members sorted by their names' UTF-16 code units,
// no whitespace, numbers and strings as ECMAScript's JSON.stringify writes them (which is what
// the RFC specifies). Used wherever a hash must not depend on how a JSON value was written.
// Written as one pass of string building: it runs for every ledger leaf, so it is on the
// integrator's hot path.
// Member names repeat from one record to the next; the quoted forms of short ones are kept (a
// bounded cache, so names from callers' data cannot grow it) and each is escaped once.
const quotedNames = new Map<string, string>();
const quoted = (name: string): string => {
  let q = quotedNames.get(name);
  if (q === undefined) {
    q = JSON.stringify(name);
    if (name.length <= 64) {
      if (quotedNames.size >= 4096) quotedNames.clear();
      quotedNames.set(name, q);
    }
  }
  return q;
};

export function canonicalJson(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError('JSON has no NaN or Infinity');
      return JSON.stringify(value);
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) {
          const item: unknown = value[i];
          out += (i === 0 ? '' : ',') + (item === undefined ? 'null' : canonicalJson(item));
        }
        return `${out}]`;
      }
      const record = value as Record<string, unknown>;
      // Default sort compares UTF-16 code units, exactly as RFC 8785 §3.2.3 asks.
      const keys = Object.keys(record).sort();
      let out = '{';
      let first = true;
      for (const key of keys) {
        const member = record[key];
        if (member === undefined) continue;
        out += `${first ? '' : ','}${quoted(key)}:${canonicalJson(member)}`;
        first = false;
      }
      return `${out}}`;
    }
    default:
      throw new TypeError(`cannot canonicalize a ${typeof value}`);
  }
}
