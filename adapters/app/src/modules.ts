// Inversify container modules: each adapter binds itself here, each plugin brings its own (plugin-kit); the root loads them.
// Every service is bound once, with toResolvedValue and the list of what it is made from: no
// factory asks the container for anything, so the dependencies of each part read off its binding.
import { ContainerModule } from 'inversify';
import {
  ApiKeyStore,
  BlobStore,
  CapabilityRegistry,
  DeliveryStore,
  WebhookStore,
  Clock,
  DispatchService,
  InvocationStore,
  RunnerDirectory,
  UpstreamToolClient,
  UpstreamOAuth,
  VerifiableLedger,
  TokenIssuer,
  TokenUseStore,
  SharedSettings,
  ApprovalStore,
  ApprovalService,
  ArticleStore,
  RequestScope,
  ForwardingService,
  DEFAULT_FORWARDING_OPTIONS,
  systemClock,
  ByteBudget,
  WebhookIntake,
  OAuthAuthorizationServer,
  OAuthClientStore,
  OAuthGrantStore,
  OAuthCodeStore,
  OAuthRefreshTokenStore,
  DEFAULT_OAUTH_OPTIONS,
  type StoredDelivery,
  type StoredInvocation,
} from '@switchyard/core';
import { KnexOAuthClientStore, KnexOAuthCodeStore, KnexOAuthGrantStore, KnexOAuthRefreshTokenStore, KnexApprovalStore, KnexApiKeyStore, KnexBlobStore, KnexDeliveryStore, KnexDestinationStore, KnexForwardJobStore, KnexInvocationStore, KnexLedger, KnexSettings, KnexTokenUseStore, KnexUpstreamCredentialStore, KnexWebhookStore, openDatabase, readLedgerBacklog, type Database } from '@switchyard/storage-knex';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { McpUpstreamClient, type UpstreamOAuthClients } from '@switchyard/mcp';
import { DashboardSessions, RouteAccess, httpRequestScope, statusFor } from '@switchyard/http-kit';
import { ServiceMetrics } from '@switchyard/telemetry';
import { createHttpApp } from './http-app.js';
import type { Config } from './config.js';
import { FolderArticleStore } from './article-folder.js';
import type { Logger } from './logger.js';
import { MeteredUpstreamClient } from './metered-upstream-client.js';
import { DestinationAddressPolicy, HttpOutboundSender } from './forward-sender.js';
import { ClientMetadataFetcher } from './client-metadata-fetcher.js';
import {
  ConfigToken,
  DatabaseToken,
  DispatchToken,
  ForwardingToken,
  HttpAppToken,
  WebhookIntakeToken,
  OutboundSenderToken,
  LoadedPluginToken,
  LoggerToken,
  PluginEnvironmentToken,
  MetricsToken,
  RegistryToken,
  RunnerDirectoryToken,
  TokenIssuerToken,
  UpstreamImportsToken,
  ApprovalServiceToken,
  OAuthServerToken,
  type LoadedPlugin,
} from './tokens.js';
import { ConfiguredUpstreamImports } from './upstream-imports.js';
import { upstreamOAuthClients } from './upstream-oauth.js';
import type { PluginEnvironment } from '@switchyard/plugin-kit';

export const configModule = (config: Config, logger: Logger): ContainerModule =>
  new ContainerModule(({ bind }) => {
    bind(ConfigToken).toConstantValue(config);
    bind(LoggerToken).toConstantValue(logger);
    bind(Clock).toConstantValue(systemClock);
    // One registry per service: tests run many services in one process.
    bind(MetricsToken).toConstantValue(new ServiceMetrics());
    bind(RequestScope).toConstantValue(httpRequestScope);
  });

