// `switchyard token narrow <TOKEN> [--keys A,B] [--moves m1,m2] [--expires-in S] [--uses N]
// [--actor T] [--purpose T]`: adds caveats to a share token offline — no server, no key. The
// result can only ever do less than the token it came from.
import { actorProblem, narrowToken, type Caveats } from '@switchyard/core';
import { CliError } from '../client.js';
import type { Output } from './hook.js';

export interface NarrowOptions {
  keys?: string;
  moves?: string;
  expiresIn?: string;
  uses?: string;
  actor?: string;
  purpose?: string;
  json: boolean;
}

const list = (v: string | undefined) => (v === undefined ? undefined : v.split(',').map((x) => x.trim()).filter(Boolean));
const positive = (v: string | undefined, name: string) => {
  if (v === undefined) return undefined;
  if (!/^[1-9][0-9]{0,9}$/.test(v)) throw new CliError('invalid_request', `--${name} must be a positive integer`, 2);
  return Number(v);
};

export function tokenCommand(args: string[], options: NarrowOptions, io: Output, now: () => number = Date.now): void {
  const [sub, token, ...rest] = args;
  if (sub !== 'narrow' || !token || rest.length > 0) throw new CliError('invalid_request', 'usage: switchyard token narrow <TOKEN> [--keys A,B] [--moves m1,m2] [--expires-in S] [--uses N] [--actor T] [--purpose T]', 2);
  const expiresIn = positive(options.expiresIn, 'expires-in');
  const caveats: Caveats = {
    ...(list(options.moves) ? { moves: list(options.moves)! } : {}),
    ...(list(options.keys) ? { keys: list(options.keys)! } : {}),
    ...(options.actor ? { actor: options.actor } : {}),
    ...(options.purpose ? { purpose: options.purpose } : {}),
    ...(expiresIn !== undefined ? { expires: Math.floor(now() / 1000) + expiresIn } : {}),
    ...(positive(options.uses, 'uses') !== undefined ? { uses: positive(options.uses, 'uses')! } : {}),
  };
  // A reserved actor would only make a token every server refuses (token_corrupted): say so now.
  const badActor = options.actor ? actorProblem(options.actor) : null;
  if (badActor) throw new CliError('invalid_request', `--actor: ${badActor}`, 2);
  if (Object.keys(caveats).length === 0) throw new CliError('invalid_request', 'say how to narrow: --keys, --moves, --expires-in, --uses, --actor or --purpose', 2);
  let narrowed: string;
  try {
    narrowed = narrowToken(token, caveats);
  } catch (err) {
    throw new CliError('token_corrupted', (err as Error).message);
  }
  io.out(options.json ? JSON.stringify({ ok: true, token: narrowed }) : narrowed);
}
