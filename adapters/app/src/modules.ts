// Inversify container modules: each adapter and each plugin binds itself here; the root loads them.
import { ContainerModule } from 'inversify';
import {
  ApiKeyStore,
  CapabilityRegistry,
  DeliveryStore,
  WebhookStore,
  Clock,
  DispatchService,
  InvocationStore,
  RunnerDirectory,
  UpstreamToolClient,
  VerifiableLedger,
  TokenIssuer,
  TokenUseStore,
  SharedSettings,
  ApprovalStore,
  ApprovalService,
  ArticleStore,
  RequestScope,
  systemClock,
  ByteBudget,
  WebhookIntake,
  type StoredDelivery,
  type StoredInvocation,
  type SwitchyardPlugin,
  type UpstreamAddress,
} from '@switchyard/core';
import { KnexApprovalStore, KnexApiKeyStore, KnexDeliveryStore, KnexInvocationStore, KnexLedger, KnexSettings, KnexTokenUseStore, KnexWebhookStore, openDatabase, readLedgerBacklog, type Database } from '@switchyard/storage-knex';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { McpUpstreamClient } from '@switchyard/mcp';
import { ServiceMetrics, createHttpApp, httpRequestScope, statusFor } from '@switchyard/http-express';
import type { Config } from './config.js';
import { FolderArticleStore } from './article-folder.js';
import type { Logger } from './logger.js';
import { MeteredUpstreamClient } from './metered-upstream-client.js';
import {
  ConfigToken,
  DatabaseToken,
  DispatchToken,
  HttpAppToken,
  WebhookIntakeToken,
  LoadedPluginToken,
  LoggerToken,
  MetricsToken,
  RegistryToken,
  RunnerDirectoryToken,
  TokenIssuerToken,
  UpstreamImportsToken,
  type LoadedPlugin,
} from './tokens.js';
import { ConfiguredUpstreamImports } from './upstream-imports.js';

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
    .toDynamicValue(async (ctx) => {
      const config = ctx.get<Config>(ConfigToken);
      return openDatabase(config.database.url, { leafWorker: config.ledger.leafWorker });
    })
    .inSingletonScope();
  bind<InvocationStore>(InvocationStore)
    .toDynamicValue(async (ctx) => {
      const metrics = ctx.get<ServiceMetrics>(MetricsToken);
      const observer = { ...metrics.groupCommit('invocations'), appended: (inv: StoredInvocation) => metrics.runRecorded(inv) };
      return new KnexInvocationStore((await ctx.getAsync<Database>(DatabaseToken)).knex, { observer });
    })
    .inSingletonScope();
  bind<ApiKeyStore>(ApiKeyStore)
    .toDynamicValue(async (ctx) => new KnexApiKeyStore((await ctx.getAsync<Database>(DatabaseToken)).knex))
    .inSingletonScope();
  bind<WebhookStore>(WebhookStore)
    .toDynamicValue(async (ctx) => new KnexWebhookStore((await ctx.getAsync<Database>(DatabaseToken)).knex))
    .inSingletonScope();
  bind<DeliveryStore>(DeliveryStore)
    .toDynamicValue(async (ctx) => {
      const metrics = ctx.get<ServiceMetrics>(MetricsToken);
      const observer = { ...metrics.groupCommit('deliveries'), appended: (d: StoredDelivery) => metrics.deliveryRecorded(d) };
      return new KnexDeliveryStore((await ctx.getAsync<Database>(DatabaseToken)).knex, { observer });
    })
    .inSingletonScope();
  bind<SharedSettings>(SharedSettings)
    .toDynamicValue(async (ctx) => new KnexSettings((await ctx.getAsync<Database>(DatabaseToken)).knex))
    .inSingletonScope();
  bind<ApprovalStore>(ApprovalStore)
    .toDynamicValue(async (ctx) => new KnexApprovalStore((await ctx.getAsync<Database>(DatabaseToken)).knex))
    .inSingletonScope();
  bind<TokenUseStore>(TokenUseStore)
    .toDynamicValue(async (ctx) => new KnexTokenUseStore((await ctx.getAsync<Database>(DatabaseToken)).knex))
    .inSingletonScope();
  // Relative folders resolve against the working directory, like a sqlite: database file.
  bind<ArticleStore>(ArticleStore)
    .toDynamicValue((ctx) => new FolderArticleStore(resolve(ctx.get<Config>(ConfigToken).content.folder), ctx.get<Logger>(LoggerToken)))
    .inSingletonScope();
  bind<VerifiableLedger>(VerifiableLedger)
    .toDynamicValue(async (ctx) => {
      const { ledger } = ctx.get<Config>(ConfigToken);
      const db = await ctx.getAsync<Database>(DatabaseToken);
      return KnexLedger.open(
        db.knex,
        { origin: ledger.origin, signingSeed: ledger.signingKey ?? null, commitmentKey: ledger.commitmentKey ?? null },
        await ctx.getAsync<SharedSettings>(SharedSettings),
        { readKnex: db.readKnex, leafReader: db.leafReader },
      );
    })
    .inSingletonScope();
});

