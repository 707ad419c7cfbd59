// A request's `_meta` is protocol metadata (the 2026-07-28 envelope: version, client info and
// capabilities; a progress token; trace context), never payload. It is read on every request and
// parts of it are passed on upstream, so it is bounded well below the body limit: a caller cannot
// ride megabytes through it. Arguments keep the body limit.
import { stringifyIteratively } from '../json-depth.js';

/** The most bytes of JSON a request's `_meta` may take (the envelope a v2 client sends is under 1 KiB). */
export const MAX_META_BYTES = 16 * 1024;

/** The UTF-8 size of `meta` as JSON when it is larger than `limit`; undefined when it fits (or is absent). */
export function metaOverLimit(meta: unknown, limit: number = MAX_META_BYTES): number | undefined {
  if (meta === undefined) return undefined;
  const bytes = new TextEncoder().encode(stringifyIteratively(meta)).length;
  return bytes > limit ? bytes : undefined;
}
