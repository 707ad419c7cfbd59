// Ports: what the core needs from the outside world, one file each under ports/. Each is an
// interface plus a same-named token that the composition root binds an adapter to. The records they
// carry live beside the core's other records (page.ts, token-use.ts, approval-record.ts, …).
export type { Page } from './page.js';
export type { TokenUse } from './token-use.js';
export type { ApprovalRecord } from './approval-record.js';
export * from './ports/invocation-store.js';
export * from './ports/run-reservations.js';
export * from './ports/idempotency-key-store.js';
export * from './ports/webhook-store.js';
export * from './ports/delivery-store.js';
export * from './ports/api-key-store.js';
export * from './ports/capability-runner.js';
export * from './ports/caller-channel.js';
export * from './ports/upstream-tool-client.js';
export * from './ports/upstream-imports.js';
export * from './ports/clock.js';
export * from './ports/request-scope.js';
export * from './ports/trace-carrier.js';
export * from './ports/verifiable-ledger.js';
export * from './ports/witness-transport.js';
export * from './ports/token-use-store.js';
export * from './ports/shared-settings.js';
export * from './ports/approval-store.js';
export * from './ports/article-store.js';
export * from './ports/blob-store.js';
export * from './ports/oauth-client-store.js';
export * from './ports/oauth-grant-store.js';
export * from './ports/oauth-code-store.js';
export * from './ports/oauth-refresh-token-store.js';
export * from './ports/client-metadata-source.js';
export * from './ports/upstream-credential-store.js';
export * from './ports/upstream-oauth.js';
export * from './ports/client-rate-windows.js';
export * from './ports/tool-pin-store.js';
export * from './ports/imported-state-channel.js';
