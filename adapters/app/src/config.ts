// Configuration: config/default.json, merged with SWITCHYARD_CONFIG's file, then env overrides,
// validated against config/schema.json at boot. A bad value stops the start and names its key.
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { Ajv } from 'ajv';
import type { ToolOverride } from '@switchyard/core';
import type { UpstreamOAuthConfig } from '@switchyard/mcp';
import { dialectOfUrl } from '@switchyard/storage-knex';
import { CONFIG_DIR } from './paths.js';

export interface PluginConfig {
  enabled?: boolean;
  /** The plugin package: a path (relative to the working directory) or a package name; default @switchyard/plugin-<name>. */
  from?: string;
  [option: string]: unknown;
}

/** What a process runs: HTTP and background work (all), HTTP only (api), background work only (worker). */
export type Role = 'all' | 'api' | 'worker';

export interface Config {
  role: Role;
  server: {
    host: string;
    port: number;
    /** Proxies whose X-Forwarded-For names the client: addresses, CIDR ranges, or loopback/linklocal/uniquelocal. */
    trustedProxies: string[];
    publicBaseUrl: string | null;
    bodyLimitBytes: number;
    bodyBudgetBytes: number;
    bodyTimeoutMs: number;
    retryAfterSeconds: number;
    maxHeaders: number;
    maxHeaderBytes: number;
  };
  database: { url: string };
  log: { level: 'debug' | 'info' | 'warn' | 'error' | 'silent' };
  auth: { apiKey?: string | null };
  dispatch: { timeoutMs: number; maxArgumentDepth: number; blobThresholdBytes?: number; runLeaseMs?: number; maxResultBytes?: number };
  webhooks: {
    bodyLimitBytes: number;
    refusedBodyBytes: number;
    forwarding?: { allow?: string[]; pollMs?: number; leaseMs?: number; concurrency?: number; perDestinationConcurrency?: number; circuitFailures?: number; circuitCooldownMs?: number };
  };
  approvals: { ttlSeconds: number };
  /** OAuth 2.1 for the MCP faces (all optional; defaults in core's DEFAULT_OAUTH_OPTIONS). */
  oauth?: { accessTokenTtlSeconds?: number; refreshTokenTtlSeconds?: number; codeTtlSeconds?: number; maxUnconsentedClients?: number; clientMetadata?: { enabled?: boolean; allow?: string[]; allowHttp?: boolean } };
  tokens: { rootKeys: Array<{ kid: string; secret: string }>; mintPerMinute: number; workspaces: string[] };
  /** Erasure on a schedule (docs/proofs.md#erasure); absent: private payloads are kept. */
  retention?: { privateDays?: number | null; intervalMs?: number };
  ledger: { origin: string; signingKey?: string | null; commitmentKey?: string | null; integrateIntervalMs: number; leafWorker: boolean; inlineBodyBytes: number; pageBytes: number; witnesses?: Array<{ name: string; vkey: string; url: string }>; witnessTimeoutMs?: number };
  upstreams: { connectTimeoutMs?: number; listTimeoutMs?: number; servers?: Record<string, UpstreamServerConfig>; oauthKeys?: Array<{ kid: string; secret: string }> };
  /** The MCP faces: accepted Host and Origin values, tools/list page size, named virtual servers. */
  mcp: { allowedHosts: string[]; allowedOrigins: string[]; pageSize: number; cacheTtlMs: number; virtualServers: Record<string, { description?: string; tools: string[] }>; sessions: { maxSessions: number; maxPerCredential: number; keyedReserve: number; maxSubscriptions: number; idleMs: number; streamIdleMs: number }; pausedCalls: { max: number; maxPerCredential: number; ttlMs: number } };
  simulators: { host?: string };
  /** Published articles: one <slug>.md per article. */
  content: { folder: string };
  /** GET /metrics: public, or the owner's API key. */
  metrics: { public: boolean };
  plugins: Record<string, PluginConfig>;
}

