// Renderings remembered per set of articles: a page or an archive is built once per content
// change, not per request. Keyed by the TagIndex object, so a publish (a new index) drops them all.
import { createHash } from 'node:crypto';
import type { TagIndex } from '@switchyard/core';

// Keys carry the base URL (absolute links), which comes from the Host header unless configured;
// the bound keeps arbitrary Host values from growing memory.
const MAX_PER_INDEX = 256;

export class RenderMemo {
  private readonly byIndex = new WeakMap<TagIndex, Map<string, unknown>>();

  get<T>(index: TagIndex, key: string, build: () => T): T {
    let entries = this.byIndex.get(index);
    if (!entries) this.byIndex.set(index, (entries = new Map()));
    if (entries.has(key)) return entries.get(key) as T;
    const value = build();
    if (entries.size >= MAX_PER_INDEX) entries.delete(entries.keys().next().value!);
    entries.set(key, value);
    return value;
  }
}

/** A rendering with its entity tag, hashed once instead of by Express on every response. */
export interface Rendered {
  body: string;
  etag: string;
}

export const etagOf = (body: string | Buffer): string => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

export const rendered = (body: string): Rendered => ({ body, etag: etagOf(body) });
