// How deep a JSON value nests, found without recursion: callers' arguments are checked against a
// limit before anything walks them recursively (validation, canonical JSON, the ledger's leaves),
// so a value nested thousands deep is refused instead of exhausting the stack.

/**
 * True when `value` nests arrays and objects more than `limit` deep (`{}` and `[]` are depth 1,
 * scalars depth 0). An explicit stack of containers; it stops at the first one past the limit.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const stack: Array<{ node: object; depth: number }> = [{ node: value, depth: 1 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (depth > limit) return true;
    const members = Array.isArray(node) ? node : Object.values(node);
    for (const member of members) {
      if (typeof member === 'object' && member !== null) stack.push({ node: member, depth: depth + 1 });
    }
  }
  return false;
}

/**
 * JSON text of a plain JSON value (as JSON.parse makes them) written with an explicit stack: the
 * same text JSON.stringify writes, for values too deep to hand to anything recursive.
 */
export function stringifyIteratively(value: unknown): string {
  type Frame = { entries: Array<[string | null, unknown]>; next: number; close: string };
  const parts: string[] = [];
  const scalar = (v: unknown): string => (v === undefined || typeof v === 'function' || typeof v === 'symbol' ? 'null' : JSON.stringify(v));
  const open = (v: object): Frame => {
    if (Array.isArray(v)) {
      parts.push('[');
      return { entries: v.map((item): [null, unknown] => [null, item]), next: 0, close: ']' };
    }
    parts.push('{');
    const entries = Object.entries(v).filter(([, member]) => member !== undefined && typeof member !== 'function' && typeof member !== 'symbol');
    return { entries, next: 0, close: '}' };
  };
  if (typeof value !== 'object' || value === null) return scalar(value);
  const stack: Frame[] = [open(value)];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.next === frame.entries.length) {
      parts.push(frame.close);
      stack.pop();
      continue;
    }
    const [name, member] = frame.entries[frame.next]!;
    if (frame.next > 0) parts.push(',');
    frame.next += 1;
    if (name !== null) parts.push(`${JSON.stringify(name)}:`);
    if (typeof member === 'object' && member !== null) stack.push(open(member));
    else parts.push(scalar(member));
  }
  return parts.join('');
}
