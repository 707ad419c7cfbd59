// The messaging simulator, for tests and tools (`@switchyard/plugin-messaging/simulator`): the plugin's main entry
// imports it only when it starts it.
export { Groups, SEED_GROUPS } from './groups.js';
export { lookupPhoneNumber } from './phone-lookup.js';
export { createMessagingServer, startMessagingSimulator } from './server.js';