export const mcpModule = new ContainerModule(({ bind }) => {
  bind<UpstreamToolClient>(UpstreamToolClient)
    .toDynamicValue(
      (ctx) =>
        new MeteredUpstreamClient(new McpUpstreamClient({ connectTimeoutMs: ctx.get<Config>(ConfigToken).upstreams.connectTimeoutMs ?? 5000 }), ctx.get<ServiceMetrics>(MetricsToken)),
    )
    .inSingletonScope();
});

interface UpstreamOptions {
  upstream?: { url?: string; transport?: UpstreamAddress['transport']; headers?: Record<string, string> };
  simulator?: Record<string, unknown>;
}

/** A plugin's module: resolves its upstream (starting its simulator when config says "simulator") and its runner. */
export const pluginModule = (plugin: SwitchyardPlugin<unknown>, options: Record<string, unknown>): ContainerModule =>
  new ContainerModule(({ bind }) => {
    bind<LoadedPlugin>(LoadedPluginToken)
      .toDynamicValue(async (ctx) => {
        const config = ctx.get<Config>(ConfigToken);
        const logger = ctx.get<Logger>(LoggerToken);
        const { upstream: wanted, simulator: simulatorSettings } = options as UpstreamOptions;
        const accountPlan = plugin.accountPlan?.(options);
        // A simulator simulates the configured account: it starts on the account's plan unless its own settings say otherwise.
        const settings = accountPlan !== undefined ? { plan: accountPlan, ...simulatorSettings } : simulatorSettings;
        let upstream: UpstreamAddress | undefined;
        let simulator: LoadedPlugin['simulator'];
        if (plugin.transport && wanted?.url) {
          const transport = wanted.transport ?? plugin.transport;
          if (wanted.url === 'simulator') {
            if (!plugin.startSimulator) throw new Error(`plugin ${plugin.name} has no simulator; set plugins.${plugin.name}.upstream.url`);
            simulator = await plugin.startSimulator({ host: config.simulators.host ?? '127.0.0.1', port: 0, ...(settings ? { settings } : {}) });
            logger.info('upstream simulator started', { plugin: plugin.name, url: simulator.url, transport });
            upstream = { url: simulator.url, transport };
          } else {
            upstream = { url: wanted.url, transport, ...(wanted.headers ? { headers: wanted.headers } : {}) };
          }
        }
        const runner = plugin.createRunner({ options, tools: ctx.get<UpstreamToolClient>(UpstreamToolClient), ...(upstream ? { upstream } : {}) });
        return { plugin, runner, ...(upstream ? { upstream } : {}), ...(simulator ? { simulator } : {}), ...(accountPlan !== undefined ? { accountPlan } : {}) };
      })
      .inSingletonScope();
  });

export const coreModule = new ContainerModule(({ bind }) => {
  bind(RunnerDirectoryToken).toConstantValue(new RunnerDirectory());
  bind<CapabilityRegistry>(RegistryToken)
    .toDynamicValue(async (ctx) => {
      const registry = new CapabilityRegistry();
      const runners = ctx.get<RunnerDirectory>(RunnerDirectoryToken);
      for (const loaded of await ctx.getAllAsync<LoadedPlugin>(LoadedPluginToken)) {
        loaded.capabilities = loaded.plugin.capabilities.map((def) => {
          const capability = registry.register(def, loaded.upstream?.url, loaded.accountPlan !== undefined ? { plan: loaded.accountPlan } : {});
          runners.assign(def.key, loaded.runner);
          return capability;
        });
      }
      return registry;
    })
    .inSingletonScope();
  // Imported MCP servers register after the plugins, so a server cannot take a plugin's system.
  bind<ConfiguredUpstreamImports>(UpstreamImportsToken)
    .toDynamicValue(async (ctx) => {
      const config = ctx.get<Config>(ConfigToken);
      const imports = new ConfiguredUpstreamImports(
        config.upstreams.servers ?? {},
        await ctx.getAsync<CapabilityRegistry>(RegistryToken),
        ctx.get<RunnerDirectory>(RunnerDirectoryToken),
        ctx.get<UpstreamToolClient>(UpstreamToolClient),
        ctx.get<Logger>(LoggerToken),
        config.upstreams.listTimeoutMs ?? 10_000,
      );
      await imports.start();
      return imports;
    })
    .inSingletonScope();
  bind<TokenIssuer>(TokenIssuerToken)
    .toDynamicValue(async (ctx) => {
      const { tokens } = ctx.get<Config>(ConfigToken);
      // Configured root keys, else one generated at first start and shared through the database.
      const configured = tokens.rootKeys.map((k) => ({ kid: k.kid, secret: new Uint8Array(Buffer.from(k.secret, 'base64')) }));
      const roots = configured.length
        ? configured
        : [{ kid: 'k1', secret: new Uint8Array(Buffer.from(await (await ctx.getAsync<SharedSettings>(SharedSettings)).once('token_root_key_k1', () => randomBytes(32).toString('base64')), 'base64')) }];
      return new TokenIssuer(roots, ctx.get<Clock>(Clock), await ctx.getAsync<CapabilityRegistry>(RegistryToken));
    })
    .inSingletonScope();
  bind<DispatchService>(DispatchToken)
    .toDynamicValue(async (ctx) => {
      const config = ctx.get<Config>(ConfigToken);
      return new DispatchService(
        await ctx.getAsync<CapabilityRegistry>(RegistryToken),
        ctx.get<RunnerDirectory>(RunnerDirectoryToken),
        await ctx.getAsync<InvocationStore>(InvocationStore),
        ctx.get<Clock>(Clock),
        { timeoutMs: config.dispatch.timeoutMs, approvalTtlSeconds: config.approvals.ttlSeconds, maxArgumentDepth: config.dispatch.maxArgumentDepth },
        ctx.get<RequestScope>(RequestScope),
      );
    })
    .inSingletonScope();
  // The rules of a delivery to /hook; steps after acceptance (forwarding) join its last argument.
  bind<WebhookIntake>(WebhookIntakeToken)
    .toDynamicValue(async (ctx) => {
      const config = ctx.get<Config>(ConfigToken);
      return new WebhookIntake(
        await ctx.getAsync<WebhookStore>(WebhookStore),
        await ctx.getAsync<DeliveryStore>(DeliveryStore),
        await ctx.getAsync<CapabilityRegistry>(RegistryToken),
        await ctx.getAsync<DispatchService>(DispatchToken),
        ctx.get<Clock>(Clock),
        {
          bodyLimitBytes: config.webhooks.bodyLimitBytes,
          refusedBodyBytes: config.webhooks.refusedBodyBytes,
          answerStatus: (code) => (code === null ? 200 : statusFor(code)),
        },
        ctx.get<RequestScope>(RequestScope),
      );
    })
    .inSingletonScope();
});

