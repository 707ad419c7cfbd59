// The PAYMENTS plugin: one tool capability (auth required, high risk, approval required),
// proxied over streamable HTTP to the payment processor's API-search MCP server.
import { definePlugin, toolRunner } from '@switchyard/plugin-kit';
import { capabilities, RUNNER, SYSTEM } from './manifest.js';
import { optionsSchema, type PaymentsOptions } from './options.js';

export const paymentsPlugin = definePlugin<PaymentsOptions>({
  name: 'payments',
  system: SYSTEM,
  runner: RUNNER,
  capabilities,
  optionsSchema,
  transport: 'streamable-http',
  createRunner: toolRunner,
  upstream: (options) => options.upstream,
  // Loaded only when a simulator is configured: a start on real servers never loads its code.
  startSimulator: async (options) => (await import('./simulator/server.js')).startPaymentsSimulator(options),
});

export default paymentsPlugin;
export * from './manifest.js';
