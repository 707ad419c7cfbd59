// The composition root: config in, a running Switchyard out (container built once, at startup).
import 'reflect-metadata';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { Container } from 'inversify';
import { coreServices, randomId, type ApiKeyStore, type CapabilityRegistry } from '@switchyard/core';
import { createHttpServer } from '@switchyard/http-kit';
import { httpKitWiring, httpServices, type HttpFace } from '@switchyard/http-kit';
import { httpApiWiring } from '@switchyard/http-api';
import { httpMcpWiring } from '@switchyard/http-mcp';
import { httpOAuthWiring } from '@switchyard/http-oauth';
import { webDashboardWiring } from '@switchyard/web-dashboard';
import { webContentWiring } from '@switchyard/web-content';
import { telemetryServices, telemetryWiring } from '@switchyard/telemetry';
import { wire } from '@switchyard/wiring';
import { BackgroundWork, tasksFor, type BackgroundTask } from './background-work.js';
import { backgroundWiring } from './background-wiring.js';
import type { Config } from './config.js';
import { createLogger, type Logger } from './logger.js';
import { configWiring, coreWiring, httpAppWiring, mcpWiring, pluginEnvironmentWiring, storageWiring } from './modules.js';
import { loadPlugins } from './plugin-loader.js';
import { appServices, type LoadedPlugin } from './tokens.js';
import type { ConfiguredUpstreamImports } from '@switchyard/core';

export interface Switchyard {
  config: Config;
  app: Express;
  container: Container;
  registry: CapabilityRegistry;
  /** Imported MCP servers (config upstreams.servers): list and refresh. */
  upstreams: ConfiguredUpstreamImports;
  plugins: LoadedPlugin[];
  logger: Logger;
  /** The background work this process runs (for role api only the tasks every role runs: the run sweeper, and the upstream listener on a shared database), started with the service. */
  background: BackgroundWork;
  /** Set when this start generated the first API key (it is shown once, then only its hash is kept). */
  generatedApiKey: string | null;
  /** A new HTTP server around the app with the configured header limits (not listening yet). */
  createServer(): Server;
  listen(): Promise<{ server: Server; url: string }>;
  /** Ends the faces' long-lived streams as their protocol says (close does it first; a caller with its own server calls it before closing that). */
  endStreams(): Promise<void>;
  close(): Promise<void>;
}

export async function createSwitchyard(config: Config, options: { logger?: Logger; tracing?: boolean } = {}): Promise<Switchyard> {
  const logger = options.logger ?? createLogger(config.log.level);
  const container = new Container();
  const choices = await loadPlugins(config);
  // The packages, each with its own wiring; the HTTP faces are mounted in the order listed here.
  const packages = [
    configWiring(config, logger, options.tracing ?? false),
    telemetryWiring,
    storageWiring,
    mcpWiring,
    pluginEnvironmentWiring,
    coreWiring,
    httpKitWiring,
    // MCP before the API: a tools/call then walks none of the API's routes (no API route is under
    // /mcp), and the API's requests pass the MCP face with one prefix check (its paths).
    httpMcpWiring,
    httpApiWiring,
    httpOAuthWiring,
    webDashboardWiring,
    webContentWiring,
    httpAppWiring,
    backgroundWiring,
  ];
  // Each enabled plugin brings its own module (plugin-kit), binding its LoadedPlugin.
  await container.loadAsync(...wire(packages, [appServices.loadedPlugins]), ...choices.map((c) => c.plugin.containerModule(c.options)));

  const plugins: LoadedPlugin[] = [];
  let server: Server | undefined;
  let background: BackgroundWork | undefined;
  let upstreams: ConfiguredUpstreamImports | undefined;
  let faces: HttpFace[] = [];
  // What outlives a request ends first, in its protocol's terms, while it can still be answered and
  // recorded: an MCP caller's subscriptions/listen streams, and the runs paused for a caller's input.
  const endStreams = async (): Promise<void> => {
    await Promise.all(faces.map((f) => f.close?.().catch(() => {})));
  };
  const close = async (): Promise<void> => {
    await endStreams();
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server!.close(() => resolve()));
    }
    // Background work stops in reverse order of start: the forwarder's attempts in flight end first.
    await background?.stop();
    if (container.isBound(appServices.outboundSender.token) && background) container.get<typeof appServices.outboundSender.T>(appServices.outboundSender.token).close();
    upstreams?.stop();
    await container.get<typeof coreServices.upstreamTools.T>(coreServices.upstreamTools.token).close();
    await Promise.all(plugins.map((p) => p.simulator?.close()));
    if (container.isBound(appServices.database.token)) await (await container.getAsync<typeof appServices.database.T>(appServices.database.token)).close();
  };

  try {
    const app = await container.getAsync<Express>(appServices.httpApp.token);
    faces = await container.getAllAsync<HttpFace>(httpServices.face.token);
    plugins.push(...(await container.getAllAsync<LoadedPlugin>(appServices.loadedPlugins.token)));
    const registry = await container.getAsync<CapabilityRegistry>(coreServices.registry.token);
    upstreams = await container.getAsync<ConfiguredUpstreamImports>(appServices.upstreamImports.token);
    background = new BackgroundWork(tasksFor(config.role, await container.getAllAsync<BackgroundTask>(appServices.backgroundTasks.token)), logger);
    await background.start();
    const metrics = container.get<typeof telemetryServices.metrics.T>(telemetryServices.metrics.token);
    const createServer = (): Server => createHttpServer(app, { maxHeaderBytes: config.server.maxHeaderBytes, refused: (code) => metrics.requestRefused(code) });
    const generatedApiKey = await bootstrapApiKey(await container.getAsync<ApiKeyStore>(coreServices.apiKeys.token), config.auth.apiKey ?? null);
    return {
      config,
      app,
      container,
      registry,
      upstreams,
      plugins,
      logger,
      background,
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
      endStreams,
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
