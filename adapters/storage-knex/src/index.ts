// Storage adapter: the ledger and API keys on knex, one code path for SQLite and PostgreSQL.
export * from './database.js';
export * from './dialect.js';
export * from './migrations.js';
export * from './invocation-store.js';
export * from './api-key-store.js';
export * from './webhook-store.js';
export * from './delivery-store.js';
export * from './ledger.js';
export * from './ledger-sources.js';
export * from './settings.js';
export * from './token-use-store.js';
export * from './approval-store.js';
export * from './queued-leaves.js';
export * from './leaf-worker.js';
export * from './sql-batches.js';
export * from './sqlite-statements.js';
