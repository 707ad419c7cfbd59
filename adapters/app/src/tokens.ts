// The composition root's own service refs; the core's (coreServices), telemetry's and the HTTP kit's are used as they are.
import type { Server } from 'node:http';
import type { Express } from 'express';
import { createServiceRef } from '@switchyard/core';
import type { Database, StorageHealth } from '@switchyard/storage-knex';
import type { UpstreamOAuthClients } from '@switchyard/mcp';
import type { LoadedPlugin, PluginEnvironment } from '@switchyard/plugin-kit';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import type { BackgroundTask } from './background-work.js';
import type { HttpOutboundSender } from '@switchyard/outbound-http';
import type { ConfiguredUpstreamImports } from '@switchyard/core';

export const appServices = {
  config: createServiceRef<Config>({ id: 'Config' }),
  logger: createServiceRef<Logger>({ id: 'Logger' }),
  /** Whether traces are on (main.ts started the OpenTelemetry SDK): the traced services are wrapped. */
  tracing: createServiceRef<boolean>({ id: 'Tracing' }),
  database: createServiceRef<Database>({ id: 'Database' }),
  /** Whether the database takes writes (/healthz), and the storage failures requests met. */
  storageHealth: createServiceRef<StorageHealth>({ id: 'StorageHealth' }),
  /** Imported MCP servers: the core's UpstreamImports port (same token), as the root starts and stops it. */
  upstreamImports: createServiceRef<ConfiguredUpstreamImports>({ id: 'UpstreamImports' }),
  /** The upstreams that sign in with OAuth: the core's UpstreamOAuth port (same token), with its clients. */
  upstreamOAuth: createServiceRef<UpstreamOAuthClients>({ id: 'UpstreamOAuth' }),
  outboundSender: createServiceRef<HttpOutboundSender>({ id: 'OutboundSender' }),
  /** Every plugin's module binds one (plugin-kit's LoadedPluginToken); the host collects them all. */
  loadedPlugins: createServiceRef<LoadedPlugin>({ id: 'LoadedPlugin', multiple: true }),
  /** What plugins start in (plugin-kit's PluginEnvironmentToken). */
  pluginEnvironment: createServiceRef<PluginEnvironment>({ id: 'PluginEnvironment' }),
  httpApp: createServiceRef<Express>({ id: 'HttpApp' }),
  /** What a process does besides answering HTTP (background-wiring.ts adds each, in the order they start). */
  backgroundTasks: createServiceRef<BackgroundTask>({ id: 'BackgroundTask', multiple: true }),
} as const;

export type { LoadedPlugin, Server };
