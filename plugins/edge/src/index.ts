// The EDGE plugin: one tool capability, proxied over SSE to the edge builds MCP server.
import { ToolRunner, definePlugin, SwitchyardError } from '@switchyard/core';
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
  createRunner({ tools, upstream }) {
    if (!upstream) throw new SwitchyardError('upstream_unavailable', 'plugins.edge.upstream.url is not set');
    return new ToolRunner(tools, upstream);
  },
  startSimulator: startEdgeSimulator,
});

export default edgePlugin;
export * from './manifest.js';
export { ActiveWorkers } from './simulator/state.js';
export { createEdgeServer, startEdgeSimulator } from './simulator/server.js';
