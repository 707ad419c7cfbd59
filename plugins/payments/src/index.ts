// The PAYMENTS plugin: one tool capability (auth required, high risk, approval required),
// proxied over streamable HTTP to the payment processor's API-search MCP server.
import { definePlugin, toolRunner } from '@switchyard/plugin-kit';
import { capabilities, RUNNER, SYSTEM } from './manifest.js';
import { optionsSchema, type PaymentsOptions } from './options.js';
import { startPaymentsSimulator } from './simulator/server.js';

export const paymentsPlugin = definePlugin<PaymentsOptions>({
  name: 'payments',
  system: SYSTEM,
  runner: RUNNER,
  capabilities,
  optionsSchema,
  transport: 'streamable-http',
  createRunner: toolRunner,
  upstream: (options) => options.upstream,
  startSimulator: startPaymentsSimulator,
});

export default paymentsPlugin;
export * from './manifest.js';
export { operations, type ApiOperation } from './simulator/catalogue.js';
export { OperationIndex, words } from './simulator/search.js';
export { createPaymentsServer, startPaymentsSimulator } from './simulator/server.js';
