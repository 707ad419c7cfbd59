// Actor names: free text a caller gives itself, except the names the service writes for its own
// callers (the owner, webhooks, the MCP face, the system), which nobody may claim. A name is
// compared and stored in its NFKC form, so full-width or compatibility letters spell the same name
// as their plain forms, and a name with invisible characters (zero-width, bidi controls) or
// characters Unicode has not assigned is refused: what the ledger shows is what was meant.
export const ACTOR_MAX_LENGTH = 200;

/** Names the service uses, alone or followed by ":" or "/" (hook:hk_…, token:fp_…, approval:apr_…). */
const RESERVED = /^(owner|public|mcp|system|router|api|hook|token|approval|webhook)(?:$|[:/])/i;

/** Control (Cc), format (Cf: zero-width, bidi overrides), unassigned (Cn), lone surrogates (Cs) and line or paragraph separators. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cn}\p{Cs}\p{Zl}\p{Zp}]/u;

/** The form an actor name is compared and stored in (NFKC). */
export const normalizeActor = (name: string): string => name.normalize('NFKC');

/** True when `name` is (or starts as) a name the service writes itself, once normalised. */
export const isReservedActor = (name: string): boolean => RESERVED.test(normalizeActor(name).trim());

/** Why a caller-given actor cannot be used, or null when it can (judged on its NFKC form). */
export function actorProblem(name: string): string | null {
  const normal = normalizeActor(name);
  if (normal.length === 0 || normal.length > ACTOR_MAX_LENGTH) return `an actor is text of 1 to ${ACTOR_MAX_LENGTH} characters`;
  if (INVISIBLE.test(normal)) return 'an actor has no control, format (zero-width, bidi) or unassigned characters';
  if (RESERVED.test(normal.trim())) return `the actor name ${JSON.stringify(normal)} is reserved for the service's own callers (owner, public, mcp, system, router, api, hook:…, token:…, approval:…, webhook)`;
  return null;
}

/**
 * A child's actor under its parent's: "bot-1/night-shift", the same name once when they agree.
 * Null when the stacked name would pass ACTOR_MAX_LENGTH: however many caveats stack, an actor
 * stays a name, never a payload.
 */
export function stackedActor(parent: string | null | undefined, child: string): string | null {
  const stacked = parent === null || parent === undefined || parent === child ? child : `${parent}/${child}`;
  return stacked.length > ACTOR_MAX_LENGTH ? null : stacked;
}