export const storageModule = new ContainerModule(({ bind }) => {
  bind<Database>(DatabaseToken)
    .toResolvedValue((config: Config) => openDatabase(config.database.url, { leafWorker: config.ledger.leafWorker }), [ConfigToken])
    .inSingletonScope();
  bind<InvocationStore>(InvocationStore)
    .toResolvedValue(
      (db: Database, metrics: ServiceMetrics) =>
        new KnexInvocationStore(db.knex, { observer: { ...metrics.groupCommit('invocations'), appended: (inv: StoredInvocation) => metrics.runRecorded(inv) } }),
      [DatabaseToken, MetricsToken],
    )
    .inSingletonScope();
  bind<BlobStore>(BlobStore).toResolvedValue((db: Database) => new KnexBlobStore(db.knex), [DatabaseToken])
    .inSingletonScope();
  bind<ApiKeyStore>(ApiKeyStore).toResolvedValue((db: Database) => new KnexApiKeyStore(db.knex), [DatabaseToken]).inSingletonScope();
  bind<WebhookStore>(WebhookStore).toResolvedValue((db: Database) => new KnexWebhookStore(db.knex), [DatabaseToken]).inSingletonScope();
  bind<DeliveryStore>(DeliveryStore)
    .toResolvedValue(
      (db: Database, metrics: ServiceMetrics) =>
        new KnexDeliveryStore(db.knex, { observer: { ...metrics.groupCommit('deliveries'), appended: (d: StoredDelivery) => metrics.deliveryRecorded(d) } }),
      [DatabaseToken, MetricsToken],
    )
    .inSingletonScope();
  bind<SharedSettings>(SharedSettings).toResolvedValue((db: Database) => new KnexSettings(db.knex), [DatabaseToken]).inSingletonScope();
  bind<ApprovalStore>(ApprovalStore).toResolvedValue((db: Database) => new KnexApprovalStore(db.knex), [DatabaseToken]).inSingletonScope();
  bind<TokenUseStore>(TokenUseStore).toResolvedValue((db: Database) => new KnexTokenUseStore(db.knex), [DatabaseToken]).inSingletonScope();
  bind<OAuthClientStore>(OAuthClientStore).toResolvedValue((db: Database) => new KnexOAuthClientStore(db.knex), [DatabaseToken]).inSingletonScope();
  bind<OAuthGrantStore>(OAuthGrantStore).toResolvedValue((db: Database) => new KnexOAuthGrantStore(db.knex, db.readKnex), [DatabaseToken]).inSingletonScope();
  bind<OAuthCodeStore>(OAuthCodeStore).toResolvedValue((db: Database) => new KnexOAuthCodeStore(db.knex), [DatabaseToken]).inSingletonScope();
  bind<OAuthRefreshTokenStore>(OAuthRefreshTokenStore).toResolvedValue((db: Database) => new KnexOAuthRefreshTokenStore(db.knex), [DatabaseToken]).inSingletonScope();
  // Relative folders resolve against the working directory, like a sqlite: database file.
  bind<ArticleStore>(ArticleStore)
    .toResolvedValue((config: Config, logger: Logger) => new FolderArticleStore(resolve(config.content.folder), logger), [ConfigToken, LoggerToken])
    .inSingletonScope();
  bind<VerifiableLedger>(VerifiableLedger)
    .toResolvedValue(
      (config: Config, db: Database, settings: SharedSettings) =>
        KnexLedger.open(
          db.knex,
          { origin: config.ledger.origin, signingSeed: config.ledger.signingKey ?? null, commitmentKey: config.ledger.commitmentKey ?? null },
          settings,
          { readKnex: db.readKnex, leafReader: db.leafReader },
        ),
      [ConfigToken, DatabaseToken, SharedSettings],
    )
    .inSingletonScope();
});

export const mcpModule = new ContainerModule(({ bind }) => {
  bind<UpstreamOAuthClients>(UpstreamOAuth)
    .toResolvedValue((config: Config, db: Database) => upstreamOAuthClients(config, new KnexUpstreamCredentialStore(db.knex)), [ConfigToken, DatabaseToken])
    .inSingletonScope();
  bind<UpstreamToolClient>(UpstreamToolClient)
    .toResolvedValue(
      (config: Config, metrics: ServiceMetrics, oauth: UpstreamOAuthClients) =>
        new MeteredUpstreamClient(new McpUpstreamClient({ connectTimeoutMs: config.upstreams.connectTimeoutMs ?? 5000, oauth }), metrics),
      [ConfigToken, MetricsToken, UpstreamOAuth],
    )
    .inSingletonScope();
});

