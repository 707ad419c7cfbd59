// The composition root's wiring: config and the logger, storage, the MCP client, what plugins start
// in, and the core's services, each named by its typed ref (createServiceFactory), so what a
// service is made from reads off its factory. Each adapter package brings its own wiring (telemetry,
// http-kit, every HTTP face); switchyard.ts lists the packages.
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import {
  ApprovalService,
  ByteBudget,
  CapabilityRegistry,
  DEFAULT_FORWARDING_OPTIONS,
  DEFAULT_OAUTH_OPTIONS,
  DispatchService,
  DestinationAdmin,
  ForwardAllowlist,
  ForwardingService,
  IdempotentRuns,
  InterruptedRuns,
  PendingOutcomes,
  DEFAULT_PENDING_OUTCOMES,
  MemoryCircuitStore,
  NO_TRACES,
  MemoryRateWindows,
  OAuthAuthorizationServer,
  RunnerDirectory,
  TokenIssuer,
  WebhookIntake,
  coreServices,
  systemClock,
  type SharedSettings,
  type StoredDelivery,
  type StoredInvocation,
  ConfiguredUpstreamImports,
} from '@switchyard/core';
import { KnexCircuitStore, KnexImportedStateChannel, KnexClientRateWindows, KnexOAuthClientStore, KnexOAuthCodeStore, KnexOAuthGrantStore, KnexOAuthRefreshTokenStore, KnexApprovalStore, KnexApiKeyStore, KnexBlobStore, KnexDeliveryStore, KnexDestinationStore, KnexForwardAllowStore, KnexForwardJobStore, KnexIdempotencyKeyStore, KnexInvocationStore, KnexLedger, KnexRunReservations, KnexSettings, KnexTokenUseStore, KnexToolPinStore, KnexUpstreamCredentialStore, KnexWebhookStore, StorageHealth, openDatabase, readLedgerBacklog, storageFailureKind } from '@switchyard/storage-knex';
import { DEFAULT_MAX_RESULT_BYTES, McpUpstreamClient, MeteredUpstreamClient, TracedUpstreamClient } from '@switchyard/mcp';
import { httpRequestScope, httpServices, statusFor } from '@switchyard/http-kit';
import { telemetryServices } from '@switchyard/telemetry';
import { constantService, createServiceFactory, definePackage } from '@switchyard/wiring';
import type { PluginEnvironment } from '@switchyard/plugin-kit';
import type { Config } from './config.js';
import { FolderArticleStore } from './article-folder.js';
import type { Logger } from './logger.js';
import { ClientMetadataFetcher, DestinationAddressPolicy, HttpOutboundSender } from '@switchyard/outbound-http';
import { ProcessTransformSandbox } from './transform-sandbox.js';
import { appServices, type LoadedPlugin } from './tokens.js';
import { configuredServers, refusingConfigProblems } from './upstream-servers.js';
import { upstreamOAuthClients } from './upstream-oauth.js';
import { createHttpApp } from './http-app.js';
import { traceCarrier, traceForwarding, traceIntake, traceLedgerAppends } from './traced-services.js';

/** Config, the logger, the clock and the request scope; and the HTTP settings the faces read, from config. */
export const configWiring = (config: Config, logger: Logger, tracing = false) =>
  definePackage('app/config', [
    constantService(appServices.config, config),
    constantService(appServices.logger, logger),
    constantService(appServices.tracing, tracing),
    constantService(coreServices.clock, systemClock),
    constantService(coreServices.requestScope, httpRequestScope),
    createServiceFactory({
      service: httpServices.options,
      deps: { rateWindows: coreServices.rateWindows },
      factory: ({ rateWindows }) => ({
      publicBaseUrl: config.server.publicBaseUrl,
      trustedProxies: config.server.trustedProxies,
      tracing,
      rateWindows,
      bodyLimitBytes: config.server.bodyLimitBytes,
      mintPerMinute: config.tokens.mintPerMinute,
      workspaces: config.tokens.workspaces,
      metricsPublic: config.metrics.public,
      mcp: config.mcp,
      // One budget of body bytes in flight for the whole service.
      limits: { budget: new ByteBudget(config.server.bodyBudgetBytes), bodyTimeoutMs: config.server.bodyTimeoutMs, maxHeaders: config.server.maxHeaders, retryAfterSeconds: config.server.retryAfterSeconds },
      inlineBodyBytes: config.ledger.inlineBodyBytes,
      pageBytes: config.ledger.pageBytes,
      }),
    }),
  ]);

