// Upstreams that sign in with OAuth (upstreams.servers.<name>.oauth): their sign-in clients, with
// the sealing keys (upstreams.oauthKeys) checked at start so a missing or bad key stops the boot.
import { CredentialSealer, UpstreamOAuthClients, type OAuthUpstream } from '@switchyard/mcp';
import type { UpstreamCredentialStore } from '@switchyard/core';
import { ConfigError, type Config } from './config.js';

/** Where the owner connects upstreams: on the public address when one is set. */
export const UPSTREAM_CONNECT_PATH = '/dashboard/upstreams';

export function upstreamOAuthClients(config: Config, store: UpstreamCredentialStore): UpstreamOAuthClients {
  const upstreams: OAuthUpstream[] = [];
  for (const [name, server] of Object.entries(config.upstreams.servers ?? {})) {
    if (!server.oauth) continue;
    if (server.transport !== 'streamable-http') throw new ConfigError(`upstreams.servers.${name}.oauth`, 'OAuth sign-in works over the streamable-http transport only');
    const { grant, privateKey, clientId, clientSecret } = server.oauth;
    if (grant === 'client_credentials' && !clientId) throw new ConfigError(`upstreams.servers.${name}.oauth.clientId`, 'client_credentials needs the client registered with the authorization server: its clientId');
    if (grant === 'client_credentials' && !clientSecret && !privateKey) throw new ConfigError(`upstreams.servers.${name}.oauth`, 'client_credentials needs clientSecret or privateKey');
    if (privateKey && grant !== 'client_credentials') throw new ConfigError(`upstreams.servers.${name}.oauth.privateKey`, 'private_key_jwt is for client_credentials');
    upstreams.push({ name, url: server.url!, oauth: server.oauth });
  }
  let sealer: CredentialSealer | null = null;
  if (upstreams.length > 0) {
    const keys = config.upstreams.oauthKeys ?? [];
    if (keys.length === 0) throw new ConfigError('upstreams.oauthKeys', `upstream ${upstreams[0]!.name} signs in with OAuth: set a key to seal its credentials (SWITCHYARD_UPSTREAM_OAUTH_KEYS=kid:$(openssl rand -base64 32))`);
    try {
      sealer = new CredentialSealer(keys);
    } catch (err) {
      throw new ConfigError('upstreams.oauthKeys', (err as Error).message);
    }
  }
  const base = config.server.publicBaseUrl?.replace(/\/+$/, '') ?? '';
  return new UpstreamOAuthClients(upstreams, store, sealer, { connectUrl: `${base}${UPSTREAM_CONNECT_PATH}` });
}
