// JSON shapes the API answers with: run results, contracts, did_you_mean links.
import { SwitchyardError, describe, type Capability, type DispatchOutcome } from '@switchyard/core';

export interface RunAnswer {
  ok: boolean;
  /** Only when ok is false: the run's coded error (the same as invocation.error), as every ok:false answer has. */
  error?: NonNullable<DispatchOutcome['invocation']['error']>;
  result: unknown;
  invocation: DispatchOutcome['invocation'];
  yield: DispatchOutcome['invocation']['yield'];
  _self: ReturnType<typeof describe>;
}

/**
 * Every run answers these five fields, failed and refused runs included; one that is not ok also
 * carries the top-level `error` every ok:false answer has (the same as invocation.error).
 */
export const runAnswer = (outcome: DispatchOutcome, baseUrl: string, token?: string): RunAnswer => ({
  ok: outcome.invocation.ok,
  ...(outcome.invocation.ok || !outcome.invocation.error ? {} : { error: outcome.invocation.error }),
  result: outcome.invocation.result,
  invocation: outcome.invocation,
  yield: outcome.invocation.yield,
  _self: describe(outcome.capability, baseUrl, token),
});

export const contractUrl = (baseUrl: string, key: string, markdown = false): string =>
  `${baseUrl}/api/dispatch?key=${encodeURIComponent(key)}${markdown ? '&format=markdown' : ''}`;

export const didYouMeanLinks = (keys: string[], baseUrl: string): { key: string; contract: string }[] =>
  keys.map((key) => ({ key, contract: contractUrl(baseUrl, key) }));

/** The links every unknown-key answer carries: the nearest keys' contracts, an ask query, the registry. */
export const unknownKeyLinks = (key: string, suggestions: string[], baseUrl: string) => ({
  did_you_mean: didYouMeanLinks(suggestions, baseUrl),
  ask: `${baseUrl}/api/dispatch?ask=${encodeURIComponent(key)}`,
  registry: `${baseUrl}/api/dispatch?registry=1`,
});

/** Unknown keys become 404s whose did_you_mean entries are links, never a guess; other errors pass. */
export function withKeyLinks(err: unknown, baseUrl: string): unknown {
  // A held tool's answer links its review where the owner reads it.
  if (SwitchyardError.is(err, 'tool_changed') && typeof err.details['review'] === 'string' && err.details['review'].startsWith('/')) {
    return new SwitchyardError('tool_changed', err.message, { ...err.details, review: `${baseUrl}${err.details['review']}` });
  }
  if (!SwitchyardError.is(err, 'unknown_capability')) return err;
  const key = String(err.details['key'] ?? '');
  const keys = (err.details['did_you_mean'] as string[] | undefined) ?? [];
  return new SwitchyardError('unknown_capability', err.message, { ...err.details, ...unknownKeyLinks(key, keys, baseUrl) });
}

/** run_now links carry the token the request presented, so a reader can follow them as they are. */
/**
 * What an MCP tool says of itself beyond its inputs (an imported tool's exactly as its upstream
 * listed it); only what is declared. An imported tool adds the hash of that definition, pinned in the ledger.
 */
export const toolMetadata = (c: Capability) => ({
  ...(c.definition_hash !== undefined ? { definition_hash: c.definition_hash } : {}),
  ...(c.title !== undefined ? { title: c.title } : {}),
  ...(c.annotations !== undefined ? { annotations: c.annotations } : {}),
  ...(c.outputSchema !== undefined ? { output_schema: c.outputSchema } : {}),
  ...(c.meta !== undefined ? { _meta: c.meta } : {}),
});

export const contractJson = (c: Capability, baseUrl: string, token?: string) => ({
  key: c.key,
  path: c.path,
  system: c.system,
  description: c.description,
  type: c.type,
  runner: c.runner,
  body_format: c.bodyFormat,
  inputs: c.inputs,
  auth: c.auth,
  risk: c.risk,
  approval: c.approval ? 'required' : 'no',
  limits: c.limits ?? {},
  example: c.example,
  upstream: c.upstreamUrl ?? null,
  ...toolMetadata(c),
  contract_markdown: contractUrl(baseUrl, c.key, true),
  self: describe(c, baseUrl, token),
});
