// Upstreams that sign in with OAuth. The SDK's client auth does the protocol (discovery from
// WWW-Authenticate and protected resource metadata, dynamic registration or client ID metadata
// documents, PKCE, client credentials, private_key_jwt, scope step-up); this file gives it an
// OAuthClientProvider backed by the shared, sealed credential store, and owns refreshing: each
// refresh runs under the upstream's lease, so two processes never spend one rotating refresh token.
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { auth, discoverOAuthServerInfo, extractWWWAuthenticateParams, refreshAuthorization, selectResourceURL, type OAuthClientProvider, type OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import { createPrivateKeyJwtAuth } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { InvalidClientError, InvalidGrantError, UnauthorizedClientError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { SwitchyardError, tokenNeedsRefresh, type UpstreamAuthState, type UpstreamCredentialStore, type UpstreamOAuth, type UpstreamOAuthGrant, type UpstreamOAuthStatus } from '@switchyard/core';
import { metadataIssuerProblem, responseIssuerProblem } from './issuer-checks.js';
import type { CredentialSealer } from './upstream-auth-sealer.js';

/** upstreams.servers.<name>.oauth */
export interface UpstreamOAuthConfig {
  grant: UpstreamOAuthGrant;
  /** A client registered with the authorization server beforehand; without it the client registers itself (or uses clientMetadataUrl). */
  clientId?: string;
  clientSecret?: string;
  /** client_credentials with private_key_jwt: a PEM private key (PKCS#8) and its algorithm, instead of a secret. */
  privateKey?: string;
  algorithm?: string;
  /** Asked when the upstream does not say which scopes it wants. */
  scope?: string;
  /** The HTTPS URL of this client's metadata document, used as its client_id where the server supports it. */
  clientMetadataUrl?: string;
  clientName?: string;
}

export interface OAuthUpstream {
  name: string;
  url: string;
  oauth: UpstreamOAuthConfig;
}

/** The sealed record: everything about one upstream's sign-in. */
interface CredentialRecord {
  client?: OAuthClientInformationMixed;
  /** The redirect URI the stored client registered; another one means registering again. */
  clientRedirectUri?: string;
  tokens?: OAuthTokens;
  /** The registration the tokens were issued to (a later Connect may register anew and be abandoned). */
  tokensClient?: OAuthClientInformationMixed;
  obtainedAt?: number;
  discovery?: OAuthDiscoveryState;
  redirectUri?: string;
  /** The scope the upstream last asked for (a 401 or a 403 insufficient_scope): the next Connect asks for it. */
  wantedScope?: string;
  /** The scope the stored tokens were granted (or asked for): a later Connect asks for it too (SEP-2350). */
  grantedScope?: string;
  /** A Connect under way; `scope` is what it asked for. */
  pending?: { state: string; verifier: string; redirectUri: string; expiresAt: number; scope?: string };
}

interface Loaded {
  record: CredentialRecord;
  version: number | null;
  state: UpstreamAuthState;
}

/** How long a refresh may hold the lease; a holder that dies frees it after this. */
const LEASE_MS = 15_000;
/** How long the owner has between Connect and the authorization server's answer. */
const CONNECT_TTL_MS = 10 * 60_000;
const WAIT_STEP_MS = 100;

type Mode = { kind: 'service' } | { kind: 'connect'; state: string; redirectUri: string; captured?: URL } | { kind: 'exchange' };

export interface UpstreamOAuthClientsOptions {
  /** Where the owner connects upstreams (named in upstream_auth_required). */
  connectUrl: string;
  /** The HTTP client for authorization servers and the upstream. */
  fetch?: FetchLike;
  now?: () => number;
}

export class UpstreamOAuthClients implements UpstreamOAuth {
  private readonly sessions = new Map<string, UpstreamAuthSession>();

  constructor(
    upstreams: OAuthUpstream[],
    store: UpstreamCredentialStore,
    /** Null only when no upstream signs in with OAuth. */
    sealer: CredentialSealer | null,
    private readonly options: UpstreamOAuthClientsOptions,
  ) {
    const holder = randomUUID();
    if (upstreams.length > 0 && !sealer) throw new Error('upstreams that sign in with OAuth need a key to seal their credentials');
    for (const u of upstreams) this.sessions.set(u.name, new UpstreamAuthSession(u, store, sealer!, holder, options));
  }

  has(name: string): boolean {
    return this.sessions.has(name);
  }

  /** What the MCP transport of this upstream signs in with (its requests to the upstream go through `inner`). Refuses at once an authorization-code upstream that is not connected. */
  async transportAuth(name: string, inner?: FetchLike): Promise<{ authProvider: OAuthClientProvider; fetch: FetchLike }> {
    const session = this.session(name);
    await session.ready();
    return { authProvider: session.provider({ kind: 'service' }), fetch: session.fetchVia(inner) };
  }

  async list(): Promise<UpstreamOAuthStatus[]> {
    const out = await Promise.all([...this.sessions.values()].map((session) => session.status()));
    return out.sort((a, b) => a.name.localeCompare(b.name));
  }

  async begin(name: string, redirectUri: string, state: string): Promise<string> {
    return this.session(name).begin(redirectUri, state);
  }

  async complete(name: string, state: string, code: string, iss: string | null = null): Promise<void> {
    return this.session(name).complete(state, code, iss);
  }

  private session(name: string): UpstreamAuthSession {
    const session = this.sessions.get(name);
    if (!session) throw new SwitchyardError('upstream_not_found', `no upstream named ${JSON.stringify(name)} signs in with OAuth`, { name, upstreams: [...this.sessions.keys()].sort() });
    return session;
  }
}

/** One upstream's sign-in: its record (cached, reread when refused), its provider and its fetch. */
class UpstreamAuthSession {
  private cached: Loaded | null = null;
  private refreshing: Promise<void> | null = null;
  private readonly url: URL;
  private readonly now: () => number;
  private readonly http: FetchLike;

  constructor(
    private readonly upstream: OAuthUpstream,
    private readonly store: UpstreamCredentialStore,
    private readonly sealer: CredentialSealer,
    private readonly holder: string,
    private readonly options: UpstreamOAuthClientsOptions,
  ) {
    this.url = new URL(upstream.url);
    this.now = options.now ?? Date.now;
    this.http = options.fetch ?? ((url, init) => fetch(url, init));
  }

  private get config(): UpstreamOAuthConfig {
    return this.upstream.oauth;
  }

  private authRequired(reason: string): SwitchyardError {
    return new SwitchyardError('upstream_auth_required', `upstream ${this.upstream.name} signs in with OAuth and ${reason}: the owner connects it at ${this.options.connectUrl}`, {
      upstream: this.upstream.url,
      server: this.upstream.name,
      connect_url: this.options.connectUrl,
    });
  }

  private authFailed(reason: string): SwitchyardError {
    return new SwitchyardError('upstream_auth_failed', `upstream ${this.upstream.name} was not connected: ${reason}`, {
      upstream: this.upstream.url,
      server: this.upstream.name,
      connect_url: this.options.connectUrl,
    });
  }

  /** RFC 8414 §3.3: metadata that names another issuer than the one it was fetched for is never used (its endpoints could be anyone's). */
  checkDiscovery(discovery: OAuthDiscoveryState): void {
    if (!discovery.authorizationServerMetadata) return;
    const problem = metadataIssuerProblem(discovery.authorizationServerUrl, discovery.authorizationServerMetadata.issuer);
    if (problem) throw this.authFailed(problem);
  }

  async load(): Promise<Loaded> {
    const stored = await this.store.get(this.upstream.name);
    if (!stored) return (this.cached = { record: {}, version: null, state: 'not_connected' });
    let record: CredentialRecord;
    try {
      record = JSON.parse(this.sealer.open(stored.sealed, this.upstream.name)) as CredentialRecord;
    } catch (err) {
      throw new SwitchyardError('upstream_auth_required', `the stored credentials of upstream ${this.upstream.name} cannot be opened (${(err as Error).message}); check upstreams.oauthKeys, or connect it again at ${this.options.connectUrl}`, {
        upstream: this.upstream.url,
        server: this.upstream.name,
        connect_url: this.options.connectUrl,
      });
    }
    this.cached = { record, version: stored.version, state: stored.state };
    // Sealed with a key that is no longer the newest: written again with the newest (key rotation).
    if (this.sealer.isStale(stored.sealed)) await this.update((r, state) => ({ record: r, state })).catch(() => {});
    return this.cached;
  }

  private async current(): Promise<Loaded> {
    return this.cached ?? this.load();
  }

  /** Applies `change` to the latest record and writes it; on a lost race, reads again and applies it again. */
  private async update(change: (record: CredentialRecord, state: UpstreamAuthState) => { record: CredentialRecord; state: UpstreamAuthState } | null): Promise<void> {
    for (let attempt = 0; attempt < 10; attempt++) {
      const loaded = attempt === 0 ? await this.current() : await this.load();
      const next = change(structuredClone(loaded.record), loaded.state);
      if (!next) return;
      const sealed = this.sealer.seal(JSON.stringify(next.record), this.upstream.name);
      if (await this.store.put(this.upstream.name, sealed, next.state, loaded.version)) {
        this.cached = { record: next.record, version: (loaded.version ?? 0) + 1, state: next.state };
        return;
      }
    }
    throw new SwitchyardError('service_busy', `the credentials of upstream ${this.upstream.name} kept changing while being written`);
  }

  async ready(): Promise<void> {
    if (this.config.grant !== 'authorization_code') return;
    if ((await this.current()).record.tokens) return;
    // Not connected as far as this process knows: another process may have connected it since.
    const { record, state } = await this.load();
    if (record.tokens) return;
    throw this.authRequired(state === 'reconnect' ? 'its authorization server refused the stored tokens' : 'the owner has not connected it yet');
  }

  async status(): Promise<UpstreamOAuthStatus> {
    const stored = await this.store.get(this.upstream.name);
    let state: UpstreamAuthState = stored?.state ?? 'not_connected';
    if (this.config.grant === 'client_credentials' && state === 'not_connected' && stored) state = 'connected';
    return { name: this.upstream.name, grant: this.config.grant, state, updated_at: stored?.updatedAt ?? null };
  }

  async begin(redirectUri: string, state: string): Promise<string> {
    if (this.config.grant !== 'authorization_code') {
      throw new SwitchyardError('invalid_request', `upstream ${this.upstream.name} signs in with client credentials: there is nothing for the owner to connect`, { server: this.upstream.name });
    }
    // A client registered for another redirect URI (the public address changed) registers again.
    // Discovery starts afresh: the upstream may name another authorization server now (SEP-2352);
    // the SDK then registers anew, as a client stamped with the old issuer is not presented to it.
    await this.update((record, s) => {
      const moved = record.clientRedirectUri && record.clientRedirectUri !== redirectUri;
      if (!moved && !record.discovery) return null;
      const { discovery: _rediscovered, ...rest } = record;
      return { record: moved ? { ...rest, client: undefined, clientRedirectUri: undefined } : rest, state: s };
    });
    const mode: Mode = { kind: 'connect', state, redirectUri };
    let result: string;
    try {
      const asked = await this.askedFor();
      const { record } = await this.load();
      // SEP-2350: what was granted before is asked for again with what the upstream asks for now.
      const wantedScope = unionOfScopes(record.grantedScope, record.wantedScope ?? asked.scope);
      result = await auth(this.provider(mode), {
        serverUrl: this.url,
        fetchFn: this.http,
        ...(wantedScope ? { scope: wantedScope } : {}),
        ...(asked.resourceMetadataUrl ? { resourceMetadataUrl: asked.resourceMetadataUrl } : {}),
      });
    } catch (err) {
      if (SwitchyardError.is(err)) throw err;
      throw new SwitchyardError('upstream_unavailable', `cannot start connecting upstream ${this.upstream.name}: ${(err as Error).message}`, { upstream: this.upstream.url, server: this.upstream.name });
    }
    if (result !== 'REDIRECT' || !mode.captured) throw new SwitchyardError('upstream_unavailable', `upstream ${this.upstream.name}'s authorization server did not ask for consent`, { server: this.upstream.name });
    // What this consent asks for: the tokens it brings are taken to have been granted it, unless they say otherwise.
    const scope = mode.captured.searchParams.get('scope');
    if (scope) await this.update((record, s) => (record.pending?.state === state ? { record: { ...record, pending: { ...record.pending, scope } }, state: s } : null));
    return mode.captured.href;
  }

  /**
   * What the upstream's 401 says (RFC 9728 resource_metadata, the scope it wants), as a client that
   * knows only its URL learns it: by sending an unauthenticated initialize, and when that is let
   * through (or refused as the wrong era), the tools/list a client sends next: some servers guard
   * only the requests after initialize, and their challenge names the scope to start with.
   */
  private async askedFor(): Promise<{ resourceMetadataUrl?: URL; scope?: string }> {
    const probes = [
      { method: 'initialize', params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'switchyard', version: '0.1.0' } } },
      { method: 'tools/list', params: {} },
    ];
    for (const probe of probes) {
      const response = await this.http(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 0, ...probe }),
      });
      await response.body?.cancel();
      if (response.status !== 401) continue;
      const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
      return { ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}), ...(scope ? { scope } : {}) };
    }
    return {};
  }

  async complete(state: string, code: string, iss: string | null): Promise<void> {
    const { record } = await this.load();
    const pending = record.pending;
    if (!pending || !sameText(pending.state, state)) throw new SwitchyardError('invalid_request', `this answer for upstream ${this.upstream.name} does not match the connection started here: start again`, { server: this.upstream.name });
    if (pending.expiresAt < this.now()) throw new SwitchyardError('invalid_request', `connecting upstream ${this.upstream.name} took too long: start again`, { server: this.upstream.name });
    // RFC 9207: checked against the metadata Connect used, before the code goes anywhere. A refused
    // answer ends this connection: its code is never exchanged.
    // (RFC 9207's metadata field postdates the SDK's type; its schema keeps unknown fields.)
    const metadata = record.discovery?.authorizationServerMetadata as { issuer?: string; authorization_response_iss_parameter_supported?: unknown } | undefined;
    const problem = responseIssuerProblem(metadata?.issuer, metadata?.authorization_response_iss_parameter_supported === true, iss);
    if (problem) {
      await this.update((r, s) => (r.pending?.state === pending.state ? { record: { ...r, pending: undefined }, state: s } : null));
      throw this.authFailed(problem);
    }
    try {
      const result = await auth(this.provider({ kind: 'exchange' }), { serverUrl: this.url, authorizationCode: code, fetchFn: this.http });
      if (result !== 'AUTHORIZED') throw new Error('no tokens were issued');
    } catch (err) {
      if (SwitchyardError.is(err)) throw err;
      throw new SwitchyardError('upstream_auth_required', `upstream ${this.upstream.name}'s authorization server refused the code: ${(err as Error).message}`, { server: this.upstream.name, connect_url: this.options.connectUrl });
    }
  }

  /** The provider the SDK's auth() drives: what it reads and writes goes to the sealed record. */
  provider(mode: Mode): OAuthClientProvider {
    const session = this;
    const config = this.config;
    const interactive = config.grant === 'authorization_code';
    const redirectUrl = (): string | undefined => {
      if (!interactive) return undefined;
      if (mode.kind === 'connect') return mode.redirectUri;
      return session.cached?.record.pending?.redirectUri ?? session.cached?.record.redirectUri ?? session.options.connectUrl;
    };
    const privateKeyJwt = config.grant === 'client_credentials' && config.privateKey && config.clientId
      ? createPrivateKeyJwtAuth({ issuer: config.clientId, subject: config.clientId, privateKey: config.privateKey, alg: config.algorithm ?? 'RS256' })
      : undefined;
    const provider: OAuthClientProvider = {
      get redirectUrl() {
        return redirectUrl();
      },
      get clientMetadata(): OAuthClientMetadata {
        const url = redirectUrl();
        // SEP-837: a registration says what kind of client it is; ours is a web server with its own
        // callback. (The v1 SDK's type predates the field; it sends the metadata as given.)
        const metadata: OAuthClientMetadata & { application_type: 'web' } = {
          client_name: config.clientName ?? 'Switchyard',
          application_type: 'web',
          redirect_uris: url ? [url] : [],
          grant_types: interactive ? ['authorization_code', 'refresh_token'] : ['client_credentials'],
          response_types: interactive ? ['code'] : [],
          token_endpoint_auth_method: privateKeyJwt ? 'private_key_jwt' : config.clientSecret ? 'client_secret_basic' : 'none',
          ...(config.scope ? { scope: config.scope } : {}),
        };
        return metadata;
      },
      ...(config.clientMetadataUrl ? { clientMetadataUrl: config.clientMetadataUrl } : {}),
      state: () => (mode.kind === 'connect' ? mode.state : randomUUID()),
      clientInformation: async () => {
        if (config.clientId) return { client_id: config.clientId, ...(config.clientSecret ? { client_secret: config.clientSecret } : {}) };
        return (await session.current()).record.client;
      },
      saveClientInformation: async (info) => {
        if (config.clientId) return;
        const uri = redirectUrl();
        await session.update((record, state) => ({ record: { ...record, client: info, ...(uri ? { clientRedirectUri: uri } : {}) }, state }));
      },
      // The refresh token stays with us: refreshing runs under the lease (refresh()), never inside the SDK.
      tokens: async () => {
        if (mode.kind === 'connect') return undefined;
        const tokens = (await session.current()).record.tokens;
        if (!tokens) return undefined;
        const { refresh_token: _kept, ...rest } = tokens;
        return rest as OAuthTokens;
      },
      saveTokens: (tokens) => session.saveTokens(tokens),
      redirectToAuthorization: async (url) => {
        if (mode.kind === 'connect') {
          mode.captured = url;
          return;
        }
        // Asked for consent while serving a call: the stored tokens are gone, refused or too narrow.
        const wantedScope = url.searchParams.get('scope') ?? undefined;
        await session.update((record, state) => (state === 'connected' || wantedScope !== record.wantedScope ? { record: { ...record, tokens: undefined, ...(wantedScope ? { wantedScope } : {}) }, state: state === 'not_connected' ? state : 'reconnect' } : null));
        throw session.authRequired('its authorization server asks for the owner\'s consent again');
      },
      saveCodeVerifier: async (verifier) => {
        if (mode.kind !== 'connect') return;
        const pending = { state: mode.state, verifier, redirectUri: mode.redirectUri, expiresAt: session.now() + CONNECT_TTL_MS };
        await session.update((record, state) => ({ record: { ...record, pending }, state }));
      },
      codeVerifier: async () => {
        const verifier = (await session.current()).record.pending?.verifier;
        if (!verifier) throw session.authRequired('no connection is in progress');
        return verifier;
      },
      ...(privateKeyJwt ? { addClientAuthentication: privateKeyJwt } : {}),
      ...(interactive
        ? {}
        : {
            prepareTokenRequest: (scope?: string) => {
              const params = new URLSearchParams({ grant_type: 'client_credentials' });
              const wanted = scope ?? config.scope;
              if (wanted) params.set('scope', wanted);
              return params;
            },
          }),
      invalidateCredentials: async (scope) => {
        await session.update((record, state) => {
          const next = { ...record };
          if (scope === 'all' || scope === 'client') {
            delete next.client;
            delete next.clientRedirectUri;
          }
          if (scope === 'all' || scope === 'tokens') delete next.tokens;
          if (scope === 'all' || scope === 'discovery') delete next.discovery;
          return { record: next, state };
        });
      },
      discoveryState: async () => (await session.current()).record.discovery,
      // The SDK saves what it discovered before it registers or sends anyone to consent: refused here, nothing is used.
      saveDiscoveryState: async (discovery) => {
        session.checkDiscovery(discovery);
        await session.update((record, state) => (JSON.stringify(record.discovery) === JSON.stringify(discovery) ? null : { record: { ...record, discovery }, state }));
      },
    };
    return provider;
  }

  private async saveTokens(tokens: OAuthTokens): Promise<void> {
    const obtainedAt = this.now();
    await this.update((record) => {
      // A refresh answer without a refresh token keeps the one we have (same authorization server only).
      const keep = !tokens.refresh_token && record.tokens?.refresh_token && record.tokens.issuer === tokens.issuer ? { refresh_token: record.tokens.refresh_token } : {};
      const redirectUri = record.pending?.redirectUri ?? record.redirectUri;
      // An answer without scope was granted what was asked (RFC 6749 §5.1).
      const grantedScope = tokens.scope || record.pending?.scope || record.grantedScope;
      const { pending: _done, ...rest } = record;
      return { record: { ...rest, tokens: { ...tokens, ...keep }, obtainedAt, ...(grantedScope ? { grantedScope } : {}), ...(record.client ? { tokensClient: record.client } : {}), ...(redirectUri ? { redirectUri } : {}) }, state: 'connected' };
    });
  }

  /**
   * The upstream's requests carry the stored access token, refreshed first when it has expired; a
   * 401 refreshes it (under the lease) and sends the request once more. Requests to anything else
   * (authorization servers) pass through.
   */
  fetchVia(inner: FetchLike = this.http): FetchLike {
    return (input, init) => this.send(inner, input, init);
  }

  private async send(inner: FetchLike, input: string | URL, init: RequestInit | undefined): Promise<Response> {
    const target = new URL(String(input));
    if (target.origin !== this.url.origin || target.pathname !== this.url.pathname) return this.http(input, init);
    let { record } = await this.current();
    if (record.tokens?.refresh_token && tokenNeedsRefresh(record.obtainedAt ?? 0, record.tokens.expires_in, this.now())) {
      await this.refresh(record.tokens.access_token);
      record = (await this.current()).record;
    }
    const used = record.tokens?.access_token;
    const send = (token: string | undefined) => {
      const headers = new Headers(init?.headers);
      if (token) headers.set('authorization', `Bearer ${token}`);
      return inner(input, { ...init, headers });
    };
    const response = await send(used);
    if (response.status !== 401 || !used) return response;
    await this.refresh(used);
    const next = (await this.current()).record.tokens?.access_token;
    if (!next || next === used) {
      // Refused and nothing newer: the SDK's auth() takes it from here (new client credentials token, or consent again).
      return response;
    }
    await response.body?.cancel();
    return send(next);
  }

  /** Refreshes the token `used` once, in this process and across processes: whoever holds the lease refreshes; the others wait and read its result. */
  private refresh(used: string): Promise<void> {
    this.refreshing ??= this.refreshOnce(used).finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async refreshOnce(used: string): Promise<void> {
    const deadline = this.now() + LEASE_MS;
    while (!(await this.store.lease(this.upstream.name, this.holder, LEASE_MS))) {
      if ((await this.load()).record.tokens?.access_token !== used || this.now() > deadline) return;
      await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
    }
    try {
      const { record } = await this.load();
      const tokens = record.tokens;
      // Another process refreshed while we waited, or there is nothing to refresh with.
      if (!tokens || tokens.access_token !== used || !tokens.refresh_token) return;
      const info = record.discovery?.authorizationServerUrl ? record.discovery : await discoverOAuthServerInfo(this.url, { fetchFn: this.http });
      this.checkDiscovery(info);
      const provider = this.provider({ kind: 'service' });
      const clientInformation = this.config.clientId ? await provider.clientInformation() : (record.tokensClient ?? record.client);
      if (!clientInformation) return;
      const selected = await selectResourceURL(this.url, provider, info.resourceMetadata);
      const resource = selected && info.resourceMetadata ? info.resourceMetadata.resource : selected;
      try {
        const fresh = await refreshAuthorization(info.authorizationServerUrl, {
          metadata: info.authorizationServerMetadata,
          clientInformation,
          refreshToken: tokens.refresh_token,
          ...(resource ? { resource: new URL(String(resource)) } : {}),
          ...(provider.addClientAuthentication ? { addClientAuthentication: provider.addClientAuthentication } : {}),
          fetchFn: this.http,
        });
        await this.saveTokens({ ...fresh, ...(tokens.issuer ? { issuer: tokens.issuer } : {}) } as OAuthTokens);
      } catch (err) {
        if (!(err instanceof InvalidGrantError || err instanceof InvalidClientError || err instanceof UnauthorizedClientError)) throw err;
        // The refresh token was revoked or has lapsed: for authorization code the owner connects again.
        const reconnect = this.config.grant === 'authorization_code';
        await this.update((r, state) => (r.tokens?.access_token === used ? { record: { ...r, tokens: undefined }, state: reconnect ? 'reconnect' : state } : null));
      }
    } finally {
      await this.store.release(this.upstream.name, this.holder);
    }
  }
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The scopes of both, each once, in the order first named (undefined when neither names any). */
export function unionOfScopes(...scopes: Array<string | undefined>): string | undefined {
  const all = [...new Set(scopes.flatMap((s) => (s ?? '').split(' ').filter(Boolean)))];
  return all.length > 0 ? all.join(' ') : undefined;
}
