// The self-description block: every field of the spec's table, computed per capability and base URL.
import { pathText, type Capability } from './capability.js';
import type { JsonSchema } from '../json-schema.js';

export interface SelfDescription {
  Path: string;
  Capability: string;
  run_now: string;
  'Example call': string;
  'type · runner': string;
  inputs: JsonSchema;
  outputs: Record<string, string>;
  'auth · risk': string;
  /** The router tag form, and where text holding it is sent. */
  'From the router': string;
}

export const OUTPUTS: Record<string, string> = {
  ok: 'boolean: true when the capability ran and succeeded',
  error: 'only when ok is false: the coded error {code, message, …}, the same as invocation.error',
  result: "the capability's output (null when not ok)",
  invocation: 'the ledgered invocation record',
  yield: 'tokens {in, out}, cost (micro-units), material (bytes), waste {bytes, cost}',
  _self: "this capability's self-description",
};

const DESCRIPTION_CUT = 160;

export const shortDescription = (text: string): string =>
  text.length <= DESCRIPTION_CUT ? text : `${text.slice(0, DESCRIPTION_CUT - 1).trimEnd()}…`;

export const exampleBody = (c: Capability): string =>
  typeof c.example === 'string' ? c.example : JSON.stringify(c.example);

/** run_now: a dispatch GET; `<arg1>` stands for the url-encoded arguments, `<TOKEN>` for a share token. */
export function runNowUrl(c: Capability, baseUrl: string, token?: string): string {
  return `${baseUrl}/api/dispatch?invoke=${encodeURIComponent(c.key)}&body=<arg1>&share=${token ? encodeURIComponent(token) : '<TOKEN>'}`;
}

export function authRisk(c: Capability): string {
  return [c.auth, c.risk, ...(c.approval ? ['approval required'] : [])].join(' · ');
}

export function describe(c: Capability, baseUrl: string, token?: string): SelfDescription {
  const server = c.type === 'tool' && c.upstreamUrl ? ` (tool server: ${c.upstreamUrl})` : '';
  return {
    Path: pathText(c),
    Capability: `${c.key}: ${shortDescription(c.description)}${server}`,
    run_now: runNowUrl(c, baseUrl, token),
    'Example call': `[${c.key}]${exampleBody(c)}[/${c.key}]`,
    'type · runner': `${c.type} · ${c.runner}`,
    inputs: c.inputs,
    outputs: OUTPUTS,
    'auth · risk': authRisk(c),
    'From the router': `[${c.key}]<args>[/${c.key}] in text sent to POST ${baseUrl}/api/route`,
  };
}