export interface ImportedToolPolicyConfig {
  auth?: 'none' | 'required';
  risk?: 'low' | 'high';
  approval?: boolean;
}

/** upstreams.servers.<name>: an MCP server whose tools are imported as capabilities of `system`. */
export interface UpstreamServerConfig {
  system: string;
  transport: 'stdio' | 'sse' | 'streamable-http';
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
  /** streamable-http: the server signs in with OAuth. */
  oauth?: UpstreamOAuthConfig;
  /** Per tool: the policy, and overrides of what callers are shown and what runs (core/src/imports/tool-override.ts). */
  tools?: Record<string, ImportedToolPolicyConfig & ToolOverride>;
  defaults?: ImportedToolPolicyConfig;
  /** A changed, new or removed tool: held for the owner's approval (the default), or pinned and served at once. */
  onChange?: 'hold' | 'accept';
}

export class ConfigError extends Error {
  constructor(readonly key: string, message: string) {
    super(`config ${key}: ${message}`);
    this.name = 'ConfigError';
  }
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Objects merge key by key; anything else (arrays included) replaces. */
export function deepMerge(base: Json, over: Json): Json {
  const out: Json = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = isObject(v) && isObject(out[k]) ? deepMerge(out[k] as Json, v) : v;
  return out;
}

const readJson = (path: string, what: string): Json => {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(what, `cannot read ${path}: ${(err as Error).message}`);
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (!isObject(parsed)) throw new Error('not a JSON object');
    return parsed;
  } catch (err) {
    throw new ConfigError(what, `${path} is not a JSON object: ${(err as Error).message}`);
  }
};

const integerEnv = (env: NodeJS.ProcessEnv, name: string, key: string): number | undefined => {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (!/^[0-9]+$/.test(raw)) throw new ConfigError(key, `${name}=${JSON.stringify(raw)} is not an integer`);
  return Number(raw);
};

/** Environment variables that override single keys. */
function envOverrides(env: NodeJS.ProcessEnv): Json {
  const o: Json = {};
  const server: Json = {};
  const port = integerEnv(env, 'PORT', 'server.port');
  if (port !== undefined) server['port'] = port;
  if (env['HOST']) server['host'] = env['HOST'];
  if (env['PUBLIC_BASE_URL']) server['publicBaseUrl'] = env['PUBLIC_BASE_URL'];
  if (env['SWITCHYARD_TRUSTED_PROXIES'] !== undefined) server['trustedProxies'] = env['SWITCHYARD_TRUSTED_PROXIES'].split(',').map((p) => p.trim()).filter(Boolean);
  if (Object.keys(server).length) o['server'] = server;
  if (env['SWITCHYARD_ROLE']) o['role'] = env['SWITCHYARD_ROLE'];
  if (env['DATABASE_URL']) o['database'] = { url: env['DATABASE_URL'] };
  if (env['SWITCHYARD_CONTENT_FOLDER']) o['content'] = { folder: env['SWITCHYARD_CONTENT_FOLDER'] };
  if (env['LOG_LEVEL']) o['log'] = { level: env['LOG_LEVEL'] };
  if (env['SWITCHYARD_API_KEY']) o['auth'] = { apiKey: env['SWITCHYARD_API_KEY'] };
  // Destinations admitted on internal addresses: host or host:port, comma-separated.
  if (env['SWITCHYARD_FORWARD_ALLOW']) o['webhooks'] = { forwarding: { allow: env['SWITCHYARD_FORWARD_ALLOW'].split(',').map((h) => h.trim()).filter(Boolean) } };
  const metricsPublic = env['SWITCHYARD_METRICS_PUBLIC'];
  if (metricsPublic !== undefined && metricsPublic !== '') {
    if (metricsPublic !== 'true' && metricsPublic !== 'false') throw new ConfigError('metrics.public', `SWITCHYARD_METRICS_PUBLIC=${JSON.stringify(metricsPublic)} is not true or false`);
    o['metrics'] = { public: metricsPublic === 'true' };
  }
  const ledger: Json = {};
  if (env['SWITCHYARD_LEDGER_SIGNING_KEY']) ledger['signingKey'] = env['SWITCHYARD_LEDGER_SIGNING_KEY'];
  if (env['SWITCHYARD_LEDGER_COMMITMENT_KEY']) ledger['commitmentKey'] = env['SWITCHYARD_LEDGER_COMMITMENT_KEY'];
  if (Object.keys(ledger).length) o['ledger'] = ledger;
  // SWITCHYARD_TOKEN_KEYS: "kid:base64secret[,kid:base64secret…]", newest first.
  if (env['SWITCHYARD_TOKEN_KEYS']) {
    o['tokens'] = { rootKeys: env['SWITCHYARD_TOKEN_KEYS'].split(',').map((pair) => ({ kid: pair.slice(0, pair.indexOf(':')), secret: pair.slice(pair.indexOf(':') + 1) })) };
  }
  // SWITCHYARD_UPSTREAM_OAUTH_KEYS: "kid:base64key[,kid:base64key…]", newest first.
  if (env['SWITCHYARD_UPSTREAM_OAUTH_KEYS']) {
    o['upstreams'] = { oauthKeys: env['SWITCHYARD_UPSTREAM_OAUTH_KEYS'].split(',').map((pair) => ({ kid: pair.slice(0, pair.indexOf(':')), secret: pair.slice(pair.indexOf(':') + 1) })) };
  }
  return o;
}

