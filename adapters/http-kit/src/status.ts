// The one table from coded errors to HTTP status.
import type { ErrorCode } from '@switchyard/core';

export const HTTP_STATUS: Record<ErrorCode, number> = {
  unknown_capability: 404,
  invalid_request: 400,
  unsupported_media_type: 415,
  not_found: 404,
  unknown_system: 404,
  invalid_api_key: 401,
  invalid_arguments: 422,
  invalid_repair: 422,
  lineage_closed: 409,
  // Another repair of the same failure is running now: retry once it has ended (it may close the lineage).
  repair_in_progress: 409,
  rotation_conflict: 409,
  invocation_not_found: 404,
  credential_required: 401,
  approval_required: 403,
  plan_required: 403,
  tool_error: 422,
  // The caller withdrew the call (nginx's 499: client closed request).
  cancelled: 499,
  // The upstream asked the caller something its client cannot answer.
  elicitation_unsupported: 422,
  sampling_unsupported: 422,
  roots_unsupported: 422,
  payload_too_large: 413,
  upstream_unavailable: 502,
  upstream_timeout: 504,
  // The upstream answered more than dispatch.maxResultBytes: read no further.
  upstream_answer_too_large: 502,
  upstream_not_found: 404,
  // The upstream signs in with OAuth and the owner has not connected it (or must again): nothing ran.
  upstream_auth_required: 503,
  // Its authorization server failed a check it is held to (RFC 8414 issuer, RFC 9207 iss): nothing was exchanged or kept.
  upstream_auth_failed: 502,
  blocked_address: 403,
  fetch_failed: 502,
  // Only ever a forwarding attempt's error in the ledger (a destination's transform failed): nothing was sent.
  transform_failed: 422,
  webhook_not_found: 404,
  webhook_off: 403,
  signature_invalid: 401,
  token_corrupted: 401,
  token_expired: 401,
  token_revoked: 401,
  token_wrong_resource: 401,
  scope_denied: 403,
  rate_limited: 429,
  approval_expired: 410,
  already_decided: 409,
  // Erasure (docs/proofs.md#erasure): once per entry, payload entries only, after the entry is in the tree.
  already_erased: 409,
  not_erasable: 422,
  entry_pending: 409,
  invalid_article: 422,
  article_exists: 409,
  service_busy: 503,
  // An MCP session holds as many subscriptions, or this process as many sessions, as config allows.
  session_limit: 429,
  request_timeout: 408,
  headers_too_large: 431,
  database_unavailable: 503,
  // An upstream listed a tool definition past the size that is pinned: the upstream's fault.
  tool_definition_too_large: 502,
  // The tool's definition changed upstream (or it is new, or gone) and the owner has not approved it.
  tool_changed: 409,
  // An approval named a hash that is not the one held for review (the upstream changed again).
  tool_hash_stale: 409,
  // The held definition changed on each of the last refreshes: an approval waits until it holds still.
  tool_flapping: 409,
  // A write the request needs did not go in (unreachable, read-only or full): retry after a while.
  storage_unavailable: 503,
  // A run whose outcome never reached the ledger (only ever a stored record's error, never an answer's).
  interrupted: 503,
  // The same Idempotency-Key with another request; the first run under the key has not ended.
  idempotency_key_reused: 422,
  idempotency_key_in_progress: 409,
  internal_error: 500,
};

export const statusFor = (code: ErrorCode): number => HTTP_STATUS[code] ?? 500;
