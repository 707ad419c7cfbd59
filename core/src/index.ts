// Public surface of the core: the domain and its ports. No adapter library is imported here.
// The shared kernel (errors, ids, clock, schemas, paging) sits at the top; each concept is a folder
// with its own index.ts (what it offers) and ports.ts (what it needs from outside).
export * from './errors.js';
export * from './json-schema.js';
export * from './validation.js';
export * from './ids.js';
export * from './json-depth.js';
export * from './ledger-paging.js';
export * from './byte-budget.js';
export * from './counted.js';
export * from './service-ref.js';
export * from './page.js';
export * from './clock.js';
export * from './request-scope.js';
export * from './trace-carrier.js';
export * from './settings.js';
export * from './capabilities/index.js';
export * from './imports/index.js';
export * from './access/index.js';
export * from './runs/index.js';
export * from './webhooks/index.js';
export * from './forwarding/index.js';
export * from './ledger/index.js';
export * from './oauth/index.js';
export * from './content/index.js';
export * from './plugins/index.js';
// The verifier's checks and formats, which the core builds on, under the core's name as before.
export * from '@switchyard/verifier';
