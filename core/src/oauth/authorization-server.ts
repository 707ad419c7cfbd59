// Switchyard's OAuth 2.1 authorization server, as rules: registration (RFC 7591) and client ID
// metadata documents, the authorization request and the owner's consent, the code exchange with
// PKCE S256, refresh token rotation with family revocation, and revoking grants. The access tokens
// are share tokens (share-token.ts) minted by the TokenIssuer with the consented keys, the client
// as actor, the resource (RFC 8707), the grant and an expiry. Adapters carry requests in and
// answers out; nothing here knows HTTP.
import { SwitchyardError } from '../errors.js';
import type { Clock } from '../clock.js';
import type { ClientMetadataSource, OAuthClientStore, OAuthCodeStore, OAuthGrantStore, OAuthRefreshTokenStore } from './ports.js';
import { GRANT_ID_PATTERN, resourceProblem, type TokenIssuer } from '../access/index.js';
import { checkClientMetadata, checkMetadataDocument, isMetadataDocumentId, metadataDocumentIdProblem, redirectUriMatches } from './client-metadata.js';
import { OAuthError } from './oauth-error.js';
import { checkChallenge, verifierMatches } from './pkce.js';
import type { OAuthClient, OAuthGrant } from './records.js';
import { parseScope, requestedKeys, scopeOf } from './scopes.js';
import { hashSecret, newId, newSecret, secretMatches } from './secrets.js';

export interface OAuthServerOptions {
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  codeTtlSeconds: number;
  /** Whether URL client ids (client ID metadata documents) are accepted. */
  metadataDocuments: boolean;
  /** Whether a metadata document may be served over http (only sensible with an allowlisted test or private host). */
  metadataDocumentsOverHttp: boolean;
  /**
   * Registered clients without a grant kept at most (the newest): registration is open to anyone,
   * so a flood of registrations evicts its own oldest rather than growing the database.
   */
  maxUnconsentedClients: number;
}

export const DEFAULT_OAUTH_OPTIONS: OAuthServerOptions = {
  accessTokenTtlSeconds: 3600,
  refreshTokenTtlSeconds: 30 * 24 * 3600,
  codeTtlSeconds: 120,
  metadataDocuments: true,
  metadataDocumentsOverHttp: false,
  maxUnconsentedClients: 1000,
};

/** A protected resource as the adapter knows it: its URL and the keys of its tools. */
export interface ProtectedResource {
  resource: string;
  keys: string[];
}

/** An authorization request that passed every check: what the consent page shows and the consent decides. */
export interface AuthorizationRequest {
  client: OAuthClient;
  redirect_uri: string;
  state: string | null;
  code_challenge: string;
  resource: string;
  /** The keys asked for (the consent page's boxes, all ticked). */
  keys: string[];
}

/**
 * A refused authorization request: to the client's redirect URI (when the client and the URI are
 * known and match exactly), else an error page: never a redirect anywhere unchecked.
 */
export interface RefusedAuthorization {
  error: OAuthError;
  redirect: string | null;
}

/** How the token endpoint's caller authenticated: HTTP Basic, form fields, or neither. */
export interface ClientCredentials {
  basic: { id: string; secret: string } | null;
  client_id: string | null;
  client_secret: string | null;
}

export interface TokenAnswer {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  /** Absent for a client that registered grant_types without refresh_token. */
  refresh_token?: string;
  scope: string;
}

export interface ClientWithGrants {
  client: OAuthClient;
  grants: OAuthGrant[];
}

/** The parameters of one request: each given at most once (RFC 6749 §3.1), as strings. */
export type Params = Record<string, unknown>;

