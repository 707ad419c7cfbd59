// Client metadata, as a client registers it (RFC 7591) or publishes it in a client ID metadata
// document (the MCP authorization spec's URL client ids): checked field by field, the redirect URIs
// strictly (they are where codes go). Everything refused is invalid_redirect_uri or
// invalid_client_metadata, naming the field.
import { actorProblem } from '../access/index.js';
import { OAuthError } from './oauth-error.js';
import type { ClientAuthMethod } from './records.js';
import { parseScope } from './scopes.js';

const AUTH_METHODS: readonly ClientAuthMethod[] = ['none', 'client_secret_basic', 'client_secret_post'];
const GRANT_TYPES = ['authorization_code', 'refresh_token'];
const URL_MAX = 2000;
const NAME_MAX = 200;
const MAX_REDIRECT_URIS = 10;
/** Schemes a browser would run or read locally rather than hand to an app. */
const NEVER_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'about:', 'blob:', 'filesystem:']);
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
/** Text fields kept from the metadata when they are strings (URLs are checked as URLs). */
const URL_FIELDS = ['client_uri', 'logo_uri', 'tos_uri', 'policy_uri'];
const TEXT_FIELDS = ['software_id', 'software_version'];

export interface CheckedClientMetadata {
  name: string;
  redirect_uris: string[];
  auth_method: ClientAuthMethod;
  /** What is kept of the rest, as sent: grant_types, response_types, scope, client_uri… */
  metadata: Record<string, unknown>;
}

/** Why a redirect URI cannot be registered, or null: https, http on a loopback host, or an app's own scheme; never a fragment. */
export function redirectUriProblem(uri: unknown): string | null {
  if (typeof uri !== 'string' || uri.length === 0 || uri.length > URL_MAX) return `a redirect URI is a URL of 1 to ${URL_MAX} characters`;
  if (/[\u0000-\u0020\u007f\\]/.test(uri)) return 'a redirect URI has no spaces, backslashes or control characters';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `${JSON.stringify(uri.slice(0, 80))} is not an absolute URL`;
  }
  if (uri.includes('#')) return 'a redirect URI has no fragment (RFC 6749 §3.1.2)';
  if (NEVER_SCHEMES.has(url.protocol)) return `the ${url.protocol} scheme is not a redirect URI`;
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.host.replace(/:\d+$/, ''))) return 'http redirect URIs are for loopback hosts only (localhost, 127.0.0.1, [::1]); use https';
  if ((url.protocol === 'http:' || url.protocol === 'https:') && (url.username || url.password)) return 'a redirect URI carries no user name or password';
  return null;
}

