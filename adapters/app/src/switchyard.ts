// The composition root: config in, a running Switchyard out (container built once, at startup).
import 'reflect-metadata';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { Container } from 'inversify';
import { ApiKeyStore, CapabilityRegistry, type ForwardingService, UpstreamToolClient, VerifiableLedger, randomId } from '@switchyard/core';
import { startIntegrator, type Database } from '@switchyard/storage-knex';
import { createHttpServer } from '@switchyard/http-kit';
import type { ServiceMetrics } from '@switchyard/telemetry';
import type { Config } from './config.js';
import { createLogger, type Logger } from './logger.js';
import { configModule, coreModule, httpModule, mcpModule, pluginEnvironmentModule, storageModule } from './modules.js';
import { loadPlugins } from './plugin-loader.js';
import { DatabaseToken, ForwardingToken, HttpAppToken, OutboundSenderToken, LoadedPluginToken, MetricsToken, RegistryToken, UpstreamImportsToken, type LoadedPlugin } from './tokens.js';
import type { ConfiguredUpstreamImports } from './upstream-imports.js';
import type { HttpOutboundSender } from './forward-sender.js';

export interface Switchyard {
  config: Config;
  app: Express;
  container: Container;
  registry: CapabilityRegistry;
  /** Imported MCP servers (config upstreams.servers): list and refresh. */
  upstreams: ConfiguredUpstreamImports;
  plugins: LoadedPlugin[];
  logger: Logger;
  /** Set when this start generated the first API key (it is shown once, then only its hash is kept). */
  generatedApiKey: string | null;
  /** A new HTTP server around the app with the configured header limits (not listening yet). */
  createServer(): Server;
  listen(): Promise<{ server: Server; url: string }>;
  close(): Promise<void>;
}

export async function createSwitchyard(config: Config, options: { logger?: Logger } = {}): Promise<Switchyard> {
  const logger = options.logger ?? createLogger(config.log.level);
  const container = new Container();
  const choices = await loadPlugins(config);
  await container.loadAsync(configModule(config, logger), storageModule, mcpModule, pluginEnvironmentModule, ...choices.map((c) => c.plugin.containerModule(c.options)), coreModule, httpModule);

  const plugins: LoadedPlugin[] = [];
  let server: Server | undefined;
  let integrator: { stop(): Promise<void> } | undefined;
  let upstreams: ConfiguredUpstreamImports | undefined;
  let forwarding: ForwardingService | undefined;
  const close = async (): Promise<void> => {
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server!.close(() => resolve()));
    }
    await forwarding?.stop();
    if (container.isBound(OutboundSenderToken) && forwarding) container.get<HttpOutboundSender>(OutboundSenderToken).close();
    await integrator?.stop();
    upstreams?.stop();
    await container.get<UpstreamToolClient>(UpstreamToolClient).close();
    await Promise.all(plugins.map((p) => p.simulator?.close()));
    if (container.isBound(DatabaseToken)) await (await container.getAsync<Database>(DatabaseToken)).close();
  };

  try {
    const app = await container.getAsync<Express>(HttpAppToken);
    plugins.push(...(await container.getAllAsync<LoadedPlugin>(LoadedPluginToken)));
    const registry = await container.getAsync<CapabilityRegistry>(RegistryToken);
    upstreams = await container.getAsync<ConfiguredUpstreamImports>(UpstreamImportsToken);
    // Queued ledger entries join the Merkle tree on a timer; every batch signs a checkpoint.
    const ledger = await container.getAsync<VerifiableLedger>(VerifiableLedger);
    integrator = startIntegrator(ledger, config.ledger.integrateIntervalMs, (e) => logger.error('ledger integration failed; retrying', { error: (e as Error).message }));
    // Due forwarding attempts (the schedule is in the database) are worked from now on.
    forwarding = await container.getAsync<ForwardingService>(ForwardingToken);
    forwarding.start();
    const metrics = container.get<ServiceMetrics>(MetricsToken);
    const createServer = (): Server => createHttpServer(app, { maxHeaderBytes: config.server.maxHeaderBytes, refused: (code) => metrics.requestRefused(code) });
    const generatedApiKey = await bootstrapApiKey(await container.getAsync<ApiKeyStore>(ApiKeyStore), config.auth.apiKey ?? null);
    return {
      config,
      app,
      container,
      registry,
      upstreams,
      plugins,
      logger,
      generatedApiKey,
      createServer,
      async listen() {
        server = await new Promise<Server>((resolve, reject) => {
          const s = createServer();
          s.once('error', reject);
          s.listen(config.server.port, config.server.host, () => resolve(s));
        });
        const { port } = server.address() as AddressInfo;
        const host = config.server.host.includes(':') ? `[${config.server.host}]` : config.server.host;
        return { server, url: `http://${host}:${port}` };
      },
      close,
    };
  } catch (err) {
    await close().catch(() => {});
    throw err;
  }
}

/** The configured key is stored (hashed); with none configured and none stored, one is made once. */
async function bootstrapApiKey(apiKeys: ApiKeyStore, configured: string | null): Promise<string | null> {
  if (configured) {
    await apiKeys.add(configured, 'bootstrap (SWITCHYARD_API_KEY)');
    return null;
  }
  if ((await apiKeys.count()) > 0) return null;
  const key = randomId('sy_', 40);
  await apiKeys.add(key, 'generated at first start');
  return key;
}