export const httpModule = new ContainerModule(({ bind }) => {
  bind(HttpAppToken)
    .toDynamicValue(async (ctx) => {
      const config = ctx.get<Config>(ConfigToken);
      const db = await ctx.getAsync<Database>(DatabaseToken);
      const metrics = ctx.get<ServiceMetrics>(MetricsToken);
      // Read at each scrape, on the read connection so a scrape never waits behind the writer.
      metrics.watchLedgerBacklog(() => readLedgerBacklog(db.readKnex));
      return createHttpApp({
        registry: await ctx.getAsync<CapabilityRegistry>(RegistryToken),
        dispatch: await ctx.getAsync<DispatchService>(DispatchToken),
        invocations: await ctx.getAsync<InvocationStore>(InvocationStore),
        apiKeys: await ctx.getAsync<ApiKeyStore>(ApiKeyStore),
        webhooks: await ctx.getAsync<WebhookStore>(WebhookStore),
        deliveries: await ctx.getAsync<DeliveryStore>(DeliveryStore),
        ledger: await ctx.getAsync<VerifiableLedger>(VerifiableLedger),
        tokens: await ctx.getAsync<TokenIssuer>(TokenIssuerToken),
        tokenUses: await ctx.getAsync<TokenUseStore>(TokenUseStore),
        upstreams: await ctx.getAsync<ConfiguredUpstreamImports>(UpstreamImportsToken),
        approvals: new ApprovalService(
          await ctx.getAsync<InvocationStore>(InvocationStore),
          await ctx.getAsync<ApprovalStore>(ApprovalStore),
          await ctx.getAsync<DispatchService>(DispatchToken),
          ctx.get<Clock>(Clock),
        ),
        articles: ctx.get<ArticleStore>(ArticleStore),
        clock: ctx.get<Clock>(Clock),
        mintPerMinute: config.tokens.mintPerMinute,
        workspaces: config.tokens.workspaces,
        logger: ctx.get<Logger>(LoggerToken),
        metrics,
        metricsPublic: config.metrics.public,
        publicBaseUrl: config.server.publicBaseUrl,
        bodyLimitBytes: config.server.bodyLimitBytes,
        intake: await ctx.getAsync<WebhookIntake>(WebhookIntakeToken),
        limits: {
          budget: new ByteBudget(config.server.bodyBudgetBytes),
          bodyTimeoutMs: config.server.bodyTimeoutMs,
          maxHeaders: config.server.maxHeaders,
          retryAfterSeconds: config.server.retryAfterSeconds,
        },
        inlineBodyBytes: config.ledger.inlineBodyBytes,
        pageBytes: config.ledger.pageBytes,
        dashboardSessionKey: new Uint8Array(Buffer.from(await (await ctx.getAsync<SharedSettings>(SharedSettings)).once('dashboard_session_key', () => randomBytes(32).toString('base64')), 'base64')),
        databaseHealth: async () => {
          await db.knex.raw('select 1');
          return { ok: true, engine: db.dialect.name };
        },
      });
    })
    .inSingletonScope();
});