const db = { db: appServices.database };

export const storageWiring = definePackage('storage-knex', [
  createServiceFactory({ service: appServices.database, deps: { config: appServices.config }, factory: ({ config }) => openDatabase(config.database.url, { leafWorker: config.ledger.leafWorker }) }),
  createServiceFactory({
    service: coreServices.invocations,
    deps: { ...db, metrics: telemetryServices.metrics, tracing: appServices.tracing },
    factory: ({ db, metrics, tracing }) => {
      const store = new KnexInvocationStore(db.knex, { observer: { ...metrics.groupCommit('invocations'), appended: (inv: StoredInvocation) => metrics.runRecorded(inv) } });
      return tracing ? traceLedgerAppends(store) : store;
    },
  }),
  // Write-ahead reservations of runs in flight (runs renew them; switchyard.ts starts the renewal and the sweep).
  createServiceFactory({ service: coreServices.reservations, deps: { config: appServices.config, ...db }, factory: ({ config, db }) => new KnexRunReservations(db.knex, { leaseMs: config.dispatch.runLeaseMs ?? 15_000 }) }),
  createServiceFactory({ service: coreServices.idempotencyKeys, deps: db, factory: ({ db }) => new KnexIdempotencyKeyStore(db.knex) }),
  createServiceFactory({ service: coreServices.blobs, deps: db, factory: ({ db }) => new KnexBlobStore(db.knex) }),
  createServiceFactory({ service: coreServices.apiKeys, deps: db, factory: ({ db }) => new KnexApiKeyStore(db.knex) }),
  createServiceFactory({ service: coreServices.webhooks, deps: db, factory: ({ db }) => new KnexWebhookStore(db.knex) }),
  createServiceFactory({
    service: coreServices.deliveries,
    deps: { ...db, metrics: telemetryServices.metrics },
    factory: ({ db, metrics }) => new KnexDeliveryStore(db.knex, { observer: { ...metrics.groupCommit('deliveries'), appended: (d: StoredDelivery) => metrics.deliveryRecorded(d) } }),
  }),
  // Client rate limits: one process on SQLite counts in memory; processes sharing PostgreSQL count in
  // one table, so N processes allow the budget once.
  createServiceFactory({ service: coreServices.rateWindows, deps: db, factory: ({ db }) => (db.dialect.sharedByProcesses ? new KnexClientRateWindows(db.knex) : new MemoryRateWindows()) }),
  createServiceFactory({ service: coreServices.settings, deps: db, factory: ({ db }) => new KnexSettings(db.knex) }),
  createServiceFactory({ service: coreServices.approvalStore, deps: db, factory: ({ db }) => new KnexApprovalStore(db.knex) }),
  createServiceFactory({ service: coreServices.toolPins, deps: db, factory: ({ db }) => new KnexToolPinStore(db.knex) }),
  createServiceFactory({ service: coreServices.tokenUses, deps: db, factory: ({ db }) => new KnexTokenUseStore(db.knex) }),
  createServiceFactory({ service: coreServices.oauthClients, deps: db, factory: ({ db }) => new KnexOAuthClientStore(db.knex) }),
  createServiceFactory({ service: coreServices.oauthGrants, deps: db, factory: ({ db }) => new KnexOAuthGrantStore(db.knex, db.readKnex) }),
  createServiceFactory({ service: coreServices.oauthCodes, deps: db, factory: ({ db }) => new KnexOAuthCodeStore(db.knex) }),
  createServiceFactory({ service: coreServices.oauthRefreshTokens, deps: db, factory: ({ db }) => new KnexOAuthRefreshTokenStore(db.knex) }),
  // Relative folders resolve against the working directory, like a sqlite: database file.
  createServiceFactory({ service: coreServices.articles, deps: { config: appServices.config, logger: appServices.logger }, factory: ({ config, logger }) => new FolderArticleStore(resolve(config.content.folder), logger) }),
  createServiceFactory({
    service: coreServices.ledger,
    deps: { config: appServices.config, ...db, settings: coreServices.settings },
    factory: ({ config, db, settings }) =>
      KnexLedger.open(
        db.knex,
        { origin: config.ledger.origin, signingSeed: config.ledger.signingKey ?? null, commitmentKey: config.ledger.commitmentKey ?? null },
        settings,
        { readKnex: db.readKnex, leafReader: db.leafReader },
      ),
  }),
  createServiceFactory({ service: appServices.storageHealth, deps: db, factory: ({ db }) => new StorageHealth(db.knex, db.dialect.name) }),
  createServiceFactory({ service: httpServices.databaseHealth, deps: { health: appServices.storageHealth }, factory: ({ health }) => () => health.check() }),
  // A request the database did not serve is answered 503 by every face, counted by kind, and makes /healthz not ready for a while.
  createServiceFactory({
    service: httpServices.storageFailures,
    deps: { health: appServices.storageHealth, metrics: telemetryServices.metrics },
    factory: ({ health, metrics }) => ({
      kindOf: storageFailureKind,
      failed: (kind: string, err: unknown) => {
        metrics.storageFailed(kind);
        health.noteFailure(kind, err);
      },
    }),
  }),
]);