/** An entry of server.trustedProxies as Express's "trust proxy" reads it: an address, address/prefix, or a named range. */
function isProxyEntry(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address, prefix, extra] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^[0-9]{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

const schema = JSON.parse(readFileSync(resolve(CONFIG_DIR, 'schema.json'), 'utf8')) as Json;
const validate = new Ajv({ allErrors: true, strict: true, strictTypes: false }).compile(schema);

export function validateConfig(candidate: unknown): Config {
  if (validate(candidate)) {
    const config = candidate as unknown as Config;
    for (const proxy of config.server.trustedProxies) {
      if (!isProxyEntry(proxy)) throw new ConfigError('server.trustedProxies', `${JSON.stringify(proxy)} is not an IP address, a CIDR range (10.0.0.0/8, fd00::/8) or loopback, linklocal, uniquelocal`);
    }
    // SQLite is one process's database: an api process there would leave its forwarding and its
    // ledger entries to a worker that cannot share the file safely.
    if (config.role !== 'all' && !dialectOfUrl(config.database.url)?.sharedByProcesses) {
      throw new ConfigError('role', `${config.role} needs a PostgreSQL database (database.url postgres://…); with SQLite run one process with role all`);
    }
    return config;
  }
  const first = validate.errors![0]!;
  const extra = first.keyword === 'additionalProperties' ? `.${String(first.params['additionalProperty'])}` : '';
  const key = (first.instancePath.replace(/^\//, '').replace(/\//g, '.') + extra).replace(/^\./, '') || '(root)';
  const message = first.keyword === 'additionalProperties' ? 'is not a known setting' : (first.message ?? 'is invalid');
  throw new ConfigError(key, message);
}

export interface LoadConfigOptions {
  env?: NodeJS.ProcessEnv;
  /** Merged last, after env: for tests and embedding. */
  overrides?: Json;
}

export function loadConfig(options: LoadConfigOptions = {}): Config {
  const env = options.env ?? process.env;
  let merged = readJson(resolve(CONFIG_DIR, 'default.json'), 'default.json');
  if (env['SWITCHYARD_CONFIG']) merged = deepMerge(merged, readJson(resolve(env['SWITCHYARD_CONFIG']), 'SWITCHYARD_CONFIG'));
  merged = deepMerge(merged, envOverrides(env));
  if (options.overrides) merged = deepMerge(merged, options.overrides);
  return validateConfig(merged);
}
