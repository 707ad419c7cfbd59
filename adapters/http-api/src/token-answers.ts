// What the token endpoints answer: the token, what it allows, and next-step URLs with the token
// filled in, so a reader can go on without assembling a URL.
import { PUBLIC_MOVES, SwitchyardError, allowedMoves, type SelfScoped, type TokenScope } from '@switchyard/core';
import type { Needs } from '@switchyard/http-kit';
import type { Credential } from '@switchyard/http-kit';
import { didYouMeanLinks } from './presenters.js';

/** What this module uses of the HTTP context: it receives nothing else. */
type Ctx = Needs<'apiKeys' | 'tokenUses' | 'tokens'>;

const iso = (seconds: number | null) => (seconds === null ? null : new Date(seconds * 1000).toISOString());

export async function scopeView(ctx: Ctx, scope: TokenScope): Promise<Record<string, unknown>> {
  const used = scope.uses === null ? null : await ctx.tokenUses.usesClaimed(scope.fingerprint);
  return {
    fingerprint: scope.fingerprint,
    moves: allowedMoves(scope),
    keys: scope.keys,
    actor: scope.actor,
    purpose: scope.purpose,
    workspace: scope.workspace,
    role: scope.role,
    expires_at: iso(scope.expires),
    uses: scope.uses,
    uses_left: scope.uses === null ? null : Math.max(0, scope.uses - used!),
    caveats: scope.caveats,
  };
}

/** Next-step URLs for a token: explain, the registry, the map, self_scope and a run_now example. */
export function nextSteps(ctx: Ctx, baseUrl: string, token: string, scope: TokenScope): Record<string, string> {
  const t = encodeURIComponent(token);
  const example = (scope.keys ?? ctx.tokens.publicKeys())[0];
  return {
    explain: `${baseUrl}/api/dispatch?explain=1&share=${t}`,
    registry: `${baseUrl}/api/dispatch?registry=1&share=${t}`,
    map: `${baseUrl}/api/dispatch?map=1&format=markdown&share=${t}`,
    self_scope: `${baseUrl}/api/dispatch?self_scope=1&keys=<KEY,KEY>&purpose=<text>&actor=<text>&narrow=1&share=${t}`,
    ...(example ? { run_now: `${baseUrl}/api/dispatch?invoke=${encodeURIComponent(example)}&body=<arg1>&share=${t}` } : {}),
    proven_work: `${baseUrl}/api/proven-work`,
  };
}

export async function minted(ctx: Ctx, baseUrl: string, token: string, scope: TokenScope): Promise<Record<string, unknown>> {
  return { ok: true, token, ...(await scopeView(ctx, scope)), next: nextSteps(ctx, baseUrl, token, scope) };
}

export async function explainAnswer(ctx: Ctx, credential: Credential, baseUrl: string): Promise<Record<string, unknown>> {
  if (credential.kind === 'owner') return { ok: true, credential: 'owner', moves: ['*'], note: 'the API key may make every move' };
  if (credential.kind === 'public') return { ok: true, credential: 'public', moves: [...PUBLIC_MOVES], note: 'without a credential: read contracts and confirmations; GET /start mints a token that may run the public capabilities', start: `${baseUrl}/start` };
  return { ok: true, credential: 'token', ...(await scopeView(ctx, credential.scope)), next: nextSteps(ctx, baseUrl, credential.token, credential.scope) };
}

/** Refused keys as answered: an unknown key's nearest keys as links to their contracts. */
const refusedView = (refused: SelfScoped['refused'], baseUrl: string) =>
  refused.map((r) => (r.did_you_mean ? { ...r, did_you_mean: didYouMeanLinks(r.did_you_mean, baseUrl) } : r));

export async function selfScopeAnswer(
  ctx: Ctx,
  credential: Credential,
  baseUrl: string,
  options: { keys: string[]; purpose: string | null; actor: string | null; narrow: boolean },
): Promise<Record<string, unknown>> {
  const parent = options.narrow && credential.kind === 'token' ? credential : null;
  let result: SelfScoped;
  try {
    result = ctx.tokens.selfScope(options.keys, { ...options, parent: parent?.token ?? null });
  } catch (err) {
    if (SwitchyardError.is(err) && Array.isArray(err.details['refused'])) throw new SwitchyardError(err.code, err.message, { ...err.details, refused: refusedView(err.details['refused'] as SelfScoped['refused'], baseUrl) });
    throw err;
  }
  return { ...(await minted(ctx, baseUrl, result.token, result.scope)), granted: result.granted, refused: refusedView(result.refused, baseUrl), narrowed_from: parent ? parent.scope.fingerprint : null };
}