export const mcpWiring = definePackage('mcp', [
  createServiceFactory({ service: appServices.upstreamOAuth, deps: { config: appServices.config, ...db }, factory: ({ config, db }) => upstreamOAuthClients(config, new KnexUpstreamCredentialStore(db.knex)) }),
  createServiceFactory({
    service: coreServices.upstreamTools,
    deps: { config: appServices.config, metrics: telemetryServices.metrics, oauth: appServices.upstreamOAuth, tracing: appServices.tracing },
    factory: ({ config, metrics, oauth, tracing }) => {
      const client = new MeteredUpstreamClient(new McpUpstreamClient({ connectTimeoutMs: config.upstreams.connectTimeoutMs ?? 5000, oauth, maxResultBytes: config.dispatch.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES }), metrics);
      return tracing ? new TracedUpstreamClient(client) : client;
    },
  }),
]);

/** What plugins start in: the shared MCP client, where simulators listen, the log. Each plugin brings its own module (plugin-kit). */
export const pluginEnvironmentWiring = definePackage('app/plugin-environment', [
  createServiceFactory({
    service: appServices.pluginEnvironment,
    deps: { config: appServices.config, logger: appServices.logger, tools: coreServices.upstreamTools },
    factory: ({ config, logger, tools }): PluginEnvironment => ({ tools, simulatorHost: config.simulators.host ?? '127.0.0.1', log: (message, fields) => logger.info(message, fields) }),
  }),
]);

/** Every plugin's capabilities in one registry, each key assigned its plugin's runner. */
function registerPlugins(plugins: LoadedPlugin[], runners: RunnerDirectory): CapabilityRegistry {
  const registry = new CapabilityRegistry();
  for (const loaded of plugins) {
    loaded.capabilities = loaded.plugin.capabilities.map((def) => {
      const capability = registry.register(def, loaded.upstream?.url, loaded.accountPlan !== undefined ? { plan: loaded.accountPlan } : {});
      runners.assign(def.key, loaded.runner);
      return capability;
    });
  }
  return registry;
}

