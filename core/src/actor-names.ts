// Actor names: free text a caller gives itself, except the names the service writes for its own
// callers (the owner, webhooks, the MCP face, the system), which nobody may claim.
export const ACTOR_MAX_LENGTH = 200;

/** Names the service uses, alone or followed by ":" or "/" (hook:hk_…, token:fp_…, approval:apr_…). */
const RESERVED = /^(owner|public|mcp|system|router|api|hook|token|approval|webhook)(?:$|[:/])/i;

/** True when `name` is (or starts as) a name the service writes itself. */
export const isReservedActor = (name: string): boolean => RESERVED.test(name.trim());

/** Why a caller-given actor cannot be used, or null when it can. */
export function actorProblem(name: string): string | null {
  if (name.length === 0 || name.length > ACTOR_MAX_LENGTH) return `an actor is text of 1 to ${ACTOR_MAX_LENGTH} characters`;
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'an actor has no control characters';
  if (isReservedActor(name)) return `the actor name ${JSON.stringify(name)} is reserved for the service's own callers (owner, public, mcp, system, router, api, hook:…, token:…, approval:…, webhook)`;
  return null;
}
