// Who is asking: the credential a request arrived with, reduced to what dispatch needs to decide.
export interface Caller {
  /** Free text naming the caller: "owner", "hook:hk_…", a token's actor. */
  actor: string;
  /** Short public fingerprint of the credential, or null for the owner's API key. */
  fingerprint: string | null;
  /** Owners may run auth-required capabilities; keyless callers never may. */
  mayRunAuthRequired: boolean;
}

export const OWNER: Caller = { actor: 'owner', fingerprint: null, mayRunAuthRequired: true };
