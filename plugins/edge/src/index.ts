// The EDGE plugin: one tool capability, proxied over SSE to the edge builds MCP server.
import { definePlugin, toolRunner } from '@switchyard/plugin-kit';
import { capabilities, RUNNER, SYSTEM } from './manifest.js';
import { optionsSchema, type EdgeOptions } from './options.js';
import { startEdgeSimulator } from './simulator/server.js';

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
  startSimulator: startEdgeSimulator,
});

export default edgePlugin;
export * from './manifest.js';
export { ActiveWorkers } from './simulator/state.js';
export { createEdgeServer, startEdgeSimulator } from './simulator/server.js';
