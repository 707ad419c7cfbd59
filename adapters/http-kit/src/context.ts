// What the HTTP adapter needs from the composition root; resolved once at startup, never per request.
import type { ServiceMetrics } from '@switchyard/telemetry';
import type { OAuthAuthorizationServer, WebhookIntake, ApiKeyStore, ApprovalService, BlobStore, DestinationAdmin, ForwardAllowlist, ForwardingService, ArticleStore, CapabilityRegistry, ClientRateWindows, Clock, DeliveryStore, DispatchService, IdempotentRuns, InvocationStore, TokenIssuer, TokenUseStore, UpstreamImports, UpstreamOAuth, VerifiableLedger, WebhookStore } from '@switchyard/core';
import type { RequestLimits } from './request-gate.js';
import type { RouteAccess } from './route-access.js';
import type { StorageFailures } from './storage-failures.js';

export interface HttpLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /** One line per answered request, when the level lets it through. */
  debug?(message: string, fields?: Record<string, unknown>): void;
  /** False when debug lines are left out: the access log then builds none. */
  debugEnabled?(): boolean;
}

/** The MCP faces (/mcp, /mcp/servers/<name>, /mcp/v/<name>): config mcp. */
export interface McpFacesConfig {
  /** Host values accepted besides the listening address and PUBLIC_BASE_URL's host. */
  allowedHosts: string[];
  /** Origin values accepted besides those of the accepted hosts. */
  allowedOrigins: string[];
  /** Tools per tools/list page. */
  pageSize: number;
  /** ttlMs on the 2026-07-28 faces' cacheable results (lists, server/discover, resources/read). */
  cacheTtlMs: number;
  /** Named virtual servers: a curated set of capability keys each, served at /mcp/v/<name>. */
  virtualServers: Record<string, { description?: string; tools: string[] }>;
  /**
   * What a caller's session may hold in one process: log level, resource subscriptions, a stream;
   * each credential's share of the sessions, the reserve keyless credentials cannot take (of every
   * MCP table), and how long a stream may send nothing.
   */
  sessions: { maxSessions: number; maxPerCredential: number; keyedReserve: number; maxSubscriptions: number; idleMs: number; streamIdleMs: number };
  /** Runs waiting for their 2026-07-28 caller's input, kept in one process: how many, per credential, and how long. */
  pausedCalls: { max: number; maxPerCredential: number; ttlMs: number };
}

export interface HttpContext {
  registry: CapabilityRegistry;
  dispatch: DispatchService;
  /** Idempotency-Key on POST /api/dispatch. */
  idempotentRuns: IdempotentRuns;
  invocations: InvocationStore;
  /** Large binary content of runs, stored once and referenced from their records. */
  blobs: BlobStore;
  apiKeys: ApiKeyStore;
  webhooks: WebhookStore;
  deliveries: DeliveryStore;
  /** The forwarding schedule: each delivery's jobs (views) and the intake entry point (accepted). */
  forwarding: ForwardingService;
  /** A webhook's destinations, as their owner manages them. */
  destinations: DestinationAdmin;
  /** Hosts admitted for destinations at run time, beside the configuration's. */
  forwardAllowlist: ForwardAllowlist;
  /** The Merkle log over every ledger entry: confirmations, receipts and proofs. */
  ledger: VerifiableLedger;
  /** Verifies and mints share tokens. */
  tokens: TokenIssuer;
  tokenUses: TokenUseStore;
  approvals: ApprovalService;
  /** Imported MCP servers: listed and refreshed by the owner. */
  upstreams: UpstreamImports;
  /** Imported servers that sign in with OAuth: their states, and the owner's connecting. */
  upstreamOAuth: UpstreamOAuth;
  /** Published articles, for the content pages. */
  articles: ArticleStore;
  /** Today's date for articles published without one. */
  clock: Clock;
  /** Keyless tokens per client address per minute. */
  mintPerMinute: number;
  /** Where client rate limits are counted (memory, or the shared database). */
  rateWindows: ClientRateWindows;
  /** Workspaces that observers may enter, by slug. */
  workspaces: string[];
  logger: HttpLogger;
  /** Tells a storage failure from a bug (503 storage_unavailable, never 500) and reports it. */
  storageFailures: StorageFailures;
  /** This service's metrics (its own registry), served at /metrics. */
  metrics: ServiceMetrics;
  /** Whether /metrics answers without the owner's API key. */
  metricsPublic: boolean;
  mcp: McpFacesConfig;
  /** Fixed public base URL, or null to derive it from each request. */
  publicBaseUrl: string | null;
  bodyLimitBytes: number;
  /** The rules of a delivery to /hook (core). */
  intake: WebhookIntake;
  /** Header count, body-read timeout and the budget of body bytes in flight. */
  limits: RequestLimits;
  /** Ledger listings leave out delivery bodies larger than this; body_url streams them. */
  inlineBodyBytes: number;
  /** The most bytes a ledger listing's page may take; it ends early with a cursor before that. */
  pageBytes: number;
  /** The routes' guards and the one owner-session service (its key shared through the database, so every process accepts its cookies). */
  access: RouteAccess;
  /** The OAuth 2.1 authorization server of the MCP faces (its tokens are share tokens). */
  oauth: OAuthAuthorizationServer;
  /** Liveness of the database, for /healthz. */
  databaseHealth(): Promise<DatabaseHealthReading>;
}

/** What /healthz reports of the database: it reads, and it takes writes (why not, when not). */
export interface DatabaseHealthReading {
  ok: boolean;
  engine: string;
  reads?: boolean;
  write?: { ok: boolean; kind?: string; reason?: string; at?: string };
}

/** The part of the context a route module uses: each names its own (`type Ctx = Needs<…>`), so what it can reach is what it uses. */
export type Needs<K extends keyof HttpContext> = Pick<HttpContext, K>;