function param(params: Params, name: string): string | undefined {
  const v = params[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new OAuthError('invalid_request', `${name} is given more than once, or is not text`);
  return v;
}

const REFRESH_PREFIX = 'syr_';
const CODE_PREFIX = 'syc_';
const SECRET_PREFIX = 'sys_';

export class OAuthAuthorizationServer {
  constructor(
    private readonly clients: OAuthClientStore,
    private readonly grants: OAuthGrantStore,
    private readonly codes: OAuthCodeStore,
    private readonly refreshTokens: OAuthRefreshTokenStore,
    private readonly tokens: TokenIssuer,
    private readonly clock: Clock,
    private readonly documents: ClientMetadataSource | null,
    readonly options: OAuthServerOptions = DEFAULT_OAUTH_OPTIONS,
  ) {}

  private nowMs(): number {
    return this.clock.now().getTime();
  }

  private nowIso(): string {
    return this.clock.now().toISOString();
  }

  /** RFC 7591: a new client. Confidential clients get their secret once, here; only its hash is kept. */
  async register(body: unknown): Promise<{ client: OAuthClient; secret: string | null }> {
    const checked = checkClientMetadata(body, 'client_secret_basic');
    const secret = checked.auth_method === 'none' ? null : newSecret(SECRET_PREFIX);
    const client: OAuthClient = { id: newId('cl_'), kind: 'registered', ...checked, secret_hash: secret ? hashSecret(secret) : null, created_at: this.nowIso() };
    await this.clients.add(client);
    await this.clients.pruneUnconsented(this.options.maxUnconsentedClients);
    return { client, secret };
  }

  /**
   * The client a client_id names: a registered one, or a metadata document fetched now (and kept,
   * so the owner sees it listed). Unknown or unusable: invalid_client.
   */
  async client(id: string): Promise<OAuthClient> {
    if (isMetadataDocumentId(id)) return this.documentClient(id);
    const client = id.length <= 64 ? await this.clients.get(id) : undefined;
    if (!client || client.kind !== 'registered') throw new OAuthError('invalid_client', `no client ${JSON.stringify(id.slice(0, 80))} is registered here`);
    return client;
  }

  private async documentClient(url: string): Promise<OAuthClient> {
    if (!this.options.metadataDocuments || !this.documents) throw new OAuthError('invalid_client', 'client ID metadata documents are not accepted here; register the client (RFC 7591)');
    const problem = metadataDocumentIdProblem(url, this.options.metadataDocumentsOverHttp);
    if (problem) throw new OAuthError('invalid_client', `the client id URL cannot be used: ${problem}`);
    let document: unknown;
    try {
      document = await this.documents.fetch(url);
    } catch (err) {
      throw new OAuthError('invalid_client', `the client metadata document could not be fetched: ${(err as Error).message}`);
    }
    let checked;
    try {
      checked = checkMetadataDocument(url, document);
    } catch (err) {
      throw new OAuthError('invalid_client', `the client metadata document is not usable: ${(err as Error).message}`);
    }
    const known = await this.clients.get(url);
    const client: OAuthClient = { id: url, kind: 'metadata_document', ...checked, secret_hash: null, created_at: known?.created_at ?? this.nowIso() };
    await this.clients.put(client);
    return client;
  }

  /**
   * Checks an authorization request (the query of the authorization endpoint). Until the client
   * and its redirect URI are established, a refusal is an error page; after, it goes back to the
   * client with `state`. `resourceOf` names the protected resources (null for one this service does
   * not have); an absent `resource` means `defaultResource`.
   */
  async checkAuthorization(params: Params, issuer: string, defaultResource: string, resourceOf: (resource: string) => ProtectedResource | null): Promise<AuthorizationRequest | RefusedAuthorization> {
    let client: OAuthClient;
    let redirectUri: string;
    try {
      const clientId = param(params, 'client_id');
      if (!clientId) throw new OAuthError('invalid_request', 'client_id is required');
      client = await this.client(clientId);
      const asked = param(params, 'redirect_uri');
      // Exact string match (OAuth 2.1 §2.3.1; a loopback IP's port aside); without one, only a client with a single URI.
      if (asked === undefined && client.redirect_uris.length !== 1) throw new OAuthError('invalid_request', 'redirect_uri is required: this client registered more than one');
      redirectUri = asked ?? client.redirect_uris[0]!;
      if (!client.redirect_uris.some((registered) => redirectUriMatches(registered, redirectUri))) throw new OAuthError('invalid_request', 'redirect_uri does not match any URI the client registered (exact match; a loopback IP may change its port)');
    } catch (err) {
      if (OAuthError.is(err)) return { error: err, redirect: null };
      throw err;
    }
    let state: string | null = null;
    try {
      state = param(params, 'state') ?? null;
    } catch (err) {
      return { error: err as OAuthError, redirect: null };
    }
    const back = (error: OAuthError): RefusedAuthorization => ({ error, redirect: redirectWith(redirectUri, { error: error.error, error_description: error.description, state, iss: issuer }) });
    try {
      const responseType = param(params, 'response_type');
      if (responseType !== 'code') throw new OAuthError(responseType === undefined ? 'invalid_request' : 'unsupported_response_type', 'response_type must be code');
      const challenge = checkChallenge(param(params, 'code_challenge'), param(params, 'code_challenge_method'));
      const asked = param(params, 'resource') ?? defaultResource;
      const problem = resourceProblem(asked);
      if (problem) throw new OAuthError('invalid_target', problem);
      const resource = resourceOf(asked);
      if (!resource) throw new OAuthError('invalid_target', `${asked.slice(0, 200)} is not a resource of this service (its MCP servers are)`);
      const keys = requestedKeys(parseScope(param(params, 'scope')), resource.keys);
      if (keys.length === 0) throw new OAuthError('invalid_scope', 'this resource has no tools to grant');
      return { client, redirect_uri: redirectUri, state, code_challenge: challenge, resource: resource.resource, keys };
    } catch (err) {
      if (OAuthError.is(err)) return back(err);
      throw err;
    }
  }

  /**
   * The owner's decision. Allow with the ticked keys (a subset of those asked: consent only
   * narrows) records a grant and a single-use code; deny, or nothing ticked, is access_denied.
   * Answers where to send the browser: the client's redirect URI with code or error, and state.
   */
  async decide(request: AuthorizationRequest, decision: 'allow' | 'deny', ticked: string[], issuer: string): Promise<string> {
    const keys = request.keys.filter((k) => ticked.includes(k));
    if (decision === 'deny' || keys.length === 0) {
      return redirectWith(request.redirect_uri, { error: 'access_denied', error_description: decision === 'deny' ? 'the owner denied the request' : 'the owner allowed no tool', state: request.state, iss: issuer });
    }
    const grant: OAuthGrant = { id: newId('gr_'), client_id: request.client.id, resource: request.resource, moves: ['invoke:*'], keys, created_at: this.nowIso(), revoked_at: null, revoked_reason: null };
    await this.grants.add(grant);
    const code = newSecret(CODE_PREFIX);
    await this.codes.add({
      code_hash: hashSecret(code),
      client_id: request.client.id,
      grant_id: grant.id,
      redirect_uri: request.redirect_uri,
      code_challenge: request.code_challenge,
      resource: request.resource,
      expires_at: this.nowMs() + this.options.codeTtlSeconds * 1000,
      used_at: null,
    });
    return redirectWith(request.redirect_uri, { code, state: request.state, iss: issuer });
  }

  /** The token endpoint (RFC 6749 §3.2): authorization_code with PKCE, or refresh_token. */
  async token(params: Params, credentials: ClientCredentials): Promise<TokenAnswer> {
    const client = await this.authenticate(credentials);
    const grantType = param(params, 'grant_type');
    if (grantType === 'authorization_code') return this.exchangeCode(params, client);
    if (grantType === 'refresh_token') {
      if (!mayRefresh(client)) throw new OAuthError('unauthorized_client', 'this client registered grant_types without refresh_token');
      return this.refresh(params, client);
    }
    throw new OAuthError(grantType === undefined ? 'invalid_request' : 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
  }

  /** RFC 6749 §2.3: a public client names itself; a confidential one proves its secret (Basic or form). */
  private async authenticate(c: ClientCredentials): Promise<OAuthClient> {
    if (c.basic && c.client_id !== null && c.client_id !== c.basic.id) throw new OAuthError('invalid_request', 'client_id differs from the client authenticated by HTTP Basic');
    if (c.basic && c.client_secret !== null) throw new OAuthError('invalid_request', 'use one client authentication method: HTTP Basic or client_secret in the form');
    const id = c.basic?.id ?? c.client_id;
    if (!id) throw new OAuthError('invalid_client', 'client authentication is required: client_id (public clients) or the client secret');
    let client: OAuthClient;
    try {
      client = isMetadataDocumentId(id) ? await this.knownDocumentClient(id) : await this.client(id);
    } catch (err) {
      if (OAuthError.is(err)) throw new OAuthError('invalid_client', err.description);
      throw err;
    }
    const secret = c.basic?.secret ?? c.client_secret;
    if (client.auth_method === 'none') {
      if (secret !== null) throw new OAuthError('invalid_client', 'this client is public (token_endpoint_auth_method none) and has no secret');
      return client;
    }
    if (secret === null || !client.secret_hash || !secretMatches(secret, client.secret_hash)) throw new OAuthError('invalid_client', 'the client secret is missing or wrong');
    return client;
  }

  /** A metadata-document client at the token endpoint: as fetched at authorization (no fetch per token). */
  private async knownDocumentClient(id: string): Promise<OAuthClient> {
    const client = await this.clients.get(id);
    if (!client) throw new OAuthError('invalid_client', 'this client has not been through authorization here');
    return client;
  }

  private async exchangeCode(params: Params, client: OAuthClient): Promise<TokenAnswer> {
    const code = param(params, 'code');
    const redirectUri = param(params, 'redirect_uri');
    const verifier = param(params, 'code_verifier');
    const resource = param(params, 'resource');
    if (!code) throw new OAuthError('invalid_request', 'code is required');
    if (verifier === undefined) throw new OAuthError('invalid_request', 'code_verifier is required (PKCE)');
    // Claimed before anything else is checked: a code is spent by its first presentation, right or wrong.
    const claimed = await this.codes.claim(hashSecret(code), this.nowIso());
    if (claimed.kind === 'unknown') throw new OAuthError('invalid_grant', 'the authorization code is not valid');
    const record = claimed.record;
    if (claimed.kind === 'used') {
      // RFC 6749 §4.1.2: a code used twice may have been stolen; the tokens issued on it go too.
      await this.grants.revoke(record.grant_id, this.nowIso(), 'code_reuse');
      throw new OAuthError('invalid_grant', 'the authorization code was already used; the grant it made has been revoked');
    }
    if (record.expires_at <= this.nowMs()) throw new OAuthError('invalid_grant', 'the authorization code has expired');
    if (record.client_id !== client.id) throw new OAuthError('invalid_grant', 'the authorization code was issued to another client');
    // OAuth 2.1 §4.1.3: required when the authorization request named it; left out of both, it was the client's only URI.
    const sameRedirect = redirectUri === undefined ? client.redirect_uris.length === 1 && client.redirect_uris[0] === record.redirect_uri : redirectUri === record.redirect_uri;
    if (!sameRedirect) throw new OAuthError('invalid_grant', 'redirect_uri must be the one of the authorization request');
    if (!verifierMatches(verifier, record.code_challenge)) throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge (PKCE S256)');
    if (resource !== undefined && !sameResourceIndicator(resource, record.resource)) throw new OAuthError('invalid_target', 'resource must be the one of the authorization request');
    return this.issue(record.grant_id, client);
  }

  private async refresh(params: Params, client: OAuthClient): Promise<TokenAnswer> {
    const presented = param(params, 'refresh_token');
    const resource = param(params, 'resource');
    if (!presented) throw new OAuthError('invalid_request', 'refresh_token is required');
    const claimed = await this.refreshTokens.claim(hashSecret(presented), this.nowIso());
    if (claimed.kind === 'unknown') throw new OAuthError('invalid_grant', 'the refresh token is not valid');
    const record = claimed.record;
    if (claimed.kind === 'used') {
      // Rotation: each refresh token is used once. A second use means two parties hold it: the
      // whole family (the grant, its access and refresh tokens) is revoked.
      await this.grants.revoke(record.grant_id, this.nowIso(), 'refresh_token_reuse');
      throw new OAuthError('invalid_grant', 'the refresh token was already used; the grant it belongs to has been revoked');
    }
    if (record.client_id !== client.id) throw new OAuthError('invalid_grant', 'the refresh token was issued to another client');
    if (record.expires_at <= this.nowMs()) throw new OAuthError('invalid_grant', 'the refresh token has expired');
    const grant = await this.grants.get(record.grant_id);
    if (resource !== undefined && grant && !sameResourceIndicator(resource, grant.resource)) throw new OAuthError('invalid_target', 'resource must be the one the grant is for');
    return this.issue(record.grant_id, client);
  }

  /** A fresh access token (a share token) and refresh token under a live grant. */
  private async issue(grantId: string, client: OAuthClient): Promise<TokenAnswer> {
    const grant = await this.grants.get(grantId);
    if (!grant || grant.revoked_at !== null) throw new OAuthError('invalid_grant', 'the grant has been revoked by the owner');
    const expires = Math.floor(this.nowMs() / 1000) + this.options.accessTokenTtlSeconds;
    const { token } = this.tokens.mintGranted({ moves: grant.moves, keys: grant.keys, actor: client.id, resource: grant.resource, grant: grant.id, expires });
    const answer: TokenAnswer = { access_token: token, token_type: 'Bearer', expires_in: this.options.accessTokenTtlSeconds, scope: scopeOf(grant.keys) };
    // A client that did not register for refresh tokens gets none: no 30-day credential it never asked for.
    if (!mayRefresh(client)) return answer;
    const refresh = newSecret(REFRESH_PREFIX);
    await this.refreshTokens.add({ token_hash: hashSecret(refresh), grant_id: grant.id, client_id: client.id, created_at: this.nowIso(), expires_at: this.nowMs() + this.options.refreshTokenTtlSeconds * 1000, used_at: null });
    // Rotation adds a row per refresh; the grant's expired ones go as it adds (one indexed delete).
    await this.refreshTokens.pruneExpired(grant.id, this.nowMs());
    return { ...answer, refresh_token: refresh };
  }

  /** Every client with its grants, newest first (the owner's view). */
  async list(limit = 500): Promise<ClientWithGrants[]> {
    const [clients, grants] = await Promise.all([this.clients.list(limit), this.grants.list(limit * 4)]);
    return clients.map((client) => ({ client, grants: grants.filter((g) => g.client_id === client.id) }));
  }

  /** The owner revokes a grant: its tokens are refused from the next request on, on every process. */
  async revoke(id: string): Promise<OAuthGrant> {
    const grant = GRANT_ID_PATTERN.test(id) ? await this.grants.get(id) : undefined;
    if (!grant) throw new SwitchyardError('not_found', `no grant ${id.slice(0, 80)}`, { id: id.slice(0, 80) });
    if (grant.revoked_at === null) await this.grants.revoke(id, this.nowIso(), 'owner');
    return (await this.grants.get(id))!;
  }
}

/**
 * Whether a resource indicator names the resource a code or grant is for, spelled as the
 * authorization endpoint reads it: scheme and host in any case, a trailing slash aside; the path
 * otherwise exactly, and no query or fragment.
 */
export function sameResourceIndicator(given: string, recorded: string): boolean {
  if (given === recorded) return true;
  let a: URL;
  let b: URL;
  try {
    a = new URL(given);
    b = new URL(recorded);
  } catch {
    return false;
  }
  const path = (u: URL) => u.pathname.replace(/\/$/, '');
  return !a.search && !a.hash && !given.includes('#') && a.origin === b.origin && path(a) === path(b) && !b.search;
}

/** Whether a client may hold refresh tokens: unless it registered grant_types without refresh_token (none registered: the registration answer listed both). */
const mayRefresh = (client: OAuthClient): boolean => {
  const types = client.metadata['grant_types'];
  return !Array.isArray(types) || types.includes('refresh_token');
};

/** The redirect URI with the answer's parameters added to its query (RFC 6749 §4.1.2), nulls left out. */
export function redirectWith(uri: string, values: Record<string, string | null>): string {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(values)) if (v !== null) url.searchParams.set(k, v);
  return url.toString();
}
