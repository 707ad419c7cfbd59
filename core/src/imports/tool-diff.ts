// A readable difference between two tool definitions: each changed place as an RFC 6901 JSON
// Pointer with its value before and after, so the owner sees exactly what an upstream changed
// (a sentence added to a description, a new argument, a flipped annotation).

export interface DefinitionChange {
  /** Where, as a JSON Pointer ("" is the whole definition). */
  path: string;
  change: 'added' | 'removed' | 'changed';
  before?: unknown;
  after?: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const pointer = (path: string, part: string | number): string => `${path}/${String(part).replace(/~/g, '~0').replace(/\//g, '~1')}`;

/** The changes from `before` to `after`, in document order (object members by name). At most `limit` are returned. */
export function definitionDiff(before: unknown, after: unknown, limit = 500): DefinitionChange[] {
  const out: DefinitionChange[] = [];
  // An explicit stack: upstream schemas may nest deeply, and a diff must never overflow the call stack.
  const stack: Array<{ path: string; a: unknown; b: unknown }> = [{ path: '', a: before, b: after }];
  while (stack.length > 0 && out.length < limit) {
    const { path, a, b } = stack.pop()!;
    if (isObject(a) && isObject(b)) {
      const names = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort().reverse();
      for (const name of names) {
        const p = pointer(path, name);
        if (!(name in b)) stack.push({ path: p, a: a[name], b: undefined });
        else if (!(name in a)) stack.push({ path: p, a: undefined, b: b[name] });
        else stack.push({ path: p, a: a[name], b: b[name] });
      }
    } else if (Array.isArray(a) && Array.isArray(b)) {
      for (let i = Math.max(a.length, b.length) - 1; i >= 0; i--) stack.push({ path: pointer(path, i), a: i < a.length ? a[i] : undefined, b: i < b.length ? b[i] : undefined });
    } else if (a === undefined && b !== undefined) {
      out.push({ path, change: 'added', after: b });
    } else if (b === undefined && a !== undefined) {
      out.push({ path, change: 'removed', before: a });
    } else if (JSON.stringify(a) !== JSON.stringify(b)) {
      out.push({ path, change: 'changed', before: a, after: b });
    }
  }
  return out;
}
