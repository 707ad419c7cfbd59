// A record of one use of a share token (allowed or denied), as the ledger of token uses keeps it.

/** One use of a share token: what it asked for and whether it was allowed. */
export interface TokenUse {
  id: string;
  fingerprint: string;
  move: string;
  outcome: 'allowed' | 'denied';
  /** The error code of a denial (scope_denied, credential_required…), null when allowed. */
  code: string | null;
  /** Method and path of the request, without the token. */
  route: string;
  at: string;
}
