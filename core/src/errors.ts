// Coded errors: the one vocabulary every adapter maps to its own protocol (HTTP status, CLI exit, JSON-RPC).

export type ErrorCode =
  | 'unknown_capability'
  | 'invalid_request'
  | 'unsupported_media_type'
  | 'not_found'
  | 'unknown_system'
  | 'invalid_api_key'
  | 'invalid_arguments'
  | 'invalid_repair'
  | 'lineage_closed'
  | 'repair_in_progress'
  | 'rotation_conflict'
  | 'invocation_not_found'
  | 'credential_required'
  | 'approval_required'
  | 'plan_required'
  | 'tool_error'
  | 'cancelled'
  | 'elicitation_unsupported'
  | 'sampling_unsupported'
  | 'roots_unsupported'
  | 'payload_too_large'
  | 'upstream_unavailable'
  | 'upstream_timeout'
  | 'upstream_answer_too_large'
  | 'upstream_not_found'
  | 'upstream_auth_required'
  | 'upstream_auth_failed'
  | 'blocked_address'
  | 'fetch_failed'
  | 'transform_failed'
  | 'webhook_not_found'
  | 'webhook_off'
  | 'signature_invalid'
  | 'token_corrupted'
  | 'token_expired'
  | 'token_revoked'
  | 'token_wrong_resource'
  | 'scope_denied'
  | 'rate_limited'
  | 'approval_expired'
  | 'already_decided'
  | 'already_erased'
  | 'not_erasable'
  | 'entry_pending'
  | 'invalid_article'
  | 'article_exists'
  | 'service_busy'
  | 'session_limit'
  | 'request_timeout'
  | 'headers_too_large'
  | 'database_unavailable'
  | 'tool_definition_too_large'
  | 'tool_changed'
  | 'tool_hash_stale'
  | 'tool_flapping'
  | 'storage_unavailable'
  | 'interrupted'
  | 'idempotency_key_reused'
  | 'idempotency_key_in_progress'
  | 'internal_error';

const BRAND = Symbol.for('switchyard.SwitchyardError');

export class SwitchyardError extends Error {
  readonly [BRAND] = true;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'SwitchyardError';
  }

  /** Works across duplicate copies of this package, unlike instanceof. */
  static is(value: unknown, code?: ErrorCode): value is SwitchyardError {
    const branded = typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
    return branded && (code === undefined || (value as SwitchyardError).code === code);
  }

  toJSON(): { code: ErrorCode; message: string } & Record<string, unknown> {
    return { code: this.code, message: this.message, ...this.details };
  }
}

export const fail = (code: ErrorCode, message: string, details?: Record<string, unknown>): never => {
  throw new SwitchyardError(code, message, details);
};
