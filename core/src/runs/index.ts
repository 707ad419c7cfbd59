// Runs and dispatch: one request, one invocation; lineage, replay, idempotency, approvals, write-ahead.
// Other folders import this concept from here, never from a file inside it.
export * from './invocation.js';
export * from './lineage.js';
export * from './dispatch.js';
export * from './interrupted-runs.js';
export * from './pending-outcomes.js';
export * from './idempotency.js';
export * from './approvals.js';
export * from './caller-rounds.js';
export * from './approval-record.js';
export * from './ports.js';
