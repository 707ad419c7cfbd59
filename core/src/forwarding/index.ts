// Forwarding: destinations, their schedule of attempts, and the service that runs it.
// Other folders import this concept from here, never from a file inside it.
export * from './destination.js';
export * from './filter.js';
export * from './transform.js';
export * from './in-process-transforms.js';
export * from './forward-headers.js';
export * from './allow-entry.js';
export * from './backoff.js';
export * from './circuit.js';
export * from './memory-circuit-store.js';
export * from './standard-webhooks.js';
export * from './ports.js';
export * from './send-shares.js';
export * from './secret-rotation.js';
export * from './forward-attempt.js';
export * from './forward-allowlist.js';
export * from './destination-admin.js';
export * from './retry-selector.js';
export * from './forwarding-service.js';
