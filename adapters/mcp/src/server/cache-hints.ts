// The caching hints of the 2026-07-28 faces (server/utilities/caching): every cacheable result says
// how long it stays fresh (ttlMs, the operator's mcp.cacheTtlMs) and is private to the caller's
// authorization context, because what a face lists is cut to the caller's credential and is
// reached only through it: a shared cache must never serve it to another caller.
import type { CacheHint } from '@modelcontextprotocol/server';

/** The operations whose results the revision makes cacheable. */
const CACHEABLE = ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read', 'server/discover'] as const;

export type CacheableMethod = (typeof CACHEABLE)[number];

export const isCacheable = (method: string): method is CacheableMethod => (CACHEABLE as readonly string[]).includes(method);

/** The hint for every cacheable operation of a face whose results are fresh for `ttlMs`. */
export function cacheHintsFor(ttlMs: number): Record<CacheableMethod, CacheHint> {
  return Object.fromEntries(CACHEABLE.map((method) => [method, { ttlMs, cacheScope: 'private' }])) as Record<CacheableMethod, CacheHint>;
}

/**
 * An upstream's cacheable result as this face sends it: a shorter ttlMs the upstream gave is kept
 * (it knows its own content), never a longer one, and the scope is always private. The upstream's
 * resultType is its own era's word: the face stamps its own.
 */
export function forwardedWithHints(result: Record<string, unknown>, ttlMs: number): Record<string, unknown> {
  const { ttlMs: theirs, cacheScope: _scope, resultType: _type, ...rest } = result;
  const upstreamTtl = typeof theirs === 'number' && Number.isSafeInteger(theirs) && theirs >= 0 ? theirs : undefined;
  return { ...rest, ttlMs: upstreamTtl === undefined ? ttlMs : Math.min(upstreamTtl, ttlMs), cacheScope: 'private' };
}
