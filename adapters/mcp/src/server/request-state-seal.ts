// The requestState a 2026-07-28 face mints when a run waits for its caller's input: what names the
// paused call, sealed with HMAC-SHA256 under a key every service process shares. The caller holds
// it and echoes it back; it is attacker-controlled input on return, so it is opened only when its
// MAC holds, it has not expired, and it was minted for the same credential (bound as a keyed tag,
// never in clear). It carries no answers and no arguments, only their digest.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** What a requestState says: which paused run, which of its rounds, for whom, for which call. */
export interface RequestStateClaims {
  /** The paused run's id, random, unique to the process that holds it. */
  run: string;
  /** The round the caller answers: each is answered once, so a replayed state finds its round gone. */
  round: number;
  /** The process holding the run: a retry that reaches another one is told so. */
  process: string;
  /** The tool called and a digest of its arguments: the retry must be the same call. */
  tool: string;
  args: string;
  /** Expiry, milliseconds since the epoch. */
  exp: number;
  /**
   * A forwarded request's (prompts/get, resources/read): the upstream's own requestState, carried
   * inside ours so the caller's echo reaches it (forwarded-input.ts); `tool` then names the method.
   */
  upstream?: string;
}

const VERSION = 'sy1';
const b64url = (b: Buffer): string => b.toString('base64url');

/** The digest of a call's arguments a requestState is bound to (keys in any order digest alike). */
export function argumentsDigest(args: unknown): string {
  return b64url(createHash('sha256').update(canonical(args)).digest()).slice(0, 22);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export class RequestStateSeal {
  constructor(
    private readonly key: Uint8Array,
    private readonly now: () => number = Date.now,
  ) {
    if (key.length < 32) throw new RangeError('the requestState key must be at least 32 bytes');
  }

  private mac(text: string): Buffer {
    return createHmac('sha256', this.key).update(text).digest();
  }

  /** The holder as a keyed tag: the caller's credential is bound without appearing in the state. */
  private holderTag(holder: string): string {
    return b64url(this.mac(`holder\0${holder}`).subarray(0, 16));
  }

  /** `sy1.<claims>.<mac>`, base64url; the MAC covers the claims and the holder's tag. */
  seal(claims: RequestStateClaims, holder: string): string {
    const body = b64url(Buffer.from(JSON.stringify({ ...claims, h: this.holderTag(holder) })));
    return `${VERSION}.${body}.${b64url(this.mac(`${VERSION}.${body}`))}`;
  }

  /** The claims of a state this seal minted for `holder` that has not expired; throws naming why not. */
  open(state: string, holder: string): RequestStateClaims {
    const [version, body, mac] = state.split('.');
    if (version !== VERSION || !body || !mac) throw new Error('malformed');
    const expected = this.mac(`${VERSION}.${body}`);
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new Error('mac');
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as RequestStateClaims & { h: string };
    if (claims.exp <= this.now()) throw new Error('expired');
    const tag = Buffer.from(this.holderTag(holder));
    const bound = Buffer.from(String(claims.h));
    if (tag.length !== bound.length || !timingSafeEqual(tag, bound)) throw new Error('bind');
    const { h: _tag, ...rest } = claims;
    return rest;
  }
}
