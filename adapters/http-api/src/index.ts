// The REST face: /api routes, /hook deliveries, /metrics and /healthz, and the OpenAPI document.
export { approvalRoutes } from './routes/approvals.js';
export { destinationRoutes } from './routes/destinations.js';
export { listenRoutes } from './routes/listen.js';
export { QUERY_VERBS, dispatchRoutes } from './routes/dispatch.js';
export type { QueryVerb } from './routes/dispatch.js';
export { healthRoutes } from './routes/health.js';
export { deliveryHead, hookRoutes } from './routes/hooks.js';
export { invocationRoutes } from './routes/invocations.js';
export { ledgerRoutes } from './routes/ledger.js';
export { metricsRoutes } from './routes/metrics.js';
export { provenWorkRoutes } from './routes/proven-work.js';
export { logTileRoutes, LOG_PREFIX } from './routes/log-tiles.js';
export { routerRoutes } from './routes/router.js';
export { tokenRoutes } from './routes/tokens.js';
export { upstreamRoutes } from './routes/upstreams.js';
export { webhookRoutes } from './routes/webhooks.js';
export { workspaceRoutes } from './routes/workspace.js';
export { httpApiWiring } from './wiring.js';
