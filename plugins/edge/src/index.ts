// The EDGE plugin: one tool capability, proxied over SSE to the edge builds MCP server.
import { definePlugin, toolRunner } from '@switchyard/plugin-kit';
import { capabilities, RUNNER, SYSTEM } from './manifest.js';
import { optionsSchema, type EdgeOptions } from './options.js';

export const edgePlugin = definePlugin<EdgeOptions>({
  name: 'edge',
  system: SYSTEM,
  runner: RUNNER,
  capabilities,
  optionsSchema,
  transport: 'sse',
  createRunner: toolRunner,
  upstream: (options) => options.upstream,
  simulatorSettings: (options) => options.simulator,
  // Loaded only when a simulator is configured: a start on real servers never loads its code.
  startSimulator: async (options) => (await import('./simulator/server.js')).startEdgeSimulator(options),
});

export default edgePlugin;
export * from './manifest.js';
