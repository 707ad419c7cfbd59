// The MESSAGING plugin: two tool capabilities, proxied over streamable HTTP to the v4 messaging server.
import { definePlugin, toolRunner } from '@switchyard/plugin-kit';
import { capabilities, RUNNER, SYSTEM } from './manifest.js';
import { optionsSchema, type MessagingOptions } from './options.js';

export const messagingPlugin = definePlugin<MessagingOptions>({
  name: 'messaging',
  system: SYSTEM,
  runner: RUNNER,
  capabilities,
  optionsSchema,
  transport: 'streamable-http',
  createRunner: toolRunner,
  upstream: (options) => options.upstream,
  simulatorSettings: (options) => options.simulator,
  accountPlan: (options) => options.plan ?? 'enterprise',
  // Loaded only when a simulator is configured: a start on real servers never loads its code.
  startSimulator: async (options) => (await import('./simulator/server.js')).startMessagingSimulator(options),
});

export default messagingPlugin;
export * from './manifest.js';
export type { Plan, MessagingOptions } from './options.js';
