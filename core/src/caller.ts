// Who is asking: the credential a request arrived with, reduced to what dispatch needs to decide.
export interface Caller {
  /** Free text naming the caller: "owner", "hook:hk_…", a token's actor. */
  actor: string;
  /** Short public fingerprint of the credential, or null for the owner's API key. */
  fingerprint: string | null;
  /**
   * The owner and the tokens the owner minted may ask to run auth-required capabilities (those
   * that also need approval wait for it); keyless callers never may.
   */
  mayRunAuthRequired: boolean;
}

export const OWNER: Caller = { actor: 'owner', fingerprint: null, mayRunAuthRequired: true };