/** What plugins start in: the shared MCP client, where simulators listen, the log. Each plugin brings its own module (plugin-kit). */
export const pluginEnvironmentModule = new ContainerModule(({ bind }) => {
  bind<PluginEnvironment>(PluginEnvironmentToken)
    .toResolvedValue(
      (config: Config, logger: Logger, tools: UpstreamToolClient): PluginEnvironment => ({
        tools,
        simulatorHost: config.simulators.host ?? '127.0.0.1',
        log: (message, fields) => logger.info(message, fields),
      }),
      [ConfigToken, LoggerToken, UpstreamToolClient],
    )
    .inSingletonScope();
});

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

export const coreModule = new ContainerModule(({ bind }) => {
  bind(RunnerDirectoryToken).toConstantValue(new RunnerDirectory());
  bind<CapabilityRegistry>(RegistryToken)
    .toResolvedValue((plugins: LoadedPlugin[] | undefined, runners: RunnerDirectory) => registerPlugins(plugins ?? [], runners), [
      { serviceIdentifier: LoadedPluginToken, isMultiple: true, optional: true },
      RunnerDirectoryToken,
    ])
    .inSingletonScope();
  // Imported MCP servers register after the plugins, so a server cannot take a plugin's system.
  bind<ConfiguredUpstreamImports>(UpstreamImportsToken)
    .toResolvedValue(
      async (config: Config, registry: CapabilityRegistry, runners: RunnerDirectory, tools: UpstreamToolClient, logger: Logger) => {
        const imports = new ConfiguredUpstreamImports(config.upstreams.servers ?? {}, registry, runners, tools, logger, config.upstreams.listTimeoutMs ?? 10_000);
        await imports.start();
        return imports;
      },
      [ConfigToken, RegistryToken, RunnerDirectoryToken, UpstreamToolClient, LoggerToken],
    )
    .inSingletonScope();
  bind<TokenIssuer>(TokenIssuerToken)
    .toResolvedValue(
      async (config: Config, settings: SharedSettings, clock: Clock, registry: CapabilityRegistry, grants: OAuthGrantStore) => new TokenIssuer(await tokenRootKeys(config, settings), clock, registry, grants),
      [ConfigToken, SharedSettings, Clock, RegistryToken, OAuthGrantStore],
    )
    .inSingletonScope();
  // The OAuth authorization server of the MCP faces; client ID metadata documents are fetched
  // under the forwarding's address policy, with an allowlist of their own.
  bind<OAuthAuthorizationServer>(OAuthServerToken)
    .toResolvedValue(
      (config: Config, clients: OAuthClientStore, grants: OAuthGrantStore, codes: OAuthCodeStore, refresh: OAuthRefreshTokenStore, tokens: TokenIssuer, clock: Clock) => {
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
      [ConfigToken, OAuthClientStore, OAuthGrantStore, OAuthCodeStore, OAuthRefreshTokenStore, TokenIssuerToken, Clock],
    )
    .inSingletonScope();
  bind<DispatchService>(DispatchToken)
    .toResolvedValue(
      (config: Config, registry: CapabilityRegistry, runners: RunnerDirectory, invocations: InvocationStore, clock: Clock, scope: RequestScope, blobs: BlobStore) =>
        new DispatchService(
          registry,
          runners,
          invocations,
          clock,
          { timeoutMs: config.dispatch.timeoutMs, approvalTtlSeconds: config.approvals.ttlSeconds, maxArgumentDepth: config.dispatch.maxArgumentDepth, ...(config.dispatch.blobThresholdBytes !== undefined ? { blobThresholdBytes: config.dispatch.blobThresholdBytes } : {}) },
          scope,
          blobs,
        ),
      [ConfigToken, RegistryToken, RunnerDirectoryToken, InvocationStore, Clock, RequestScope, BlobStore],
    )
    .inSingletonScope();
  bind<ApprovalService>(ApprovalServiceToken)
    .toResolvedValue(
      (invocations: InvocationStore, approvals: ApprovalStore, dispatch: DispatchService, clock: Clock) => new ApprovalService(invocations, approvals, dispatch, clock),
      [InvocationStore, ApprovalStore, DispatchToken, Clock],
    )
    .inSingletonScope();
  bind<HttpOutboundSender>(OutboundSenderToken)
    .toResolvedValue((config: Config) => new HttpOutboundSender(new DestinationAddressPolicy(config.webhooks.forwarding?.allow ?? [])), [ConfigToken])
    .inSingletonScope();
  // The forwarding service of this process; its workers start with the service (switchyard.ts).
  bind<ForwardingService>(ForwardingToken)
    .toResolvedValue(
      (config: Config, db: Database, webhooks: WebhookStore, deliveries: DeliveryStore, invocations: InvocationStore, sender: HttpOutboundSender, clock: Clock, logger: Logger) => {
        const { allow: _allow, ...tuning } = config.webhooks.forwarding ?? {};
        return new ForwardingService(
          webhooks,
          new KnexDestinationStore(db.knex),
          new KnexForwardJobStore(db.knex),
          deliveries,
          invocations,
          sender,
          clock,
          { ...DEFAULT_FORWARDING_OPTIONS, ...tuning },
          logger,
        );
      },
      [ConfigToken, DatabaseToken, WebhookStore, DeliveryStore, InvocationStore, OutboundSenderToken, Clock, LoggerToken],
    )
    .inSingletonScope();
  // The rules of a delivery to /hook. Forwarding is its step after acceptance, so refusals and
  // duplicates are never forwarded.
  bind<WebhookIntake>(WebhookIntakeToken)
    .toResolvedValue(
      (config: Config, webhooks: WebhookStore, deliveries: DeliveryStore, registry: CapabilityRegistry, dispatch: DispatchService, clock: Clock, scope: RequestScope, forwarding: ForwardingService) =>
        new WebhookIntake(
          webhooks,
          deliveries,
          registry,
          dispatch,
          clock,
          {
            bodyLimitBytes: config.webhooks.bodyLimitBytes,
            refusedBodyBytes: config.webhooks.refusedBodyBytes,
            answerStatus: (code) => (code === null ? 200 : statusFor(code)),
          },
          scope,
          [{ afterAccepted: (delivery) => forwarding.accepted(delivery) }],
        ),
      [ConfigToken, WebhookStore, DeliveryStore, RegistryToken, DispatchToken, Clock, RequestScope, ForwardingToken],
    )
    .inSingletonScope();
});

/** The HTTP adapter's parts, each resolved once by the container (the app itself is made in httpModule). */
interface HttpParts {
  config: Config;
  db: Database;
  metrics: ServiceMetrics;
  registry: CapabilityRegistry;
  dispatch: DispatchService;
  invocations: InvocationStore;
  blobs: BlobStore;
  apiKeys: ApiKeyStore;
  webhooks: WebhookStore;
  deliveries: DeliveryStore;
  forwarding: ForwardingService;
  intake: WebhookIntake;
  ledger: VerifiableLedger;
  tokens: TokenIssuer;
  tokenUses: TokenUseStore;
  upstreams: ConfiguredUpstreamImports;
  upstreamOAuth: UpstreamOAuthClients;
  approvals: ApprovalService;
  articles: ArticleStore;
  clock: Clock;
  logger: Logger;
  settings: SharedSettings;
  oauth: OAuthAuthorizationServer;
}

async function httpApp(p: HttpParts): Promise<ReturnType<typeof createHttpApp>> {
  const { config, db, metrics } = p;
  // Read at each scrape, on the read connection so a scrape never waits behind the writer.
  metrics.watchLedgerBacklog(() => readLedgerBacklog(db.readKnex));
  // A curated MCP server naming a key nobody registered is most likely a typo (or a server down at
  // start); p.upstreams is resolved, so the imports have been tried.
  for (const [name, server] of Object.entries(config.mcp.virtualServers)) {
    const missing = server.tools.filter((key) => !p.registry.has(key));
    if (missing.length) p.logger.warn('mcp.virtualServers names keys not registered; they are not offered until they are', { server: name, keys: missing });
  }
  return createHttpApp({
    registry: p.registry,
    dispatch: p.dispatch,
    invocations: p.invocations,
    blobs: p.blobs,
    apiKeys: p.apiKeys,
    webhooks: p.webhooks,
    deliveries: p.deliveries,
    forwarding: p.forwarding,
    ledger: p.ledger,
    tokens: p.tokens,
    tokenUses: p.tokenUses,
    upstreams: p.upstreams,
    upstreamOAuth: p.upstreamOAuth,
    approvals: p.approvals,
    articles: p.articles,
    clock: p.clock,
    mintPerMinute: config.tokens.mintPerMinute,
    workspaces: config.tokens.workspaces,
    logger: p.logger,
    metrics,
    metricsPublic: config.metrics.public,
    mcp: config.mcp,
    publicBaseUrl: config.server.publicBaseUrl,
    bodyLimitBytes: config.server.bodyLimitBytes,
    intake: p.intake,
    limits: {
      budget: new ByteBudget(config.server.bodyBudgetBytes),
      bodyTimeoutMs: config.server.bodyTimeoutMs,
      maxHeaders: config.server.maxHeaders,
      retryAfterSeconds: config.server.retryAfterSeconds,
    },
    inlineBodyBytes: config.ledger.inlineBodyBytes,
    pageBytes: config.ledger.pageBytes,
    oauth: p.oauth,
    // One owner-session service for every face; its key is shared through the database, so every process accepts its cookies.
    access: new RouteAccess(p, new DashboardSessions(new Uint8Array(Buffer.from(await p.settings.once('dashboard_session_key', () => randomBytes(32).toString('base64')), 'base64'))), config.server.publicBaseUrl),
    databaseHealth: async () => {
      await db.knex.raw('select 1');
      return { ok: true, engine: db.dialect.name };
    },
  });
}

export const httpModule = new ContainerModule(({ bind }) => {
  bind(HttpAppToken)
    .toResolvedValue(
      (
        config: Config,
        db: Database,
        metrics: ServiceMetrics,
        registry: CapabilityRegistry,
        dispatch: DispatchService,
        invocations: InvocationStore,
        blobs: BlobStore,
        apiKeys: ApiKeyStore,
        webhooks: WebhookStore,
        deliveries: DeliveryStore,
        forwarding: ForwardingService,
        intake: WebhookIntake,
        ledger: VerifiableLedger,
        tokens: TokenIssuer,
        tokenUses: TokenUseStore,
        upstreams: ConfiguredUpstreamImports,
        approvals: ApprovalService,
        articles: ArticleStore,
        clock: Clock,
        logger: Logger,
        settings: SharedSettings,
        oauth: OAuthAuthorizationServer,
        upstreamOAuth: UpstreamOAuthClients,
      ) => httpApp({ config, db, metrics, registry, dispatch, invocations, blobs, apiKeys, webhooks, deliveries, forwarding, intake, ledger, tokens, tokenUses, upstreams, upstreamOAuth, approvals, articles, clock, logger, settings, oauth }),
      [
        ConfigToken,
        DatabaseToken,
        MetricsToken,
        RegistryToken,
        DispatchToken,
        InvocationStore,
        BlobStore,
        ApiKeyStore,
        WebhookStore,
        DeliveryStore,
        ForwardingToken,
        WebhookIntakeToken,
        VerifiableLedger,
        TokenIssuerToken,
        TokenUseStore,
        UpstreamImportsToken,
        ApprovalServiceToken,
        ArticleStore,
        Clock,
        LoggerToken,
        SharedSettings,
        OAuthServerToken,
        UpstreamOAuth,
      ],
    )
    .inSingletonScope();
});
