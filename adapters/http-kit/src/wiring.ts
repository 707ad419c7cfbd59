// The HTTP kit's wiring: the refs every face names (its options, the route access, the faces
// themselves) and the one RouteAccess of the service, with its one owner-session service.
import { randomBytes } from 'node:crypto';
import type { Router, Express } from 'express';
import { coreServices, createServiceRef, type ClientRateWindows } from '@switchyard/core';
import { createServiceFactory, definePackage } from '@switchyard/wiring';
import type { DatabaseHealthReading, HttpLogger, McpFacesConfig } from './context.js';
import type { StorageFailures } from './storage-failures.js';
import { DashboardSessions } from './dashboard-session.js';
import type { RequestGate, RequestLimits } from './request-gate.js';
import { RouteAccess } from './route-access.js';

/** The HTTP settings the faces read (config server, tokens, metrics, mcp, ledger), made once by the composition root. */
export interface HttpOptions {
  /** Fixed public base URL, or null to derive it from each request. */
  publicBaseUrl: string | null;
  bodyLimitBytes: number;
  /** Keyless tokens per client address per minute. */
  mintPerMinute: number;
  /** Where client rate limits are counted: this process's memory, or the database every process shares. */
  rateWindows: ClientRateWindows;
  /** Whether traces are on (OTEL_* configured): each request gets its span. */
  tracing: boolean;
  /** Proxies whose X-Forwarded-For names the client (server.trustedProxies: addresses, CIDR ranges, or loopback/linklocal/uniquelocal). */
  trustedProxies: string[];
  /** Workspaces that observers may enter, by slug. */
  workspaces: string[];
  /** Whether /metrics answers without the owner's API key. */
  metricsPublic: boolean;
  mcp: McpFacesConfig;
  /** Header count, body-read timeout and the budget of body bytes in flight (one budget per service). */
  limits: RequestLimits;
  /** Ledger listings leave out delivery bodies larger than this; body_url streams them. */
  inlineBodyBytes: number;
  /** The most bytes a ledger listing's page may take. */
  pageBytes: number;
}

/** One face of the service, as its package makes it; the app mounts them in the order the composition root lists them. */
export interface HttpFace {
  id: string;
  /** Routes of the app itself, before the request gate (the /hook deliveries: the hottest path walks no other layer). */
  early?(app: Express, gate: RequestGate): void;
  router: Router;
  /**
   * The path prefixes every route of this face is under, when it has such: the app enters its
   * router for those paths only (scoped-router.ts), so other faces' requests skip its layers.
   */
  paths?: string[];
  /** Cookies of this face that the malformed-encoding guard reads before any route does. */
  cookies?: Array<{ name: string; path: string }>;
  /**
   * Shutdown, before the connections to callers, upstreams and the database close: ends what the
   * face keeps beyond a request in its protocol's terms (the MCP faces' subscriptions/listen streams,
   * and their paused runs, withdrawn so each is still recorded). Called more than once, it ends nothing twice.
   */
  close?(): Promise<void>;
}

export const httpServices = {
  options: createServiceRef<HttpOptions>({ id: 'HttpOptions' }),
  logger: createServiceRef<HttpLogger>({ id: 'Logger' }),
  /** Liveness of the database, for /healthz. */
  databaseHealth: createServiceRef<() => Promise<DatabaseHealthReading>>({ id: 'DatabaseHealth' }),
  /** How a face tells a storage failure from a bug, and where it reports one (the composition root binds it). */
  storageFailures: createServiceRef<StorageFailures>({ id: 'StorageFailures' }),
  access: createServiceRef<RouteAccess>({ id: 'RouteAccess' }),
  /** Every face's contribution: each face package adds one. */
  face: createServiceRef<HttpFace>({ id: 'HttpFace', multiple: true }),
} as const;

/**
 * What every face's routes take: the HTTP options, the route access, the logger, and what
 * resolving a credential reads (keys, the token issuer, the ledger of token uses).
 */
export const faceDeps = {
  options: httpServices.options,
  access: httpServices.access,
  logger: httpServices.logger,
  storageFailures: httpServices.storageFailures,
  apiKeys: coreServices.apiKeys,
  tokens: coreServices.tokens,
  tokenUses: coreServices.tokenUses,
} as const;

export const httpKitWiring = definePackage('http-kit', [
  createServiceFactory({
    service: httpServices.access,
    deps: { apiKeys: coreServices.apiKeys, tokens: coreServices.tokens, tokenUses: coreServices.tokenUses, settings: coreServices.settings, options: httpServices.options },
    // The session key is shared through the database, so every process accepts the cookies of the one session service.
    factory: async ({ apiKeys, tokens, tokenUses, settings, options }) => {
      const key = new Uint8Array(Buffer.from(await settings.once('dashboard_session_key', () => randomBytes(32).toString('base64')), 'base64'));
      return new RouteAccess({ apiKeys, tokens, tokenUses }, new DashboardSessions(key), options.publicBaseUrl);
    },
  }),
]);
