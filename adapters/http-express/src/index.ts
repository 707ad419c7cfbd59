// HTTP adapter (Express 5): the service's public face.
export { createHttpApp } from './app.js';
export type { HttpContext, HttpLogger } from './context.js';
export { HTTP_STATUS, statusFor } from './status.js';
export { API_KEY_HEADER } from './api-key.js';
export { readBody } from './raw-body.js';
export { deliveryHead } from './routes/hooks.js';
export { createHttpServer, type ServerLimits } from './server.js';
export type { RequestLimits } from './request-gate.js';
export { UNMATCHED_ROUTE, routePattern } from './route-pattern.js';
export { ServiceMetrics, type GroupCommitStore, type UpstreamOutcome, type LedgerBacklogReading } from './metrics.js';
export { REQUEST_ID_HEADER, REQUEST_ID_PATTERN, currentRequestId, httpRequestScope, type BytesInFlight } from './request-id.js';
export { QUERY_VERBS, type QueryVerb } from './routes/dispatch.js';
