// The MESSAGING plugin: two tool capabilities, proxied over streamable HTTP to the v4 messaging server.
import { definePlugin, toolRunner } from '@switchyard/plugin-kit';
import { capabilities, RUNNER, SYSTEM } from './manifest.js';
import { optionsSchema, type MessagingOptions } from './options.js';
import { startMessagingSimulator } from './simulator/server.js';

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
  startSimulator: startMessagingSimulator,
});

export default messagingPlugin;
export * from './manifest.js';
export type { Plan, MessagingOptions } from './options.js';
export { Groups, SEED_GROUPS } from './simulator/groups.js';
export { lookupPhoneNumber } from './simulator/phone-lookup.js';
export { createMessagingServer, startMessagingSimulator } from './simulator/server.js';
