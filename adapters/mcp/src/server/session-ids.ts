// The mcp-session-id a 2025 caller is given at initialize: self-authenticating, so any service
// process can tell, with no shared memory, that the service issued it and to which credential.
//   sy2.<flags>.<random>.<holder tag>.<mac>
// The flags say what the caller's client declared (elicitation, sampling); the holder tag is a
// keyed digest of the credential's share key (the owner, or the token's fingerprint), never the
// credential; the MAC covers all of it. The keys are derived from the share tokens' root keys
// (TokenIssuer.derivedKeys), so every process that verifies tokens checks ids alike, and a root
// key's rotation keeps the ids minted under the old one good as long as it still verifies.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** What the caller's MCP client said it can answer, at initialize. */
export interface CallerCapabilities {
  elicitation: boolean;
  sampling: boolean;
}

export const NO_CALLER_CAPABILITIES: CallerCapabilities = { elicitation: false, sampling: false };

/** The label the session id keys are derived under. */
export const SESSION_ID_KEY_LABEL = 'mcp-session-id';

const PREFIX = 'sy2';
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What a presented id is: ours for this credential, ours for another one, or not one the service issued. */
export type SessionIdCheck = 'ours' | 'another' | 'unknown';

/** The capabilities a session id declares (read only from an id checked first); none for anything else. */
export function capabilitiesOf(sessionId: string | undefined): CallerCapabilities {
  const parts = sessionId?.split('.') ?? [];
  if (parts.length !== 5 || parts[0] !== PREFIX) return NO_CALLER_CAPABILITIES;
  return { elicitation: parts[1]!.includes('e'), sampling: parts[1]!.includes('s') };
}

export class SessionIds {
  /** The first key mints; every one verifies. */
  constructor(private readonly keys: Uint8Array[]) {
    if (keys.length === 0 || keys.some((k) => k.length < 32)) throw new RangeError('session id keys must be at least 32 bytes, and one is needed');
  }

  /**
   * The session id for a caller of `holder` (its share key) that sent `initialize` with these
   * params. Nothing is stored: the random part keeps callers' in-flight request ids apart.
   */
  issue(initializeParams: unknown, holder: string): string {
    const declared = isObject(initializeParams) && isObject(initializeParams['capabilities']) ? initializeParams['capabilities'] : {};
    const flags = `${declared['elicitation'] !== undefined ? 'e' : ''}${declared['sampling'] !== undefined ? 's' : ''}` || '-';
    const key = this.keys[0]!;
    const body = `${PREFIX}.${flags}.${randomBytes(16).toString('base64url')}.${tagOf(key, holder)}`;
    return `${body}.${macOf(key, body)}`;
  }

  /** Whether `sessionId` was issued by the service, and to `holder`. */
  check(sessionId: string, holder: string): SessionIdCheck {
    const parts = sessionId.split('.');
    if (parts.length !== 5 || parts[0] !== PREFIX) return 'unknown';
    const body = parts.slice(0, 4).join('.');
    for (const key of this.keys) {
      if (!same(parts[4]!, macOf(key, body))) continue;
      return same(parts[3]!, tagOf(key, holder)) ? 'ours' : 'another';
    }
    return 'unknown';
  }
}

const digest = (key: Uint8Array, text: string, bytes: number): string => createHmac('sha256', key).update(text).digest().subarray(0, bytes).toString('base64url');
const tagOf = (key: Uint8Array, holder: string): string => digest(key, `holder\0${holder}`, 12);
const macOf = (key: Uint8Array, body: string): string => digest(key, `id\0${body}`, 16);

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