/** The root keys of share tokens: configured ones, else one generated at first start and shared through the database. */
async function tokenRootKeys(config: Config, settings: SharedSettings): Promise<Array<{ kid: string; secret: Uint8Array }>> {
  const configured = config.tokens.rootKeys.map((k) => ({ kid: k.kid, secret: new Uint8Array(Buffer.from(k.secret, 'base64')) }));
  if (configured.length) return configured;
  return [{ kid: 'k1', secret: new Uint8Array(Buffer.from(await settings.once('token_root_key_k1', () => randomBytes(32).toString('base64')), 'base64')) }];
}

export const coreWiring = definePackage('core', [
  createServiceFactory({ service: coreServices.runners, deps: {}, factory: () => new RunnerDirectory() }),
  createServiceFactory({ service: coreServices.registry, deps: { plugins: appServices.loadedPlugins, runners: coreServices.runners }, factory: ({ plugins, runners }) => registerPlugins(plugins, runners) }),
  // Imported MCP servers register after the plugins, so a server cannot take a plugin's system.
  createServiceFactory({
    service: appServices.upstreamImports,
    deps: { ...db, config: appServices.config, registry: coreServices.registry, runners: coreServices.runners, tools: coreServices.upstreamTools, logger: appServices.logger, pins: coreServices.toolPins, clock: coreServices.clock },
    factory: async ({ db, config, registry, runners, tools, logger, pins, clock }) => {
      // On PostgreSQL a refresh is shared with every process (LISTEN/NOTIFY); SQLite has one process.
      const shared = db.dialect.sharedByProcesses ? new KnexImportedStateChannel(db.knex, { onError: (e) => logger.warn('cannot listen for other processes\' upstream refreshes; retrying', { error: e.message }) }) : undefined;
      return refusingConfigProblems(async () => {
        const imports = new ConfiguredUpstreamImports(configuredServers(config.upstreams.servers ?? {}), registry, runners, tools, logger, config.upstreams.listTimeoutMs ?? 10_000, { pins, clock, ...(shared ? { shared } : {}) });
        await imports.start();
        return imports;
      });
    },
  }),
  createServiceFactory({
    service: coreServices.tokens,
    deps: { config: appServices.config, settings: coreServices.settings, clock: coreServices.clock, registry: coreServices.registry, grants: coreServices.oauthGrants },
    factory: async ({ config, settings, clock, registry, grants }) => new TokenIssuer(await tokenRootKeys(config, settings), clock, registry, grants),
  }),
  // The OAuth authorization server of the MCP faces; client ID metadata documents are fetched
  // under the shared address policy, with an allowlist of their own.
  createServiceFactory({
    service: coreServices.oauth,
    deps: { config: appServices.config, clients: coreServices.oauthClients, grants: coreServices.oauthGrants, codes: coreServices.oauthCodes, refresh: coreServices.oauthRefreshTokens, tokens: coreServices.tokens, clock: coreServices.clock },
    factory: ({ config, clients, grants, codes, refresh, tokens, clock }) => {
      const o = config.oauth ?? {};
      const documents = o.clientMetadata?.enabled === false ? null : new ClientMetadataFetcher(new DestinationAddressPolicy(o.clientMetadata?.allow ?? []));
      return new OAuthAuthorizationServer(clients, grants, codes, refresh, tokens, clock, documents, {
        accessTokenTtlSeconds: o.accessTokenTtlSeconds ?? DEFAULT_OAUTH_OPTIONS.accessTokenTtlSeconds,
        refreshTokenTtlSeconds: o.refreshTokenTtlSeconds ?? DEFAULT_OAUTH_OPTIONS.refreshTokenTtlSeconds,
        codeTtlSeconds: o.codeTtlSeconds ?? DEFAULT_OAUTH_OPTIONS.codeTtlSeconds,
        maxUnconsentedClients: o.maxUnconsentedClients ?? DEFAULT_OAUTH_OPTIONS.maxUnconsentedClients,
        metadataDocuments: o.clientMetadata?.enabled ?? DEFAULT_OAUTH_OPTIONS.metadataDocuments,
        metadataDocumentsOverHttp: o.clientMetadata?.allowHttp ?? DEFAULT_OAUTH_OPTIONS.metadataDocumentsOverHttp,
      });
    },
  }),
  createServiceFactory({
    service: coreServices.dispatch,
    deps: { config: appServices.config, registry: coreServices.registry, runners: coreServices.runners, invocations: coreServices.invocations, clock: coreServices.clock, scope: coreServices.requestScope, blobs: coreServices.blobs, reservations: coreServices.reservations, outcomes: coreServices.pendingOutcomes },
    factory: ({ config, registry, runners, invocations, clock, scope, blobs, reservations, outcomes }) =>
      new DispatchService(
        registry,
        runners,
        invocations,
        clock,
        { timeoutMs: config.dispatch.timeoutMs, approvalTtlSeconds: config.approvals.ttlSeconds, maxArgumentDepth: config.dispatch.maxArgumentDepth, ...(config.dispatch.blobThresholdBytes !== undefined ? { blobThresholdBytes: config.dispatch.blobThresholdBytes } : {}) },
        scope,
        blobs,
        reservations,
        outcomes,
      ),
  }),
  // Outcomes of runs and forwarding attempts the database did not take, written again once it is back (one bound per process).
  createServiceFactory({
    service: coreServices.pendingOutcomes,
    deps: { invocations: coreServices.invocations, reservations: coreServices.reservations, logger: appServices.logger },
    factory: ({ invocations, reservations, logger }) => new PendingOutcomes(invocations, reservations, DEFAULT_PENDING_OUTCOMES, logger),
  }),
  createServiceFactory({
    service: coreServices.idempotentRuns,
    deps: { keys: coreServices.idempotencyKeys, invocations: coreServices.invocations, reservations: coreServices.reservations, clock: coreServices.clock },
    factory: ({ keys, invocations, reservations, clock }) => new IdempotentRuns(keys, invocations, reservations, clock),
  }),
  createServiceFactory({
    service: coreServices.interruptedRuns,
    deps: { reservations: coreServices.reservations, invocations: coreServices.invocations, clock: coreServices.clock },
    factory: ({ reservations, invocations, clock }) => new InterruptedRuns(reservations, invocations, clock),
  }),
  createServiceFactory({
    service: coreServices.approvals,
    deps: { invocations: coreServices.invocations, approvals: coreServices.approvalStore, dispatch: coreServices.dispatch, clock: coreServices.clock },
    factory: ({ invocations, approvals, dispatch, clock }) => new ApprovalService(invocations, approvals, dispatch, clock),
  }),
  createServiceFactory({
    service: appServices.outboundSender,
    deps: { config: appServices.config, tracing: appServices.tracing },
    factory: ({ config, tracing }) => {
      const sender = new HttpOutboundSender(new DestinationAddressPolicy(config.webhooks.forwarding?.allow ?? []));
      return tracing ? traceForwarding(sender) : sender;
    },
  }),
  // Hosts admitted for destinations: the configuration's, and those the owner adds at run time (in the database).
  createServiceFactory({
    service: coreServices.forwardAllowlist,
    deps: { config: appServices.config, ...db, sender: appServices.outboundSender, clock: coreServices.clock },
    factory: ({ config, db, sender, clock }) => new ForwardAllowlist(sender, clock, new KnexForwardAllowStore(db.knex), config.webhooks.forwarding?.allow ?? []),
  }),
  // The forwarding service of this process; a worker or an `all` process starts it (background-work.ts).
  createServiceFactory({
    service: coreServices.forwarding,
    deps: { config: appServices.config, ...db, deliveries: coreServices.deliveries, invocations: coreServices.invocations, sender: appServices.outboundSender, clock: coreServices.clock, allowlist: coreServices.forwardAllowlist, logger: appServices.logger, reservations: coreServices.reservations, tracing: appServices.tracing, outcomes: coreServices.pendingOutcomes },
    factory: ({ config, db, deliveries, invocations, sender, clock, allowlist, logger, reservations, tracing, outcomes }) => {
      const { allow: _allow, pollMs: _pollMs, ...tuning } = config.webhooks.forwarding ?? {};
      return new ForwardingService(new KnexDestinationStore(db.knex), new KnexForwardJobStore(db.knex), deliveries, invocations, sender, clock, allowlist, { ...DEFAULT_FORWARDING_OPTIONS, ...tuning }, logger, reservations, db.dialect.sharedByProcesses ? new KnexCircuitStore(db.knex) : new MemoryCircuitStore(), tracing ? traceCarrier : NO_TRACES, outcomes, new ProcessTransformSandbox());
    },
  }),
  // The owner's destinations; each change reaches this process's forwarder (its cache, its circuits).
  createServiceFactory({
    service: coreServices.destinations,
    deps: { ...db, webhooks: coreServices.webhooks, forwarding: coreServices.forwarding, allowlist: coreServices.forwardAllowlist, clock: coreServices.clock },
    factory: ({ db, webhooks, forwarding, allowlist, clock }) => new DestinationAdmin(webhooks, new KnexDestinationStore(db.knex), new KnexForwardJobStore(db.knex), forwarding, allowlist, clock),
  }),
  // The rules of a delivery to /hook. Forwarding is its scheduler: a first, accepted delivery's
  // jobs are written in its own commit, and refusals and duplicates are never forwarded.
  createServiceFactory({
    service: coreServices.intake,
    deps: { config: appServices.config, webhooks: coreServices.webhooks, deliveries: coreServices.deliveries, registry: coreServices.registry, dispatch: coreServices.dispatch, clock: coreServices.clock, scope: coreServices.requestScope, forwarding: coreServices.forwarding, tracing: appServices.tracing, actionRuns: coreServices.idempotentRuns },
    factory: ({ config, webhooks, deliveries, registry, dispatch, clock, scope, forwarding, tracing, actionRuns }) => {
      const intake = new WebhookIntake(
        webhooks,
        deliveries,
        registry,
        dispatch,
        clock,
        { bodyLimitBytes: config.webhooks.bodyLimitBytes, refusedBodyBytes: config.webhooks.refusedBodyBytes, answerStatus: (code) => (code === null ? 200 : statusFor(code)) },
        scope,
        forwarding,
        actionRuns,
      );
      return tracing ? traceIntake(intake) : intake;
    },
  }),
]);

/** The app of every face: the faces the listed packages added, in the order they are listed. */
export const httpAppWiring = definePackage('app/http', [
  createServiceFactory({
    service: appServices.httpApp,
    deps: { faces: httpServices.face, options: httpServices.options, metrics: telemetryServices.metrics, logger: appServices.logger, config: appServices.config, db: appServices.database, registry: coreServices.registry, upstreams: appServices.upstreamImports, failures: httpServices.storageFailures },
    factory: ({ faces, options, metrics, logger, config, db, registry, failures }) => {
      // Read at each scrape, on the read connection so a scrape never waits behind the writer.
      metrics.watchLedgerBacklog(() => readLedgerBacklog(db.readKnex));
      // A curated MCP server naming a key nobody registered is most likely a typo (or a server down
      // at start); the imports are resolved (a dependency here), so they have been tried.
      for (const [name, server] of Object.entries(config.mcp.virtualServers)) {
        const missing = server.tools.filter((key) => !registry.has(key));
        if (missing.length) logger.warn('mcp.virtualServers names keys not registered; they are not offered until they are', { server: name, keys: missing });
      }
      return createHttpApp({ faces, options, metrics, logger, failures });
    },
  }),
]);