/** http://127.0.0.1 or http://[::1], an optional port, then the rest: a loopback IP redirect URI. */
const LOOPBACK_IP_URI = /^http:\/\/(127\.0\.0\.1|\[::1\])(?::([0-9]{1,5}))?([/?][^#]*)?$/;

/**
 * Whether an authorization request's redirect_uri is one the client registered: character for
 * character, except that a loopback IP redirect URI (http on 127.0.0.1 or [::1]) matches on any
 * port (RFC 8252 §7.3, OAuth 2.1: a native app listens on the ephemeral port the system gives it).
 * Host, path and query still match exactly; `localhost` is matched exactly (RFC 8252 §8.3).
 */
export function redirectUriMatches(registered: string, asked: string): boolean {
  if (registered === asked) return true;
  const r = LOOPBACK_IP_URI.exec(registered);
  const a = LOOPBACK_IP_URI.exec(asked);
  if (!r || !a || a[2] === undefined || Number(a[2]) < 1 || Number(a[2]) > 65535) return false;
  return r[1] === a[1] && (r[3] ?? '') === (a[3] ?? '') && redirectUriProblem(asked) === null;
}

const metadataError = (message: string) => new OAuthError('invalid_client_metadata', message);

function stringList(value: unknown, field: string, allowed: readonly string[]): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw metadataError(`${field} is a list of strings`);
  const bad = value.find((v) => !allowed.includes(v));
  if (bad !== undefined) throw metadataError(`${field} ${JSON.stringify(bad.slice(0, 60))} is not supported (supported: ${allowed.join(', ')})`);
  return value as string[];
}

/**
 * Checks registration metadata. `defaultAuth` is RFC 7591's default (client_secret_basic) for a
 * registration, and none for a metadata document (it has no secret to share).
 */
export function checkClientMetadata(body: unknown, defaultAuth: ClientAuthMethod): CheckedClientMetadata {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw metadataError('send the client metadata as a JSON object');
  const m = body as Record<string, unknown>;
  const uris = m['redirect_uris'];
  if (!Array.isArray(uris) || uris.length === 0) throw new OAuthError('invalid_redirect_uri', 'redirect_uris is required: a list of the exact URIs codes may be sent to');
  if (uris.length > MAX_REDIRECT_URIS) throw new OAuthError('invalid_redirect_uri', `at most ${MAX_REDIRECT_URIS} redirect_uris`);
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new OAuthError('invalid_redirect_uri', problem);
  }
  const method = m['token_endpoint_auth_method'] ?? defaultAuth;
  if (typeof method !== 'string' || !AUTH_METHODS.includes(method as ClientAuthMethod)) throw metadataError(`token_endpoint_auth_method must be one of ${AUTH_METHODS.join(', ')}`);
  const grantTypes = stringList(m['grant_types'], 'grant_types', GRANT_TYPES);
  if (grantTypes && !grantTypes.includes('authorization_code')) throw metadataError('grant_types must include authorization_code: it is the only way to a first token here');
  const responseTypes = stringList(m['response_types'], 'response_types', ['code']);
  const name = m['client_name'];
  // The owner reads the name on the consent page: no control characters, and no format characters
  // (bidi overrides, zero-width), which would hide or reorder what the owner reads.
  if (name !== undefined && (typeof name !== 'string' || name.trim().length === 0 || name.length > NAME_MAX || /[\p{Cc}\p{Cf}]/u.test(name))) throw metadataError(`client_name is text of 1 to ${NAME_MAX} characters, without control or invisible formatting characters`);
  const scope = m['scope'];
  if (scope !== undefined) {
    if (typeof scope !== 'string') throw metadataError('scope is a space-separated string');
    try {
      parseScope(scope);
    } catch (err) {
      throw metadataError((err as Error).message);
    }
  }
  const metadata: Record<string, unknown> = {};
  if (grantTypes) metadata['grant_types'] = grantTypes;
  if (responseTypes) metadata['response_types'] = responseTypes;
  if (scope !== undefined) metadata['scope'] = scope;
  for (const field of URL_FIELDS) {
    const v = m[field];
    if (v === undefined) continue;
    if (typeof v !== 'string' || v.length > URL_MAX || !/^https?:\/\//i.test(v)) throw metadataError(`${field} is an http(s) URL`);
    metadata[field] = v;
  }
  for (const field of TEXT_FIELDS) {
    const v = m[field];
    if (v === undefined) continue;
    if (typeof v !== 'string' || v.length > NAME_MAX) throw metadataError(`${field} is text of at most ${NAME_MAX} characters`);
    metadata[field] = v;
  }
  return { name: typeof name === 'string' ? name.trim() : 'Unnamed client', redirect_uris: uris as string[], auth_method: method as ClientAuthMethod, metadata };
}

/** True when a client id is a client ID metadata document's URL rather than a registered cl_… id. */
export const isMetadataDocumentId = (id: string): boolean => /^https?:\/\//i.test(id);

/**
 * Why a URL cannot be a client id, or null: https with a path (the MCP spec's rule), or http for a
 * host the operator allowlisted (`allowHttp`); short enough to be the tokens' actor.
 */
export function metadataDocumentIdProblem(id: string, allowHttp: boolean): string | null {
  let url: URL;
  try {
    url = new URL(id);
  } catch {
    return 'not a URL';
  }
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) return 'a client id URL must be https';
  if (url.pathname === '/' || url.hash || url.username || url.password) return 'a client id URL has a path, and no fragment or credentials';
  if (url.href !== id) return 'a client id URL is given in its normal form';
  return actorProblem(id);
}

/** A fetched client ID metadata document, checked: its client_id must be its own URL; it is a public client. */
export function checkMetadataDocument(url: string, document: unknown): CheckedClientMetadata {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) throw metadataError('the client metadata document is not a JSON object');
  if ((document as Record<string, unknown>)['client_id'] !== url) throw metadataError('the client metadata document names another client_id than its own URL');
  const checked = checkClientMetadata(document, 'none');
  if (checked.auth_method !== 'none') throw metadataError('a client metadata document client is public: token_endpoint_auth_method none (private_key_jwt is not supported)');
  return checked;
}
