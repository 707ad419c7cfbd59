// The records of the authorization server: registered clients, the owner's grants (consents), and
// the codes and refresh tokens issued under them. Codes, refresh tokens and client secrets are kept
// only as SHA-256 hashes: a leaked database holds nothing a caller could present.

export type ClientAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post';

export interface OAuthClient {
  /** cl_… when registered (RFC 7591); the document's https URL for a client ID metadata document. */
  id: string;
  kind: 'registered' | 'metadata_document';
  name: string;
  redirect_uris: string[];
  auth_method: ClientAuthMethod;
  /** SHA-256 (hex) of the client secret; null for public clients. */
  secret_hash: string | null;
  /** The rest of the client's metadata as registered (client_uri, logo_uri, scope, grant_types…). */
  metadata: Record<string, unknown>;
  created_at: string;
}

/** One consent of the owner: a client may act on one resource with these keys until revoked. */
export interface OAuthGrant {
  id: string;
  client_id: string;
  resource: string;
  /** The moves of its tokens (always invoke:* today) and the keys they are cut to. */
  moves: string[];
  keys: string[];
  created_at: string;
  revoked_at: string | null;
  /** Why it was revoked: owner, refresh_token_reuse, code_reuse. */
  revoked_reason: string | null;
}

export interface OAuthCode {
  code_hash: string;
  client_id: string;
  grant_id: string;
  redirect_uri: string;
  /** PKCE S256 challenge (base64url of the verifier's SHA-256). */
  code_challenge: string;
  resource: string;
  /** Unix milliseconds. */
  expires_at: number;
  used_at: string | null;
}

export interface OAuthRefreshToken {
  token_hash: string;
  grant_id: string;
  client_id: string;
  created_at: string;
  /** Unix milliseconds. */
  expires_at: number;
  used_at: string | null;
}

/** What claiming a single-use record found: it, already used (a replay), or nothing. */
export type Claimed<T> = { kind: 'claimed'; record: T } | { kind: 'used'; record: T } | { kind: 'unknown' };
