// The scope vocabulary of Switchyard's authorization server: a scope is a move a share token can
// carry on an MCP resource, which is running tools:
//   invoke:*      every tool of the resource (the consent page lists them; the owner may untick some)
//   invoke:<KEY>  the one tool <KEY> (a capability key, any letter case)
// The token issued carries moves=invoke:* and keys=<the consented keys>, so it never reaches a tool
// the owner did not tick, nor one added to the resource later.
import { canonicalKey } from '../capabilities/index.js';
import { TOKEN_KEY_PATTERN } from '../access/index.js';
import { OAuthError } from './oauth-error.js';

export const ALL_TOOLS_SCOPE = 'invoke:*';

/** What a client asked for, as keys of the resource: all of them, or the listed ones. */
export type RequestedTools = { all: true } | { all: false; keys: string[] };

/** Reads a scope parameter (space-separated, RFC 6749 §3.3); absent or empty means every tool. invalid_scope for anything else. */
export function parseScope(scope: string | undefined | null): RequestedTools {
  const items = (scope ?? '').split(' ').filter((s) => s !== '');
  if (items.length === 0 || items.includes(ALL_TOOLS_SCOPE)) {
    const bad = items.find((s) => s !== ALL_TOOLS_SCOPE && !isKeyScope(s));
    if (bad !== undefined) throw unknownScope(bad);
    return { all: true };
  }
  const keys: string[] = [];
  for (const item of items) {
    if (!isKeyScope(item)) throw unknownScope(item);
    const key = canonicalKey(item.slice('invoke:'.length));
    if (!keys.includes(key)) keys.push(key);
  }
  return { all: false, keys };
}

const isKeyScope = (s: string): boolean => s.startsWith('invoke:') && TOKEN_KEY_PATTERN.test(s.slice('invoke:'.length));

const unknownScope = (s: string) =>
  new OAuthError('invalid_scope', `unknown scope ${JSON.stringify(s.slice(0, 80))}: scopes are invoke:* (every tool of the resource) or invoke:<KEY> (one tool)`);

/**
 * The keys a request may be consented to: those of the resource that it asked for. A key the
 * resource does not have is invalid_scope (naming it), never silently dropped.
 */
export function requestedKeys(requested: RequestedTools, resourceKeys: string[]): string[] {
  if (requested.all) return [...resourceKeys];
  const missing = requested.keys.filter((k) => !resourceKeys.includes(k));
  if (missing.length) throw new OAuthError('invalid_scope', `this resource has no tool ${missing.slice(0, 5).join(', ')}`);
  return requested.keys;
}

/** The scope string of a grant, as the token response states it. */
export const scopeOf = (keys: string[]): string => keys.map((k) => `invoke:${k}`).join(' ');
