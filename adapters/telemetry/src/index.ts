// Telemetry: the service's metrics, which storage, the MCP client and the HTTP faces feed without going through one another.
export { ServiceMetrics, type DeliveryCount, type GroupCommitStore, type LedgerBacklogReading, type UpstreamOutcome } from './service-metrics.js';
export type { BytesInFlight } from './bytes-in-flight.js';
export { telemetryServices, telemetryWiring } from './wiring.js';
export { activeTraceIds, currentTraceparent, withinTraceparent, inSpan, spanFailed, startServerSpan, startTracing, traceHeaders, tracingConfigured, type ServerSpan, type Tracing } from './tracing.js';
