// Who is asking: the credential a request arrived with (the principal), and what dispatch records
// and decides from it. Built by the access policy (access-policy.ts), never by hand in a face.
import type { TokenScope } from './share-token.js';

/** A credential, as the access policy reasons about it. */
export type Principal =
  | { kind: 'owner' }
  | { kind: 'token'; scope: TokenScope }
  | { kind: 'public' }
  /** A webhook's action address: whoever holds the address, running that action. */
  | { kind: 'hook'; hookId: string };

export interface Caller {
  /** Free text naming the caller: "owner", "hook:hk_…", a token's actor. */
  actor: string;
  /** Short public fingerprint of the credential, or null for the owner's API key and webhooks. */
  fingerprint: string | null;
  /**
   * The owner and the tokens the owner minted may ask to run auth-required capabilities (those
   * that also need approval wait for it); keyless callers never may.
   */
  mayRunAuthRequired: boolean;
  /** The credential itself: what replay and repair ask the policy about. */
  principal: Principal;
}

export const OWNER: Caller = { actor: 'owner', fingerprint: null, mayRunAuthRequired: true, principal: { kind: 'owner' } };
