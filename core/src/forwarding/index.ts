// Forwarding: destinations, their schedule of attempts, and the service that runs it.
export * from './destination.js';
export * from './filter.js';
export * from './backoff.js';
export * from './standard-webhooks.js';
export * from './ports.js';
export * from './forwarding-service.js';
