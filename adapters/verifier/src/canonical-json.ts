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

/**
 * True when JSON.stringify already writes `value` canonically: plain objects whose keys are in
 * canonical order, arrays, strings, booleans, null and finite numbers, all the way down. Records
 * built with their keys in order (the ledger's leaves) take this path: one native call instead of
 * a string built piece by piece.
 */
function stringifiesCanonically(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object': {
      if (value === null) return true;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (value[i] !== undefined && !stringifiesCanonically(value[i])) return false;
        return true;
      }
      // Not a Date or another class instance: JSON.stringify would call its toJSON.
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return false;
      const record = value as Record<string, unknown>;
      let previous: string | undefined;
      for (const key in record) {
        // Keys must ascend by UTF-16 code units, as the canonical sort puts them.
        if (previous !== undefined && !(previous < key)) return false;
        previous = key;
        const member = record[key];
        if (member !== undefined && !stringifiesCanonically(member)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

export function canonicalJson(value: unknown): string {
  return stringifiesCanonically(value) ? JSON.stringify(value) : writeCanonical(value);
}

function writeCanonical(value: unknown): string {
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
          out += (i === 0 ? '' : ',') + (item === undefined ? 'null' : writeCanonical(item));
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
        out += `${first ? '' : ','}${quoted(key)}:${writeCanonical(member)}`;
        first = false;
      }
      return `${out}}`;
    }
    default:
      throw new TypeError(`cannot canonicalize ${typeof value === 'undefined' ? 'an' : 'a'} ${typeof value}`);
  }
}
