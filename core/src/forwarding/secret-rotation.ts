// Rotating a destination's signing secret: a new secret at once, and for a grace period every
// attempt signed with both, so a receiver can switch to the new one at its own pace.
import { SwitchyardError } from '../errors.js';
import type { Destination } from './destination.js';

export const DEFAULT_GRACE_S = 86_400;
export const MAX_GRACE_S = 7 * 86_400;

const hint = `send {"grace_s": seconds from 0 to ${MAX_GRACE_S}} (default ${DEFAULT_GRACE_S}): how long attempts are signed with the old secret too`;

/** Checks a rotation request: {} or {grace_s}. */
export function readRotation(payload: unknown): { grace_s: number } {
  if (payload === undefined || payload === null) return { grace_s: DEFAULT_GRACE_S };
  if (typeof payload !== 'object' || Array.isArray(payload)) throw new SwitchyardError('invalid_request', hint);
  const p = payload as Record<string, unknown>;
  const extra = Object.keys(p).filter((k) => k !== 'grace_s');
  if (extra.length > 0) throw new SwitchyardError('invalid_request', `${extra[0]}: is not a rotation setting; ${hint}`, { field: extra[0]! });
  const g = p['grace_s'];
  if (g === undefined) return { grace_s: DEFAULT_GRACE_S };
  if (typeof g !== 'number' || !Number.isInteger(g) || g < 0 || g > MAX_GRACE_S) throw new SwitchyardError('invalid_request', `grace_s: ${hint}`, { field: 'grace_s' });
  return { grace_s: g };
}

/** The secrets an attempt at `now` is signed with: the current one, and the one before during its grace. */
export function signingSecrets(d: Pick<Destination, 'secret' | 'previous_secret' | 'previous_secret_until'>, now: number): string[] {
  return d.previous_secret && d.previous_secret_until && Date.parse(d.previous_secret_until) > now ? [d.secret, d.previous_secret] : [d.secret];
}
