// OAuth errors as RFC 6749 §5.2 (and RFC 7591 §3.2.2, RFC 8707 §2) spell them: an error code and a
// description, with the status the RFC gives. They are not SwitchyardErrors: OAuth clients read
// `error` as a string, so the OAuth endpoints answer in this form and nothing else.

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'access_denied'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'temporarily_unavailable'
  | 'server_error';

const BRAND = Symbol.for('switchyard.OAuthError');

export class OAuthError extends Error {
  readonly [BRAND] = true;
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
  ) {
    super(description);
    this.name = 'OAuthError';
  }

  /** 401 for a client that failed to authenticate (RFC 6749 §5.2), 500/503 for ours, else 400. */
  get status(): number {
    if (this.error === 'invalid_client') return 401;
    if (this.error === 'server_error') return 500;
    if (this.error === 'temporarily_unavailable') return 503;
    return 400;
  }

  static is(value: unknown): value is OAuthError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }

  toJSON(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.error, error_description: this.description };
  }
}

export const oauthFail = (error: OAuthErrorCode, description: string): never => {
  throw new OAuthError(error, description);
};
